// Transition graph of a record, drawn by hand as inline SVG. Every edge is
// turned into cause → effect (X preceded_by Y is Y → X); nodes are placed
// breadth-first from the record: causes one column to the left of what they
// cause, effects one to the right, and errors it is confused with in a row below.
import { t } from '/i18n.js';
import { h, s, pct, present, recordHref } from '/dom.js';

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

// The chain answer leaves out when an edge happens (it is kept short for
// agents); the record states that for its own edges, and the page shows it
// under the graph. Each edge of the chain that the record states gets the
// record's condition (or, for a confusion, how to tell the two apart).
export function withRecordConditions(chain, rec) {
  const key = (from, to, rel) => rel === 'confused_with' ? 'c|' + [from, to].sort().join('|')
    : rel === 'preceded_by' ? 'l|' + to + '|' + from : 'l|' + from + '|' + to;
  const said = new Map();
  const graph = rec.transition_graph || {};
  for (const [field, rel] of [['leads_to', 'leads_to'], ['preceded_by', 'preceded_by'], ['frequently_confused_with', 'confused_with']]) {
    for (const e of Array.isArray(graph[field]) ? graph[field] : []) {
      const cond = e && typeof e === 'object' ? e.condition || e.distinction : null;
      if (cond) said.set(key(rec.id, e.error_id, rel), cond);
    }
  }
  const edges = (chain.edges || []).map((e) => ({ ...e, condition: e.condition || said.get(key(e.from, e.to, e.relation)) }));
  return { ...chain, edges };
}

export function renderGraph(chain, centerId, all = false) {
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
