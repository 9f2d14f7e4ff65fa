// kedb web: triage a failed job's log against the known-error database.
// Plain DOM, no framework and no build step: these ES modules are compiled into
// the kedb binary and served as they are. Every string from the API goes into
// the page as a text node (h() in dom.js), never through innerHTML, so a log
// cannot inject markup.
import { lang, saveLang, t, loc, applyLabels } from '/i18n.js';
import { h, pct, num, present, idPath, recordHref } from '/dom.js';
import { renderGraph, withRecordConditions } from '/graph.js';
import { outcomeControl, reportedLine, hitsSection } from '/feedback.js';

const rateClass = (x) => (x >= 0.8 ? 'hi' : x >= 0.5 ? 'mid' : 'lo');
const byRate = (key) => (a, b) => (b[key] ?? -1) - (a[key] ?? -1);

function resolvableText(v) {
  const k = String(v).toLowerCase();
  return ['true', 'partial', 'false'].includes(k) ? t('res.' + k) : String(v ?? '—');
}

function linesText(lines) {
  if (!Array.isArray(lines) || lines.length < 2) return '';
  return lines[0] === lines[1] ? t('block.line', lines[0]) : t('block.lines', lines[0], lines[1]);
}

// ---------------------------------------------------------------------------
// API: JSON in, JSON out. A 4xx/5xx body {"error":{"code","message"}} becomes an
// ApiError whose text is shown in the error box.
class ApiError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

async function api(path, body) {
  const init = body === undefined ? {} :
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  let res;
  try { res = await fetch(path, init); } catch (e) { throw new ApiError(0, 'network', t('error.network')); }
  let data = null;
  try { data = await res.json(); } catch { /* not JSON: reported below */ }
  if (!res.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(res.status, err.code || 'http_' + res.status, err.message || res.statusText);
  }
  if (data === null) throw new ApiError(res.status, 'bad_response', 'the server did not answer JSON');
  return data;
}

const query = (params) => new URLSearchParams(Object.entries(params).filter(([, v]) => present(v))).toString();

const errorBox = () => document.querySelector('[data-testid="error"]');
function showError(e) {
  const box = errorBox();
  box.replaceChildren(h('strong', null, t('error') + (e.status ? ' ' + e.status : '') + t('colon')),
    e.message || String(e), e.code ? h('code', null, ' ' + e.code) : '');
  box.hidden = false;
}
function clearError() { errorBox().hidden = true; errorBox().replaceChildren(); }

// ---------------------------------------------------------------------------
// Router: #/, #/errors/<id with slashes>, #/search?q=, #/domains, #/domains/<d>.
// `generation` drops answers that arrive after the user has moved on.
let generation = 0;
const view = () => document.getElementById('view');

function parseHash() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const qi = raw.indexOf('?');
  const path = qi < 0 ? raw : raw.slice(0, qi);
  const params = new URLSearchParams(qi < 0 ? '' : raw.slice(qi + 1));
  let parts;
  try { parts = path.split('/').filter(Boolean).map(decodeURIComponent); } catch { parts = ['?']; }
  return { parts, params };
}

async function route() {
  const gen = ++generation;
  const { parts, params } = parseHash();
  clearError();
  const page = parts[0] || 'triage';
  document.querySelectorAll('[data-nav]').forEach((a) => {
    if (a.dataset.nav === page) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  });
  const search = document.querySelector('[data-testid="search-input"]');
  if (page === 'search') search.value = params.get('q') || '';
  const v = view();
  v.dataset.page = page;
  try {
    if (page === 'triage') return renderTriage(v);
    if (page === 'errors' && parts.length > 1) return await renderRecord(v, parts.slice(1).join('/'), gen);
    if (page === 'search') return await renderSearch(v, params.get('q') || '', params.get('domain'), gen);
    if (page === 'domains' && parts.length === 1) return await renderDomains(v, gen);
    if (page === 'domains') return await renderDomain(v, parts[1], params.get('sort_by') || 'name', gen);
    v.replaceChildren(h('p', { class: 'muted' }, t('notfound'), ' ', h('a', { href: '#/' }, t('nav.triage'))));
  } catch (e) {
    if (gen === generation) { v.replaceChildren(); showError(e); }
  }
}

function loading(v) { v.replaceChildren(h('p', { class: 'muted', testid: 'loading' }, t('loading'))); }

// ---------------------------------------------------------------------------
// Triage. The log and the last answer live here so that leaving for a record
// page and coming back does not lose them; a language switch re-asks the server.
const triage = { log: '', scan: null, scanned: '', lang: null, busy: false };

const EXAMPLE_LOG = [
  '2026-03-14 09:12:01,114 INFO  launcher: python 3.11.7, torch 2.2.1+cu121, cuDNN 8.9.2',
  '2026-03-14 09:12:04,666 INFO  train: epoch 0 step 1/3000 loss=6.8603',
  'Traceback (most recent call last):',
  '  File "/srv/train/main.py", line 187, in main',
  '    loss = criterion(model(images), labels)',
  '  File "/usr/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py", line 171, in forward',
  '    return F.batch_norm(',
  'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0',
  '2026-03-14 09:41:07,551 ERROR launcher: worker 0 exited with code 1',
].join('\n');

function renderTriage(v) {
  const input = h('textarea', {
    testid: 'log-input', id: 'log', spellcheck: 'false', rows: 14, wrap: 'off',
    placeholder: EXAMPLE_LOG.split('\n').slice(2, 4).join('\n') + '\n…',
    oninput: () => { triage.log = input.value; },
    onkeydown: (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); analyze(); } },
    'aria-describedby': 'log-hint',
  });
  input.value = triage.log;
  const file = h('input', { type: 'file', hidden: true, accept: '.log,.txt,text/*', onchange: async () => {
    if (file.files[0]) { input.value = triage.log = await file.files[0].text(); }
  } });
  // Dropping a log file on the box reads it locally; nothing leaves the page but the scan request.
  input.addEventListener('dragover', (e) => e.preventDefault());
  input.addEventListener('drop', async (e) => {
    const f = e.dataTransfer && e.dataTransfer.files[0];
    if (f) { e.preventDefault(); input.value = triage.log = await f.text(); }
  });
  const button = h('button', { type: 'button', class: 'primary', testid: 'analyze', onclick: () => analyze() });
  v.replaceChildren(
    h('section', { class: 'paste' },
      h('h1', null, h('label', { for: 'log' }, t('triage.title'))),
      h('p', { class: 'muted', id: 'log-hint' }, t('triage.hint')),
      input,
      h('div', { class: 'actions' }, button, h('kbd', null, t('triage.shortcut')),
        h('span', { class: 'spacer' }),
        h('button', { type: 'button', class: 'link', testid: 'example',
          onclick: () => { input.value = triage.log = EXAMPLE_LOG; input.focus(); } }, t('triage.example')),
        h('button', { type: 'button', class: 'link', onclick: () => file.click() }, t('triage.open')), file)),
    h('section', { class: 'results', testid: 'results' }));
  updateTriage();
  document.title = 'kedb — ' + t('nav.triage');
}

// Only the button and the results change while analysing, so the paste box
// keeps its focus, selection and scroll position.
function updateTriage() {
  const button = document.querySelector('[data-testid="analyze"]');
  const results = document.querySelector('[data-testid="results"]');
  if (!button || !results) return;
  button.disabled = triage.busy;
  button.textContent = t(triage.busy ? 'triage.busy' : 'triage.analyze');
  results.setAttribute('aria-busy', String(triage.busy));
  results.replaceChildren(...(triage.scan ? renderScan(triage.scan) : []));
}

// `text` is the paste box unless given: a language switch asks again for the
// log the shown answer came from, even if the box was edited since.
async function analyze(text) {
  const input = document.querySelector('[data-testid="log-input"]');
  if (text === undefined) text = triage.log = input ? input.value : triage.log;
  clearError();
  if (!text.trim()) { showError(new ApiError(0, '', t('triage.empty'))); return; }
  const asked = lang;
  triage.busy = true;
  updateTriage();
  try {
    triage.scan = await api('/v1/scan?' + query({ lang: asked }), { log: text, lang: asked, top: 3 });
    triage.scanned = text;
    triage.lang = asked;
  } catch (e) {
    showError(e);
  } finally {
    triage.busy = false;
    updateTriage();
  }
  // The language was switched while the server worked: ask again in the new one.
  if (triage.lang === asked && asked !== lang) analyze(triage.scanned);
}

function renderScan(scan) {
  const blocks = scan.blocks || [];
  const sum = scan.summary || {};
  const facts = [
    h('span', null, h('b', null, sum.lines ?? '—'), ' ', t('sum.lines')),
    h('span', null, h('b', null, sum.blocks ?? blocks.length), ' ', t('sum.blocks')),
    h('span', { class: sum.known ? 'known' : '' }, h('b', null, sum.known ?? '—'), ' ', t('sum.known')),
    sum.truncated_lines ? h('span', { class: 'warn' }, t('sum.truncated', sum.truncated_lines)) : null,
    sum.dropped_blocks ? h('span', { class: 'warn' }, t('sum.dropped', sum.dropped_blocks)) : null,
  ];
  return [h('div', { class: 'summary', testid: 'summary' }, facts),
    ...(blocks.length ? blocks.map((b, i) => renderBlock(b, i)) : [h('p', { class: 'muted' }, t('sum.noblocks'))])];
}

function renderBlock(b, i) {
  const caused = Number.isInteger(b.caused_by) ? b.caused_by : null;
  const frames = Array.isArray(b.frames) ? b.frames : [];
  const total = b.frame_count ?? frames.length;
  const matches = Array.isArray(b.matches) ? b.matches : [];
  const head = h('header', { class: 'bhead' },
    h('span', { class: 'num' }, '#' + (i + 1)),
    b.root ? h('span', { class: 'badge root', testid: 'root-badge', title: t('block.rootHint') }, t('block.root')) : null,
    h('span', { class: 'badge kind' }, b.kind || '?'),
    h('span', { class: 'muted' }, linesText(b.lines)),
    b.count > 1 ? h('span', { class: 'badge repeat' }, t('block.repeat', b.count)) : null,
    caused !== null ? h('button', { type: 'button', class: 'link', testid: 'caused-by',
      onclick: () => document.getElementById('block-' + caused)?.scrollIntoView({ behavior: 'smooth' }) },
    t('block.causedBy', caused + 1)) : null);
  const excerpt = h('div', { class: 'excerpt' },
    total > 0 ? h('details', { class: 'frames', testid: 'frames' },
      h('summary', null, frames.length < total ? t('block.framesShown', frames.length, total) : t('block.frames', total)),
      h('ol', null, frames.map((f) => h('li', null, h('code', null, f))))) : null,
    h('div', { class: 'decisive', testid: 'decisive' },
      h('span', { class: 'ln' }, b.decisive_line ?? ''), h('mark', null, b.decisive || '')));
  let known;
  if (!matches.length || b.abstained) {
    known = h('p', { class: 'abstained', testid: 'abstained' }, t('block.abstained'));
  } else {
    const rest = matches.slice(1);
    known = [renderCard(matches[0], true), rest.length ? h('details', { class: 'alts' },
      h('summary', null, rest.length === 1 ? t('block.other1') : t('block.others', rest.length)),
      rest.map((m) => renderCard(m, false))) : null];
  }
  return h('article', { class: 'block' + (b.root ? ' is-root' : ''), id: 'block-' + i, testid: 'block',
    'data-root': String(!!b.root), 'data-index': i }, head, excerpt, known);
}

function renderCard(m, best) {
  const works = (m.workarounds || []).slice().sort(byRate('success_rate'));
  const dead = (m.dead_ends || []).slice().sort(byRate('fail_rate'));
  return h('section', { class: 'card' + (best ? '' : ' alt'), testid: 'record-card', 'data-id': m.id },
    h('header', { class: 'chead' },
      h('a', { href: recordHref(m.id), class: 'rid', testid: 'record-link' }, m.id),
      m.domain ? h('span', { class: 'badge' }, m.domain) : null,
      m.kind ? h('span', { class: 'badge ' + (m.kind === 'fuzzy' ? 'fuzzy' : 'regex') }, m.kind) : null,
      h('span', { class: 'muted score', testid: 'score' }, t('card.score', pct(m.confidence), num(m.score)))),
    present(m.signature) ? h('p', { class: 'sig' }, m.signature) : null,
    h('div', { class: 'facts' },
      h('span', null, t('card.resolvable'), t('colon'), h('b', null, resolvableText(m.resolvable))),
      h('span', null, t('card.fixRate'), t('colon'), h('b', null, pct(m.fix_success_rate))),
      h('span', null, t('card.recordConfidence'), t('colon'), h('b', null, pct(m.record_confidence)))),
    h('h4', null, t('card.rootCause')),
    h('p', { class: 'cause', testid: 'root-cause' }, present(m.root_cause) ? m.root_cause : '—'),
    h('h4', null, t('card.workarounds')), fixList(works),
    dead.length ? [h('h4', { class: 'dead' }, t('card.deadEnds')), deadList(dead)] : null,
    Array.isArray(m.why) && m.why.length ? h('details', { class: 'why' }, h('summary', null, t('card.why')),
      h('table', null, m.why.map((w) => h('tr', null, h('th', null, w.factor), h('td', null, num(w.value)),
        h('td', { class: 'muted' }, '×' + num(w.weight)), h('td', { class: 'muted' }, w.detail || ''))))) : null);
}

// ---------------------------------------------------------------------------
// Record page: the record's native JSON, every part of it, and its graph.
async function renderRecord(v, id, gen) {
  loading(v);
  const [rec, chain] = await Promise.all([
    api('/v1/errors/' + idPath(id)),
    api('/v1/errors/' + idPath(id) + '/chain?' + query({ depth: 2, lang })).catch((e) => e),
    loadHealth(),
  ]);
  if (gen !== generation) return;
  const zhWork = lang === 'zh' && Array.isArray(rec.workarounds_zh) ? rec.workarounds_zh : [];
  // workarounds_zh runs parallel to workarounds (plain strings, or objects with action);
  // pair them up before sorting by success rate.
  // With reports in the server's store, each rate is the posterior the
  // other front ends show (observed runs parallel to workarounds too).
  const observed = rec.observed && Array.isArray(rec.observed.workarounds) ? rec.observed.workarounds : [];
  const works = (rec.workarounds || []).map((w, i) => {
    const z = zhWork[i];
    const zt = typeof z === 'string' ? z : z && z.action;
    const o = observed[i];
    return { ...w, action: present(zt) ? zt : w.action, position: i + 1, observed: o,
      success_rate: o && typeof o.rate === 'number' ? o.rate : w.success_rate };
  }).sort(byRate('success_rate'));
  const dead = (rec.dead_ends || []).slice().sort(byRate('fail_rate'));
  const title = loc(rec, 'signature') || rec.id;
  const tclass = 'rtitle' + (title.length > 140 ? ' long' : ''); // some messages run to a paragraph
  const meta = [
    ['rec.domain', rec.domain], ['rec.category', [rec.category, rec.subcategory].filter(present).join(' / ')],
    ['rec.errorCode', rec.error_code], ['card.resolvable', present(rec.resolvable) ? resolvableText(rec.resolvable) : null],
    ['card.fixRate', typeof rec.fix_success_rate === 'number' ? pct(rec.fix_success_rate) : null],
    ['card.confidence', typeof rec.confidence === 'number' ? pct(rec.confidence) : null],
    ['rec.tier', rec.verification_tier], ['rec.evidence', rec.evidence_count],
    ['rec.firstSeen', rec.first_seen], ['rec.lastConfirmed', rec.last_confirmed], ['rec.lastUpdated', rec.last_updated],
  ].filter(([, x]) => present(x));
  const os = rec.os_specific && typeof rec.os_specific === 'object' ? Object.entries(rec.os_specific) : [];
  v.replaceChildren(h('article', { class: 'record', testid: 'record', 'data-id': rec.id },
    h('p', { class: 'crumbs' }, h('a', { href: '#/domains/' + encodeURIComponent(rec.domain || '') }, rec.domain), ' / ',
      h('code', null, rec.id)),
    // The English signature is the line to grep logs for: when the title is a
    // translation, it is shown under it as it appears in logs.
    title === rec.signature ? h('h1', { class: tclass, testid: 'signature' }, title) : [h('h1', { class: tclass }, title),
      h('div', { class: 'orig' }, h('span', { class: 'muted' }, t('rec.original')),
        h('code', { class: 'sigline', testid: 'signature' }, rec.signature))],
    Array.isArray(rec.aliases) && rec.aliases.length ? h('div', { class: 'orig' }, h('span', { class: 'muted' }, t('rec.aliases')),
      rec.aliases.map((a) => h('code', { class: 'sigline alias' }, a))) : null,
    h('dl', { class: 'meta' }, meta.map(([k, x]) => [h('dt', null, t(k)), h('dd', null, String(x))])),
    h('h2', null, t('card.rootCause')),
    h('p', { class: 'cause', testid: 'root-cause' }, loc(rec, 'root_cause') || '—'),
    h('h2', null, t('card.workarounds')), fixList(works, health.reports ? rec.id : null),
    dead.length ? [h('h2', { class: 'dead' }, t('card.deadEnds')), deadList(dead)] : null,
    health.store ? [h('h2', null, t('hits.title')), hitsSection(rec.id, api)] : null,
    h('h2', null, t('rec.graph')),
    chain instanceof Error ? h('p', { class: 'errorline' }, t('error') + t('colon') + chain.message) : renderGraph(withRecordConditions(chain, rec), rec.id),
    Array.isArray(rec.versions) && rec.versions.length ? [h('h2', null, t('rec.versions')), versionsTable(rec.versions)] : null,
    os.length ? [h('h2', null, t('rec.os')), h('dl', { class: 'meta os' },
      os.map(([k, x]) => [h('dt', null, k), h('dd', null, typeof x === 'string' ? x : JSON.stringify(x))]))] : null,
    // Only web links become links: a record is data, and a javascript: URL
    // in it must not run in the reader's page.
    present(rec.official_doc_url) ? [h('h2', null, t('rec.doc')), h('p', null,
      /^https?:\/\//i.test(rec.official_doc_url)
        ? h('a', { href: rec.official_doc_url, rel: 'noopener noreferrer', target: '_blank', testid: 'doc-link' },
          rec.official_doc_section || rec.official_doc_url)
        : rec.official_doc_url)] : null,
    Array.isArray(rec.tags) && rec.tags.length ? h('p', { class: 'tags' }, h('span', { class: 'muted' }, t('rec.tags'), t('colon')),
      rec.tags.map((g) => h('a', { class: 'badge', href: '#/search?' + query({ q: g }) }, g))) : null));
  document.title = rec.id + ' — kedb';
}

// Workarounds (best first) and dead ends (surest failure first), for cards and
// record pages alike: a match carries action and rate, a record also how, when, sources.
// With `reportFor` (a record id, on a server with a store), each workaround
// shows what was reported about it and asks whether it worked.
function fixList(works, reportFor = null) {
  if (!works.length) return h('p', { class: 'muted' }, t('card.none'));
  return h('ol', { class: 'fixes' }, works.map((w) => h('li', { testid: 'workaround' },
    h('span', { class: 'rate ' + rateClass(w.success_rate) }, pct(w.success_rate)),
    h('div', { class: 'text' }, h('div', { class: 'action' }, w.action || w.how || '—'),
      present(w.how) && w.how !== w.action ? h('pre', { class: 'how' }, w.how) : null,
      note('rec.condition', w.condition), note('rec.tradeoff', w.tradeoff), sources(w.sources),
      reportFor ? [reportedLine(w.observed), outcomeControl(reportFor, w.position)] : null))));
}

function deadList(dead) {
  return h('ul', { class: 'deadends' }, dead.map((d) => h('li', { testid: 'dead-end' },
    h('span', { class: 'rate bad' }, t('card.fails', pct(d.fail_rate))),
    h('div', { class: 'text' }, present(d.action) ? h('div', { class: 'action' }, d.action) : null,
      h('p', null, d.why_fails || ''), note('rec.condition', d.condition), sources(d.sources)))));
}

const note = (label, text) => (present(text) ? h('p', { class: 'cond' }, h('b', null, t(label), t('colon')), text) : null);

function sources(list) {
  if (!Array.isArray(list) || !list.length) return null;
  return h('p', { class: 'cond' }, h('b', null, t('rec.sources'), t('colon')), list.map((u, i) => [i ? ', ' : '',
    /^https?:\/\//.test(u) ? h('a', { href: u, rel: 'noopener noreferrer', target: '_blank' }, u) : u]));
}

function versionsTable(rows) {
  const cols = [['version', 'rec.version'], ['introduced', 'rec.introduced'], ['deprecated', 'rec.deprecated'],
    ['removed', 'rec.removed'], ['behavior_change', 'rec.change'], ['status', 'rec.status']]
    .filter(([k]) => rows.some((r) => r && typeof r === 'object' && present(r[k])));
  return h('div', { class: 'scroll' }, h('table', { class: 'grid', testid: 'versions' },
    h('tr', null, cols.map(([, l]) => h('th', null, t(l)))),
    rows.map((r) => (typeof r === 'string' ? h('tr', null, h('td', null, r)) :
      h('tr', null, cols.map(([k]) => h('td', null, present(r[k]) ? String(r[k]) : '')))))));
}

// ---------------------------------------------------------------------------
// Search and domains.
async function renderSearch(v, q, domain, gen) {
  if (!q.trim()) { v.replaceChildren(h('h1', null, t('search.title'))); return; }
  loading(v);
  const res = await api('/v1/search?' + query({ q, limit: 20, domain, lang }));
  if (gen !== generation) return;
  const hits = res.hits || [];
  v.replaceChildren(h('h1', null, t('search.title')),
    h('p', { class: 'muted' }, hits.length ? t('search.count', q, hits.length) : t('search.none', q)),
    h('ol', { class: 'hits', testid: 'search-results' }, hits.map((x) => h('li', { testid: 'search-hit', 'data-id': x.id },
      h('div', { class: 'hhead' }, h('a', { href: recordHref(x.id), class: 'rid' }, x.id),
        x.domain ? h('a', { class: 'badge', href: '#/domains/' + encodeURIComponent(x.domain) }, x.domain) : null,
        h('span', { class: 'muted score' }, num(x.score))),
      h('p', { class: 'sig' }, x.signature || ''),
      Array.isArray(x.terms) && x.terms.length ? h('p', { class: 'muted small' }, t('search.terms'), t('colon'),
        x.terms.map((w) => h('mark', { class: 'term' }, w))) : null))));
  document.title = q + ' — kedb';
}

async function renderDomains(v, gen) {
  loading(v);
  const res = await api('/v1/domains');
  if (gen !== generation) return;
  const list = (res.domains || []).slice().sort((a, b) => b.records - a.records);
  const most = Math.max(1, ...list.map((d) => d.records || 0));
  v.replaceChildren(h('h1', null, t('dom.title')),
    h('p', { class: 'muted' }, t('dom.total', res.total ?? list.reduce((n, d) => n + d.records, 0), list.length)),
    h('ul', { class: 'domains' }, list.map((d) => {
      const bar = h('span', { class: 'bar' });
      bar.style.width = Math.max(2, (100 * d.records) / most) + '%';
      return h('li', { testid: 'domain-item', 'data-domain': d.domain },
        h('a', { href: '#/domains/' + encodeURIComponent(d.domain) }, d.domain), h('span', { class: 'barbox' }, bar),
        h('span', { class: 'count' }, d.records));
    })));
  document.title = t('dom.title') + ' — kedb';
}

async function renderDomain(v, domain, sort, gen) {
  loading(v);
  const res = await api('/v1/domains/' + encodeURIComponent(domain) + '/errors?' + query({ sort_by: sort, lang }));
  if (gen !== generation) return;
  const select = h('select', { testid: 'sort', onchange: () => {
    location.hash = '#/domains/' + encodeURIComponent(domain) + '?' + query({ sort_by: select.value });
  } }, ['name', 'fix_rate', 'confidence'].map((k) => h('option', { value: k, selected: k === sort }, t('sort.' + k))));
  v.replaceChildren(h('p', { class: 'crumbs' }, h('a', { href: '#/domains' }, t('dom.title')), ' / '),
    h('h1', null, res.domain || domain),
    h('label', { class: 'sortby' }, t('dom.sort'), ' ', select),
    h('div', { class: 'scroll' }, h('table', { class: 'grid errors' },
      h('tr', null, ['id', t('card.resolvable'), t('card.fixRate'), t('card.confidence')].map((c) => h('th', null, c))),
      (res.errors || []).map((e) => h('tr', { testid: 'domain-error', 'data-id': e.id },
        h('td', null, h('a', { href: recordHref(e.id), class: 'rid' }, e.id), h('div', { class: 'sig small' }, e.signature || '')),
        h('td', null, resolvableText(e.resolvable)), h('td', { class: 'n' }, pct(e.fix_success_rate)),
        h('td', { class: 'n' }, pct(e.confidence)))))));
  document.title = domain + ' — kedb';
}

// ---------------------------------------------------------------------------
// Chrome: the language switch, search, health.
function setLang(next) {
  if (!saveLang(next)) return;
  applyLabels();
  refreshHealth();
  route();
  // The scan's record texts come from the server in the asked language: ask again.
  if (view().dataset.page === 'triage' && triage.scan && triage.lang !== lang && !triage.busy) analyze(triage.scanned);
}

// What /healthz says, asked once: how many records are loaded, whether the
// server keeps an outcome store (hit statistics) and takes reports.
const health = { records: null, store: false, reports: false };
let healthAsked = null;
function loadHealth() {
  if (!healthAsked) {
    healthAsked = api('/healthz').then((j) => {
      health.records = j.records;
      health.store = j.outcomes_store === true;
      health.reports = j.takes_reports === true;
    }).catch(() => { healthAsked = null; });
  }
  return healthAsked;
}
async function refreshHealth() {
  await loadHealth();
  const el = document.querySelector('[data-testid="health"]');
  if (typeof health.records === 'number') el.textContent = t('health', health.records);
}

function init() {
  document.querySelectorAll('[data-lang]').forEach((b) => b.addEventListener('click', () => setLang(b.dataset.lang)));
  document.querySelector('[data-testid="search-form"]').addEventListener('submit', (e) => {
    e.preventDefault();
    const q = e.target.elements.q.value.trim();
    if (q) location.hash = '#/search?' + query({ q });
  });
  window.addEventListener('hashchange', () => { route(); view().focus({ preventScroll: true }); });
  applyLabels();
  refreshHealth();
  route();
}

init();
