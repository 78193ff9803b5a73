// <pinion-backends>: every backend probed now (GET /v1/admin/backends), the hedged readers' outcomes and delay
// (overview) and the materialized feed's replication lag to the standby (GET /v1/admin/feed/standby-lag).

import { api } from '../api.js';
import { badge, count, h, ms, num, rate, table } from '../dom.js';
import { renderEach } from '../render-each.js';

class BackendsView extends HTMLElement {
  #backends = h('div');
  #hedges = h('div');
  #lag = h('div');

  connectedCallback() {
    if (this.childElementCount) return;
    this.replaceChildren(
      h('section', { class: 'card' }, h('h2', {}, 'Backends'),
        h('p', { class: 'muted' }, 'Each MySQL host, Redis instance and HBase cluster of the topology, probed now.'),
        this.#backends),
      h('div', { class: 'columns' },
        h('section', { class: 'card' }, h('h2', {}, 'Hedged reads'),
          h('p', { class: 'muted' }, 'Which side answered, on this instance; rates per second.'), this.#hedges),
        h('section', { class: 'card' }, h('h2', {}, 'Standby lag'),
          h('p', { class: 'muted' }, 'Materialized feed, primary to standby: recent marker probes.'), this.#lag)));
  }

  async refresh() {
    await renderEach(
      [api.backends(), (backends) => this.#backends.replaceChildren(backendTable(backends.items))],
      [api.overview(), (overview) => this.#hedges.replaceChildren(...hedgeTables(overview.hedges))],
      [api.standbyLag(), (lag) => this.#lag.replaceChildren(lagTable(lag))]);
  }
}

function backendTable(backends) {
  return table('backends-table', ['Name', 'Kind', 'State', 'Endpoint', ['Latency', 'num'], 'Detail'],
    backends.map((backend) => h('tr', { dataset: { testid: 'backend-row', name: backend.name } },
      h('td', { class: 'strong' }, backend.name),
      h('td', {}, backend.kind),
      h('td', { dataset: { testid: 'backend-state' } }, backend.up ? badge('UP', 'ok') : badge('DOWN', 'bad')),
      h('td', { class: 'mono' }, backend.endpoint),
      num(ms(backend.latencyMs)),
      h('td', { class: 'detail' }, backend.detail ?? ''))));
}

function hedgeTables(hedges) {
  if (!hedges.length) return [h('p', { class: 'empty' }, 'No hedged reader has been used on this instance yet.')];
  return hedges.map((hedge) => h('div', { class: 'hedge', dataset: { testid: 'hedge', name: hedge.name } },
    h('h3', {}, hedge.name, h('span', { class: 'muted' }, ` · hedge delay ${ms(hedge.delayMs)}`)),
    table('hedges-table', ['Outcome', ['Reads', 'num'], ['Per second', 'num']],
      hedge.outcomes.map((outcome) => h('tr', {},
        h('td', {}, outcome.outcome.replaceAll('_', ' ')),
        num(count(outcome.count)),
        num(rate(outcome.ratePerSec)))))));
}

function lagTable(lag) {
  const rows = [
    ['Probes', count(lag.probes)], ['Failed', count(lag.failed)], ['p50', ms(lag.p50Ms)], ['p99', ms(lag.p99Ms)],
    ['Max', ms(lag.maxMs)], ['Last', ms(lag.lastMs)],
  ];
  return h('dl', { class: 'facts', dataset: { testid: 'standby-lag' } },
    rows.map(([label, value]) => [h('dt', {}, label), h('dd', {}, value)]));
}

customElements.define('pinion-backends', BackendsView);
