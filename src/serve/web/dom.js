// Element building and value formatting shared by the page and its graph.
// Strings become text nodes, never markup, so an API answer cannot inject HTML;
// attributes are set one by one.
export const h = (tag, attrs, ...children) => build(document.createElement(tag), attrs, children);
export const s = (tag, attrs, ...children) => build(document.createElementNS('http://www.w3.org/2000/svg', tag), attrs, children);
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

export const pct = (x) => (typeof x === 'number' && isFinite(x) ? Math.round(x * 100) + '%' : '—');
export const num = (x) => (typeof x === 'number' && isFinite(x) ? x.toFixed(2) : '—');
export const present = (x) => x !== null && x !== undefined && String(x).trim() !== '';
// Ids contain slashes (cuda/cudnn-bn-epsilon-nan): each segment is encoded on its own.
export const idPath = (id) => String(id).split('/').map(encodeURIComponent).join('/');
export const recordHref = (id) => '#/errors/' + idPath(id);
