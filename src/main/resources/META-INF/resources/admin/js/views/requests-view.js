// <pinion-requests>: request rate, p99 latency and 5xx rate per endpoint group on this instance (overview), and
// the same with the queues' figures for the whole cluster when a Prometheus scrapes it (overview/cluster).

import { api } from '../api.js';
import { age, count, h, ms, num, rate, table } from '../dom.js';

const GROUPS = {
  feed: 'Home feed',
  pins: 'Pins',
  boards: 'Boards',
  users: 'Users and sessions',
  graph: 'Graph and follows',
  queues: 'Queues and jobs',
  admin: 'Admin',
  other: 'Other (health, metrics, static)',
};

class RequestsView extends HTMLElement {
  #window = h('p', { class: 'muted' });
  #table = h('div');
  #clusterNote = h('p', { class: 'muted', dataset: { testid: 'cluster-note' } });
  #cluster = h('div');

  connectedCallback() {
    if (this.childElementCount) return;
    this.replaceChildren(
      h('section', { class: 'card' }, h('h2', {}, 'Cluster'), this.#clusterNote, this.#cluster),
      h('section', { class: 'card' }, h('h2', {}, 'Requests by endpoint group'), this.#window, this.#table));
  }

  async refresh() {
    await Promise.all([this.#refreshInstance(), this.#refreshCluster()]);
  }

  async #refreshCluster() {
    let cluster;
    try {
      cluster = await api.clusterOverview();
    } catch (error) {
      this.#clusterNote.textContent = `The cluster's Prometheus does not answer (${error.message}); below: this instance only.`;
      this.#cluster.replaceChildren();
      return;
    }
    if (!cluster.configured) {
      this.#clusterNote.textContent = 'No Prometheus configured (pinion.prometheus.url): every figure on this page is '
        + "this instance's.";
      this.#cluster.replaceChildren();
      return;
    }
    this.#clusterNote.textContent = `${cluster.instances} instance(s) up, from Prometheus; rates over the last minute, `
      + "p99 the highest instance's.";
    this.#cluster.replaceChildren(
      table('cluster-requests-table', ['Group', ['Requests/s', 'num'], ['p99', 'num'], ['5xx/s', 'num']],
        cluster.requests.map((group) => h('tr', { dataset: { testid: `cluster-row-${group.group}` } },
          h('td', { class: 'strong' }, GROUPS[group.group] ?? group.group),
          num(rate(group.ratePerSec), 'cluster-request-rate'),
          num(group.p99Ms > 0 ? ms(group.p99Ms) : '–'),
          h('td', { class: group.errorsPerSec > 0 ? 'num bad' : 'num' }, rate(group.errorsPerSec))))),
      table('cluster-queues-table', ['Queue', ['Enqueued/s', 'num'], ['Acked/s', 'num'], ['Pending', 'num'],
        ['Oldest due', 'num']],
        cluster.queues.map((queue) => h('tr', {},
          h('td', { class: 'strong' }, queue.queue),
          num(rate(queue.enqueuedPerSec)),
          num(rate(queue.ackedPerSec)),
          num(count(queue.depth)),
          num(queue.oldestDueAgeSeconds > 0 ? age(queue.oldestDueAgeSeconds * 1000) : '–')))));
  }

  async #refreshInstance() {
    const overview = await api.overview();
    this.#window.textContent = overview.rateWindowSeconds > 0
      ? `This instance, rates over the last ${Math.round(overview.rateWindowSeconds)} s; p99 over the last 20–30 s.`
      : 'This instance; rates appear from the next refresh on. p99 over the last 20–30 s.';
    const busiest = Math.max(1, ...overview.requests.map((group) => group.ratePerSec));
    this.#table.replaceChildren(table('requests-table',
      ['Group', ['Requests/s', 'num'], '', ['p99', 'num'], ['5xx/s', 'num'], ['Requests', 'num'], ['5xx', 'num']],
      overview.requests.map((group) => h('tr', { dataset: { testid: `request-row-${group.group}` } },
        h('td', { class: 'strong' }, GROUPS[group.group] ?? group.group),
        num(rate(group.ratePerSec), 'request-rate'),
        h('td', { class: 'bar-cell' }, h('span', { class: 'bar', style: `width: ${(100 * group.ratePerSec) / busiest}%` })),
        num(group.p99Ms > 0 ? ms(group.p99Ms) : '–', 'request-p99'),
        h('td', { class: group.errorsPerSec > 0 ? 'num bad' : 'num' }, rate(group.errorsPerSec)),
        num(count(group.count)),
        num(count(group.errors))))));
  }
}

customElements.define('pinion-requests', RequestsView);
