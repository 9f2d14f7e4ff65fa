// kedb web: triage a failed job's log against the known-error database.
// Plain DOM, no framework and no build step: this file is compiled into the kedb
// binary and served as /app.js. Every string from the API goes into the page as
// a text node (h() below), never through innerHTML, so a log cannot inject markup.
'use strict';

// ---------------------------------------------------------------------------
// Labels, English and Chinese side by side so a missing translation shows up in
// review. "%s" is replaced by the arguments of t() in order.
const LABELS = {
  'nav.triage': ['Triage', '排查'], 'nav.domains': ['Domains', '领域'],
  'search.placeholder': ['Search known errors…', '搜索已知错误…'], 'search.label': ['Search known errors', '搜索已知错误'],
  'foot.about': ['kedb — a known-error database: root causes, workarounds and dead ends for failed jobs.',
    'kedb — 已知错误库：失败任务的根因、解决办法与无效尝试。'],
  'colon': [': ', '：'], 'health': ['%s records', '%s 条记录'],
  'loading': ['Loading…', '加载中…'], 'error': ['Error', '错误'],
  'error.network': ['Cannot reach the kedb server', '无法连接 kedb 服务'], 'notfound': ['No such page.', '页面不存在。'],
  'triage.title': ['Paste a log', '粘贴日志'],
  'triage.hint': ['Paste the output of a failed job. kedb finds each error block, root error first, and tells what is known about it.',
    '粘贴失败任务的输出。kedb 会找出每个错误块（根因错误在前），并给出已知的信息。'],
  'triage.analyze': ['Analyze', '分析'], 'triage.busy': ['Analyzing…', '分析中…'],
  'triage.shortcut': ['Ctrl+Enter', 'Ctrl+Enter'], 'triage.example': ['Load an example', '载入示例'],
  'triage.open': ['Open a file…', '打开文件…'], 'triage.empty': ['Paste a log first.', '请先粘贴日志。'],
  'sum.lines': ['lines', '行'], 'sum.blocks': ['error blocks', '个错误块'], 'sum.known': ['known errors', '个已知错误'],
  'sum.truncated': ['%s over-long lines cut', '%s 行过长被截断'], 'sum.dropped': ['%s blocks dropped', '%s 个错误块被丢弃'],
  'sum.noblocks': ['No error blocks found in this log.', '日志中没有发现错误块。'],
  'block.root': ['root', '根因'],
  'block.rootHint': ['The first failure: later blocks are usually its consequences.', '最先发生的失败：之后的错误块通常是它的后果。'],
  'block.line': ['line %s', '第 %s 行'], 'block.lines': ['lines %s–%s', '第 %s–%s 行'],
  'block.repeat': ['repeated ×%s', '重复 ×%s'], 'block.causedBy': ['caused by block #%s', '由错误块 #%s 引起'],
  'block.frames': ['%s frames', '%s 个调用帧'], 'block.framesShown': ['%s of %s frames shown', '显示 %s / %s 个调用帧'],
  'block.abstained': ['No known error — kedb abstains rather than guess.', '无已知错误 — kedb 不做猜测。'],
  'block.others': ['%s other candidates', '其他 %s 个候选'], 'block.other1': ['1 other candidate', '其他 1 个候选'],
  'card.score': ['score %s · evidence %s', '得分 %s · 证据 %s'], 'card.rootCause': ['Root cause', '根因'],
  'card.workarounds': ['Workarounds', '解决办法'], 'card.deadEnds': ["Dead ends — don't try", '无效尝试 — 不要试'],
  'card.fails': ['fails %s', '失败率 %s'], 'card.resolvable': ['resolvable', '可解决'],
  'card.fixRate': ['fix success', '修复成功率'], 'card.confidence': ['confidence', '置信度'],
  'card.why': ['Why this match', '匹配依据'], 'card.none': ['none recorded', '无记录'],
  'res.true': ['yes', '是'], 'res.partial': ['partly', '部分'], 'res.false': ['no', '否'],
  'rec.original': ['As it appears in logs', '日志中的原文'], 'rec.aliases': ['Also seen as', '其他形式'],
  'rec.domain': ['domain', '领域'], 'rec.category': ['category', '类别'], 'rec.errorCode': ['error code', '错误码'],
  'rec.condition': ['When', '适用条件'], 'rec.tradeoff': ['Trade-off', '代价'], 'rec.sources': ['Sources', '来源'],
  'rec.versions': ['Versions', '版本'], 'rec.version': ['version', '版本'], 'rec.introduced': ['introduced', '引入'],
  'rec.deprecated': ['deprecated', '弃用'], 'rec.removed': ['removed', '移除'],
  'rec.change': ['behaviour change', '行为变化'], 'rec.status': ['status', '状态'],
  'rec.os': ['Operating systems', '操作系统差异'], 'rec.doc': ['Official documentation', '官方文档'],
  'rec.tier': ['verification', '验证级别'], 'rec.evidence': ['evidence count', '证据数'],
  'rec.firstSeen': ['first seen', '首次出现'], 'rec.lastConfirmed': ['last confirmed', '最近确认'],
  'rec.lastUpdated': ['last updated', '最近更新'], 'rec.tags': ['tags', '标签'],
  'rec.graph': ['Transition graph', '错误转移图'],
  'graph.more': ['Show errors two steps away (%s more)', '显示两步以内的错误（另有 %s 个）'],
  'graph.less': ['Show direct neighbours only', '只显示直接相邻的错误'],
  'rec.noEdges': ['No known transitions.', '没有已知的转移关系。'],
  'rec.legend': ['→ leads to · - - often confused with · grey: not in this knowledge base',
    '→ 导致 · - - 常被混淆 · 灰色：不在本知识库中'],
  'rel.preceded_by': ['Preceded by', '前序错误'], 'rel.leads_to': ['Leads to', '可能导致'],
  'rel.confused_with': ['Often confused with', '常被混淆'],
  'search.title': ['Search', '搜索'], 'search.terms': ['matched', '命中词'],
  'search.count': ['Records matching “%s”: %s', '匹配“%s”的记录：%s 条'],
  'search.none': ['No record matches “%s”.', '没有记录匹配“%s”。'],
  'dom.title': ['Domains', '领域'], 'dom.sort': ['Sort by', '排序'],
  'dom.total': ['%s records in %s domains', '共 %s 条记录，%s 个领域'],
  'sort.name': ['name', '名称'], 'sort.fix_rate': ['fix success', '修复成功率'], 'sort.confidence': ['confidence', '置信度'],
};

const LANG_KEY = 'kedb.lang';
let lang = (() => { try { return localStorage.getItem(LANG_KEY) === 'zh' ? 'zh' : 'en'; } catch { return 'en'; } })();

function t(key, ...args) {
  const pair = LABELS[key];
  let s = pair ? pair[lang === 'zh' ? 1 : 0] : key;
  for (const a of args) s = s.replace('%s', String(a));
  return s;
}

// A record's field in the current language: "<name>_zh" when in Chinese and present.
function loc(rec, name) {
  const zh = rec[name + '_zh'];
  return lang === 'zh' && typeof zh === 'string' && zh.trim() ? zh : rec[name];
}

// ---------------------------------------------------------------------------
// DOM helpers. Strings become text nodes; attributes are set one by one.
const h = (tag, attrs, ...children) => build(document.createElement(tag), attrs, children);
const s = (tag, attrs, ...children) => build(document.createElementNS('http://www.w3.org/2000/svg', tag), attrs, children);
function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'testid') el.setAttribute('data-testid', v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false || c === '') continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const pct = (x) => (typeof x === 'number' && isFinite(x) ? Math.round(x * 100) + '%' : '—');
const num = (x) => (typeof x === 'number' && isFinite(x) ? x.toFixed(2) : '—');
const present = (x) => x !== null && x !== undefined && String(x).trim() !== '';
// Ids contain slashes (cuda/cudnn-bn-epsilon-nan): each segment is encoded on its own.
const idPath = (id) => String(id).split('/').map(encodeURIComponent).join('/');
const recordHref = (id) => '#/errors/' + idPath(id);
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
      h('span', { class: 'muted score', testid: 'score' }, t('card.score', num(m.score), num(m.evidence)))),
    present(m.signature) ? h('p', { class: 'sig' }, m.signature) : null,
    h('div', { class: 'facts' },
      h('span', null, t('card.resolvable'), t('colon'), h('b', null, resolvableText(m.resolvable))),
      h('span', null, t('card.fixRate'), t('colon'), h('b', null, pct(m.fix_success_rate))),
      h('span', null, t('card.confidence'), t('colon'), h('b', null, pct(m.confidence)))),
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
  ]);
  if (gen !== generation) return;
  const zhWork = lang === 'zh' && Array.isArray(rec.workarounds_zh) ? rec.workarounds_zh : [];
  // workarounds_zh runs parallel to workarounds (plain strings, or objects with action);
  // pair them up before sorting by success rate.
  const works = (rec.workarounds || []).map((w, i) => {
    const z = zhWork[i];
    const zt = typeof z === 'string' ? z : z && z.action;
    return { ...w, action: present(zt) ? zt : w.action };
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
    h('h2', null, t('card.workarounds')), fixList(works),
    dead.length ? [h('h2', { class: 'dead' }, t('card.deadEnds')), deadList(dead)] : null,
    h('h2', null, t('rec.graph')),
    chain instanceof Error ? h('p', { class: 'errorline' }, t('error') + t('colon') + chain.message) : renderGraph(chain, rec.id),
    Array.isArray(rec.versions) && rec.versions.length ? [h('h2', null, t('rec.versions')), versionsTable(rec.versions)] : null,
    os.length ? [h('h2', null, t('rec.os')), h('dl', { class: 'meta os' },
      os.map(([k, x]) => [h('dt', null, k), h('dd', null, typeof x === 'string' ? x : JSON.stringify(x))]))] : null,
    present(rec.official_doc_url) ? [h('h2', null, t('rec.doc')), h('p', null,
      h('a', { href: rec.official_doc_url, rel: 'noopener noreferrer', target: '_blank', testid: 'doc-link' },
        rec.official_doc_section || rec.official_doc_url))] : null,
    Array.isArray(rec.tags) && rec.tags.length ? h('p', { class: 'tags' }, h('span', { class: 'muted' }, t('rec.tags'), t('colon')),
      rec.tags.map((g) => h('a', { class: 'badge', href: '#/search?' + query({ q: g }) }, g))) : null));
  document.title = rec.id + ' — kedb';
}

// Workarounds (best first) and dead ends (surest failure first), for cards and
// record pages alike: a match carries action and rate, a record also how, when, sources.
function fixList(works) {
  if (!works.length) return h('p', { class: 'muted' }, t('card.none'));
  return h('ol', { class: 'fixes' }, works.map((w) => h('li', { testid: 'workaround' },
    h('span', { class: 'rate ' + rateClass(w.success_rate) }, pct(w.success_rate)),
    h('div', { class: 'text' }, h('div', { class: 'action' }, w.action || w.how || '—'),
      present(w.how) && w.how !== w.action ? h('pre', { class: 'how' }, w.how) : null,
      note('rec.condition', w.condition), note('rec.tradeoff', w.tradeoff), sources(w.sources)))));
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
// Transition graph, drawn by hand. Every edge is turned into cause → effect
// (X preceded_by Y is Y → X); nodes are placed breadth-first from the record:
// causes one column to the left of what they cause, effects one to the right,
// and errors it is confused with in a row below.
const NODE_W = 200, NODE_H = 48, COL_W = 270, ROW_H = 70, PAD = 16, BULGE = 40;
const GRAPH_MAX = 16; // more nodes than this: show direct neighbours first

function graphModel(chain, centerId) {
  const nodes = new Map((chain.nodes || []).map((n) => [n.id, n]));
  if (!nodes.has(centerId)) nodes.set(centerId, { id: centerId, known: true });
  const links = []; const seen = new Set();
  for (const e of chain.edges || []) {
    if (!e.from || !e.to || e.from === e.to) continue;
    // An end the server did not list as a node is drawn as unknown, not dropped.
    for (const id of [e.from, e.to]) if (!nodes.has(id)) nodes.set(id, { id, known: false });
    const confused = e.relation === 'confused_with';
    const [a, b] = e.relation === 'preceded_by' ? [e.to, e.from] : [e.from, e.to];
    // A leads_to B and B preceded_by A are one arrow; keep the first, which has the data.
    const key = confused ? 'c|' + [a, b].sort().join('|') : 'l|' + a + '|' + b;
    if (seen.has(key)) continue;
    seen.add(key);
    links.push({ a, b, confused, p: e.probability, cond: e.condition, rel: e.relation });
  }
  const pos = new Map([[centerId, { col: 0, lane: 0, dist: 0 }]]);
  for (const queue = [centerId]; queue.length;) {
    const id = queue.shift(); const at = pos.get(id);
    for (const l of links) {
      const other = l.a === id ? l.b : l.b === id ? l.a : null;
      if (other === null || pos.has(other)) continue;
      const dist = at.dist + 1;
      pos.set(other, l.confused ? { col: at.col, lane: 1, dist } : { col: at.col + (l.a === id ? 1 : -1), lane: at.lane, dist });
      queue.push(other);
    }
  }
  return { nodes, links, pos };
}

// Lane 0 stacks the nodes of each column, the record's column in the middle;
// lane 1 puts each confused-with node in the first row below that has a free
// column, the free column nearest the node it is confused with.
function layout(pos, centerId) {
  const top = [...pos].filter(([, p]) => p.lane === 0);
  const below = [...pos].filter(([, p]) => p.lane === 1).map(([id]) => id);
  const span = Math.max(...top.map(([, p]) => Math.abs(p.col)), Math.min(2, Math.floor(below.length / 2)));
  const wide = 2 * span + 1;
  const slots = Array.from({ length: wide }, (_, k) => (k % 2 ? -(k + 1) / 2 : k / 2)); // 0, -1, 1, -2, 2
  const stacks = new Map();
  for (const [id, p] of top) if (id !== centerId) (stacks.get(p.col) || stacks.set(p.col, []).get(p.col)).push(id);
  const mid = stacks.get(0) || [];
  stacks.set(0, [...mid.slice(0, mid.length >> 1), centerId, ...mid.slice(mid.length >> 1)]); // the record mid-column
  const rows0 = Math.max(...[...stacks.values()].map((v) => v.length)), used = [];
  const left = PAD + BULGE, xOf = (col) => left + (span + col) * COL_W, xy = new Map();
  for (const [col, ids] of stacks) {
    const offset = ((rows0 - ids.length) * ROW_H) / 2;
    ids.forEach((id, i) => xy.set(id, { x: xOf(col), y: PAD + offset + i * ROW_H }));
  }
  const top1 = PAD + rows0 * ROW_H + 30;
  for (const id of below) {
    const want = pos.get(id).col;
    let r = 0;
    while (used[r] && used[r].size === wide) r++;
    used[r] = used[r] || new Set();
    const col = slots.filter((c) => !used[r].has(c)).reduce((a, c) => (Math.abs(c - want) < Math.abs(a - want) ? c : a));
    used[r].add(col);
    xy.set(id, { x: xOf(col), y: top1 + r * ROW_H });
  }
  const rows1 = used.length;
  const width = wide * COL_W - (COL_W - NODE_W) + 2 * left + BULGE;
  const height = (rows1 ? top1 + rows1 * ROW_H : PAD + rows0 * ROW_H) - (ROW_H - NODE_H) + PAD;
  return { xy, width, height };
}

function renderGraph(chain, centerId, all = false) {
  const { nodes, links, pos } = graphModel(chain, centerId);
  if (!links.length) return h('div', { class: 'graph', testid: 'graph' }, h('p', { class: 'muted' }, t('rec.noEdges')));
  // A hub's two-step neighbourhood is a thicket: start with its direct neighbours.
  const far = [...pos].filter(([, p]) => p.dist > 1).map(([id]) => id);
  const folded = !all && pos.size > GRAPH_MAX && far.length > 0;
  if (folded) far.forEach((id) => pos.delete(id));
  const { xy, width, height } = layout(pos, centerId);
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': t('rec.graph'), class: 'gsvg' },
    s('defs', null, s('marker', { id: 'kedb-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5,
      markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' }, s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'ahead' }))));
  // Below ~65% of its size the text is unreadable: narrow screens scroll instead.
  svg.style.minWidth = Math.round(width * 0.65) + 'px';
  for (const l of links) if (xy.has(l.a) && xy.has(l.b)) svg.append(drawEdge(l, xy.get(l.a), xy.get(l.b)));
  for (const [id, p] of xy) svg.append(drawNode(nodes.get(id), p, id === centerId));
  const box = h('div', { class: 'graph', testid: 'graph' }, h('div', { class: 'scroll' }, svg),
    h('p', { class: 'muted small' }, t('rec.legend'), ' ', folded || all ? h('button', { type: 'button', class: 'link', testid: 'graph-toggle',
      onclick: () => box.replaceWith(renderGraph(chain, centerId, !all)) }, all ? t('graph.less') : t('graph.more', far.length)) : null),
    // The record's own edges in words, with their conditions.
    h('ul', { class: 'edges' }, links.filter((l) => l.a === centerId || l.b === centerId).map((l) => {
      const other = l.a === centerId ? l.b : l.a;
      const rel = l.confused ? 'confused_with' : l.b === centerId ? 'preceded_by' : 'leads_to';
      return h('li', { class: 'rel-' + rel }, h('span', { class: 'rel' }, t('rel.' + rel)), ' ',
        nodes.get(other).known ? h('a', { href: recordHref(other) }, other) : h('span', { class: 'unknown' }, other),
        typeof l.p === 'number' ? h('span', { class: 'badge' }, pct(l.p)) : null,
        present(l.cond) ? h('span', { class: 'muted' }, ' — ', l.cond) : null);
    })));
  return box;
}

// Arrows run between the facing sides of two boxes as smooth curves; one
// between boxes of a column bulges out to the right so it stays visible.
// Confusions join the bottom of the upper box to the top of the lower one.
function drawEdge(l, pa, pb) {
  let d, lx, ly;
  const ya = pa.y + NODE_H / 2, yb = pb.y + NODE_H / 2;
  if (l.confused && pa.y !== pb.y) {
    const [up, low] = pa.y < pb.y ? [pa, pb] : [pb, pa];
    const [x1, x2, y1, y2] = [up.x + NODE_W / 2, low.x + NODE_W / 2, up.y + NODE_H, low.y];
    if (x1 === x2 && y2 - y1 > ROW_H) { // boxes in between: go round their left side
      const [m1, m2] = [up.y + NODE_H / 2, low.y + NODE_H / 2];
      d = `M${up.x},${m1} C${up.x - BULGE},${m1} ${up.x - BULGE},${m2} ${up.x},${m2}`;
    } else {
      d = `M${x1},${y1} C${x1},${(y1 + y2) / 2} ${x2},${(y1 + y2) / 2} ${x2},${y2}`;
    }
    [lx, ly] = [(x1 + x2) / 2, (y1 + y2) / 2];
  } else if (pa.x !== pb.x) {
    const fwd = pb.x > pa.x;
    const x1 = fwd ? pa.x + NODE_W : pa.x, x2 = fwd ? pb.x : pb.x + NODE_W, dx = (x2 - x1) / 2;
    d = `M${x1},${ya} C${x1 + dx},${ya} ${x2 - dx},${yb} ${x2},${yb}`;
    // The label sits a third of the way along: crossing edges share a midpoint.
    const k = 0.33, c = 3 * k * k - 2 * k * k * k; // y on this curve: ya + (yb - ya) * c
    [lx, ly] = [x1 + (x2 - x1) * k, ya + (yb - ya) * c];
  } else {
    // Upward arrows bulge further, so that A → B and B → A do not overlap.
    const x = pa.x + NODE_W, bulge = ya < yb ? BULGE : BULGE * 1.8;
    d = `M${x},${ya} C${x + bulge},${ya} ${x + bulge},${yb} ${x},${yb}`;
    [lx, ly] = [x + bulge * 0.75, (ya + yb) / 2];
  }
  const label = typeof l.p === 'number' ? pct(l.p) : '';
  return s('g', { class: 'edge ' + (l.confused ? 'confused' : 'causal'), testid: 'graph-edge',
    'data-from': l.a, 'data-to': l.b, 'data-relation': l.rel },
  s('title', null, `${l.a} ${l.confused ? '≈' : '→'} ${l.b}${label ? ' (' + label + ')' : ''}${l.cond ? ': ' + l.cond : ''}`),
  s('path', { d, 'marker-end': l.confused ? null : 'url(#kedb-arrow)' }),
  label ? s('text', { x: lx, y: ly - 5, class: 'glabel', 'text-anchor': 'middle' }, label) : null);
}

function drawNode(n, p, center) {
  const cut = (x, k) => (x && x.length > k ? x.slice(0, k - 1) + '…' : x || '');
  const g = s('g', { class: 'node' + (center ? ' center' : '') + (n.known ? '' : ' unknown'), testid: 'graph-node', 'data-id': n.id },
    s('title', null, n.id + (n.signature ? '\n' + n.signature : '')),
    s('rect', { x: p.x, y: p.y, width: NODE_W, height: NODE_H, rx: 7 }),
    // A nested <svg> clips text that is wider than the box.
    s('svg', { x: p.x + 10, y: p.y, width: NODE_W - 18, height: NODE_H },
      s('text', { x: 0, y: 19, class: 'gid' }, cut(n.id, 25)),
      s('text', { x: 0, y: 37, class: 'gsig' }, cut(n.signature || n.domain || '', 31))));
  return n.known && !center ? s('a', { href: recordHref(n.id) }, g) : g;
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
// Chrome: labels in the static page, the language switch, search, health.
function applyLabels() {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  document.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll('[data-i18n-placeholder]').forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
  document.querySelectorAll('[data-i18n-aria]').forEach((el) => el.setAttribute('aria-label', t(el.dataset.i18nAria)));
  document.querySelectorAll('[data-lang]').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.lang === lang)));
}

function setLang(next) {
  if (next === lang) return;
  lang = next;
  try { localStorage.setItem(LANG_KEY, lang); } catch { /* private mode: keep it for this page only */ }
  applyLabels();
  refreshHealth();
  route();
  // The scan's record texts come from the server in the asked language: ask again.
  if (view().dataset.page === 'triage' && triage.scan && triage.lang !== lang && !triage.busy) analyze(triage.scanned);
}

let records = null;
async function refreshHealth() {
  const el = document.querySelector('[data-testid="health"]');
  try { if (records === null) records = (await api('/healthz')).records; } catch { return; }
  if (typeof records === 'number') el.textContent = t('health', records);
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
