// <pinion-entity-funnel>: the funnel of one pin, author or board (GET /v1/admin/feed/funnel): each series' total and
// its buckets over the range, its share of the entity's stage beside the same share in this instance's global funnel.

import { api } from '../api.js';
import { alertBox, count, h, num, table } from '../dom.js';
import { sparkline } from '../sparkline.js';

const RANGES = [
  { label: 'last hour, by minute', span: 3_600_000, step: 'PT1M' },
  { label: 'last day, by hour', span: 86_400_000, step: 'PT1H' },
  { label: 'last 31 days, by day', span: 31 * 86_400_000, step: 'PT24H' },
];

class EntityFunnelView extends HTMLElement {
  #error = alertBox('entity-funnel-error');
  #result = h('div', { dataset: { testid: 'entity-funnel-result' } });
  #asked = null;

  connectedCallback() {
    if (this.childElementCount) return;
    const kind = h('select', { name: 'kind', dataset: { testid: 'entity-kind' } },
      ['pin', 'author', 'board'].map((value) => h('option', { value }, value)));
    const id = h('input', { name: 'id', required: true, inputMode: 'numeric', placeholder: 'id', dataset: { testid: 'entity-id' } });
    const range = h('select', { name: 'range', dataset: { testid: 'entity-range' } },
      RANGES.map((choice, index) => h('option', { value: index }, choice.label)));
    const submit = h('button', { type: 'submit', dataset: { testid: 'entity-submit' } }, 'Show');
    const form = h('form', { class: 'inline-form', dataset: { testid: 'entity-form' } },
      h('label', {}, 'Of a', kind), h('label', {}, 'Id', id), h('label', {}, 'Over the', range), submit);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      this.#asked = { kind: kind.value, id: id.value.trim(), range: RANGES[Number(range.value)] };
      submit.disabled = true;
      try {
        await this.refresh();
      } finally {
        submit.disabled = false;
      }
    });
    this.replaceChildren(h('section', { class: 'card' }, h('h2', {}, 'One pin, author or board'),
      h('p', { class: 'muted' }, 'Every count of the funnel taken for it, unsampled and a few seconds behind; the ',
        'shares beside it are this instance\'s global funnel since it started.'),
      form, this.#error, this.#result));
  }

  /** Reads the entity asked for again (the funnel tab refreshes it with the rest). */
  async refresh() {
    if (!this.#asked) return;
    const { kind, id, range } = this.#asked;
    const to = new Date();
    const from = new Date(to.getTime() - range.span);
    try {
      const funnel = await api.entityFunnel(kind, id, from.toISOString(), to.toISOString(), range.step);
      this.#error.clear();
      this.#render(funnel);
    } catch (error) {
      this.#result.replaceChildren();
      this.#error.show(error);
    }
  }

  #render(funnel) {
    const stageTotals = sums(funnel.lines, (line) => line.total);
    const globalTotals = sums(funnel.global, (series) => series.count);
    const globalOf = new Map(funnel.global.map((series) => [key(series), series.count]));
    this.#result.replaceChildren(table('entity-funnel-table',
      ['Stage', 'Source', 'Reason', ['Count', 'num'], ['Share of stage', 'num'], ['Global share', 'num'], 'Over time'],
      funnel.lines.map((line) => h('tr', { dataset: { testid: 'entity-funnel-row', stage: line.stage } },
        h('td', { class: 'strong' }, line.stage),
        h('td', {}, line.source),
        h('td', {}, line.reason),
        num(count(line.total), 'entity-count'),
        num(share(line.total, stageTotals.get(line.stage)), 'entity-share'),
        num(share(globalOf.get(key(line)) ?? 0, globalTotals.get(line.stage)), 'global-share'),
        h('td', {}, sparkline(line.points, funnel.from, funnel.to)))),
      `nothing counted for this ${funnel.entity} in the range`));
  }
}

function key(series) {
  return `${series.stage}|${series.source}|${series.reason}`;
}

function sums(series, value) {
  const totals = new Map();
  for (const one of series) totals.set(one.stage, (totals.get(one.stage) ?? 0) + value(one));
  return totals;
}

function share(part, whole) {
  return whole ? `${Math.round((100 * part) / whole)}%` : '–';
}

customElements.define('pinion-entity-funnel', EntityFunnelView);
