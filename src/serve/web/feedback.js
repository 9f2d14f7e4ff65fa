// What a record page learns from the server's store: a "did this fix
// work?" control on each workaround, and how often the record was matched
// lately. Reports go to POST /v1/outcomes with the server's write token,
// which the page asks for once and keeps in this browser until the server
// refuses it. Every string from the API goes in as text (dom.js).
import { t } from '/i18n.js';
import { h, s, pct } from '/dom.js';

const TOKEN_KEY = 'kedb.writeToken';

// A fresh event id, so that a report sent twice (a double click, a retry)
// counts once. getRandomValues works on plain-http servers too.
function eventId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return 'web-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// The three answers for workaround `position` (1-based, in the record's own
// order) of `recordId`.
export function outcomeControl(recordId, position) {
  const status = h('span', { class: 'fbstatus', testid: 'feedback-status', 'aria-live': 'polite' });
  const buttons = ['worked', 'failed', 'partial'].map((outcome) => h('button', {
    type: 'button', class: 'fb', 'data-outcome': outcome,
    onclick: () => send(recordId, position, outcome, status, buttons),
  }, t('fb.' + outcome)));
  return h('div', { class: 'feedback', testid: 'feedback' }, h('span', { class: 'muted' }, t('fb.ask')), buttons, status);
}

async function send(recordId, position, outcome, status, buttons) {
  let token = localStorage.getItem(TOKEN_KEY);
  if (!token) token = window.prompt(t('fb.token'));
  if (!token) return;
  buttons.forEach((b) => { b.disabled = true; });
  let res = null, data = null;
  try {
    res = await fetch('/v1/outcomes', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + token },
      body: JSON.stringify({ error_id: recordId, action: 'workaround', index: position, outcome, event_id: eventId() }),
    });
    data = await res.json();
  } catch { /* reported below */ }
  if (res && res.ok && data && data.observed) {
    localStorage.setItem(TOKEN_KEY, token);
    status.replaceChildren(t('fb.thanks', pct(data.observed.rate)));
    return;
  }
  buttons.forEach((b) => { b.disabled = false; });
  if (res && res.status === 401) localStorage.removeItem(TOKEN_KEY);
  const why = res && res.status === 401 ? t('fb.badToken') : (data && data.error && data.error.message) || t('error.network');
  status.replaceChildren(h('span', { class: 'errorline' }, why));
}

// "reported: 3 worked, 1 failed" beside a workaround, from the record's
// `observed` section; null when nothing was reported about it.
export function reportedLine(observed) {
  if (!observed || !(observed.worked + observed.failed + observed.partial > 0)) return null;
  return h('p', { class: 'cond', testid: 'reported' },
    t('fb.reported', observed.worked, observed.failed, observed.partial), ' · ', t('fb.curated', pct(observed.curated)));
}

// The record's matches per day over 30 days as bars, with the counts of
// the last day, week and month; filled in when GET /v1/stats/hits answers.
export function hitsSection(recordId, api) {
  const box = h('div', { class: 'hits', testid: 'hits' }, h('p', { class: 'muted' }, t('loading')));
  api('/v1/stats/hits').then((stats) => {
    const mine = (stats.records || []).find((r) => r.id === recordId);
    if (!mine) { box.replaceChildren(h('p', { class: 'muted' }, t('hits.none'))); return; }
    box.replaceChildren(
      hitBars(mine.daily || []),
      h('p', { testid: 'hits-counts' }, t('hits.counts', mine.day, mine.week, mine.month, mine.total),
        mine.last_seen ? ' · ' + t('hits.last', mine.last_seen) : ''));
  }).catch((e) => box.replaceChildren(h('p', { class: 'errorline' }, t('error') + t('colon') + e.message)));
  return box;
}

function hitBars(daily) {
  const width = 300, height = 48, gap = 2;
  const bar = width / Math.max(daily.length, 1);
  const top = Math.max(1, ...daily);
  return s('svg', { viewBox: `0 0 ${width} ${height + 1}`, width, height: height + 1, role: 'img', 'aria-label': t('hits.chart'), class: 'hitsvg' },
    s('line', { x1: 0, y1: height + 0.5, x2: width, y2: height + 0.5, class: 'base' }),
    daily.map((n, i) => {
      const hgt = n > 0 ? Math.max(2, Math.round((n / top) * (height - 2))) : 0;
      return s('rect', { x: i * bar, y: height - hgt, width: bar - gap, height: hgt, 'data-testid': 'hit-bar', 'data-count': n },
        s('title', null, t('hits.day', 29 - i, n)));
    }));
}
