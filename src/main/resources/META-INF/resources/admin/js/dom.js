// Building DOM from data without HTML strings (data is only ever text here), and the page's number formats.

/**
 * An element: h('td', {class: 'num', dataset: {testid: 'x'}, onclick: f}, 'text', child, [more]). Strings become
 * text nodes; null and false children are skipped.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name in element && name !== 'list') element[name] = value;
    else element.setAttribute(name, value === true ? '' : value);
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

/** A table: headers as [label, class] pairs or labels, rows as arrays of cells (h('td') or text). */
export function table(testid, headers, rows, empty = 'nothing to show') {
  const head = h('tr', {}, headers.map((header) => {
    const [label, cls] = Array.isArray(header) ? header : [header, null];
    return h('th', { class: cls }, label);
  }));
  const body = rows.length
    ? rows
    : [h('tr', {}, h('td', { class: 'empty', colSpan: headers.length }, empty))];
  return h('table', { class: 'grid', dataset: { testid } }, h('thead', {}, head), h('tbody', {}, body));
}

/** A number cell. */
export function num(value, testid) {
  return h('td', { class: 'num', dataset: testid ? { testid } : undefined }, value);
}

/** A small coloured label. */
export function badge(text, kind) {
  return h('span', { class: `badge badge-${kind}` }, text);
}

export function count(value) {
  return value === null || value === undefined ? '–' : Math.round(value).toLocaleString('en-US');
}

export function rate(value) {
  if (value === null || value === undefined) return '–';
  if (value === 0) return '0';
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(value >= 10 ? 1 : 2);
}

export function ms(value) {
  if (value === null || value === undefined) return '–';
  if (value >= 100 || Number.isInteger(value)) return `${Math.round(value).toLocaleString('en-US')} ms`;
  return `${value.toFixed(1)} ms`;
}

/** A duration in milliseconds, in the largest unit that reads well: 850 ms, 12 s, 4 min, 3 h. */
export function age(millis) {
  if (millis === null || millis === undefined) return '–';
  if (millis < 1000) return `${Math.round(millis)} ms`;
  if (millis < 120_000) return `${Math.round(millis / 1000)} s`;
  if (millis < 7_200_000) return `${Math.round(millis / 60_000)} min`;
  return `${Math.round(millis / 3_600_000)} h`;
}

/** An ISO instant as local date and time to the second, e.g. 2025-01-31 14:05:09. */
export function time(iso) {
  if (!iso) return '–';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString('sv-SE');
}

/** An alert box that shows an ApiError (or any error), or a line of news, and hides when cleared. */
export function alertBox(testid) {
  const box = h('div', { class: 'alert', role: 'alert', hidden: true, dataset: { testid } });
  box.show = (error, prefix = '') => {
    box.className = 'alert';
    box.replaceChildren(
      prefix,
      error.code ? h('code', {}, error.code) : null,
      error.code ? ' ' : null,
      error.message || String(error),
    );
    box.hidden = false;
  };
  box.info = (text) => {
    box.className = 'alert info';
    box.replaceChildren(text);
    box.hidden = false;
  };
  box.clear = () => {
    box.hidden = true;
    box.replaceChildren();
  };
  return box;
}

/** An SVG element, attributes set as given. */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) element.setAttribute(name, value);
  }
  append(element, children);
  return element;
}
