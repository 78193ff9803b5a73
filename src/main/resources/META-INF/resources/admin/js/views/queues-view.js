// <pinion-queues>: the queues with their depth per state and rates, one queue's partitions and failed jobs (with
// Retry and Delete), and the dequeue brokers with the partitions they own. '#queues/<name>' selects a queue.

import { api } from '../api.js';
import { age, alertBox, count, h, num, rate, table, time } from '../dom.js';
import { renderEach } from '../render-each.js';

/** Queues shown in the list (each costs a stats call per refresh); the filter narrows them down. */
const SHOWN = 25;
const STATES = ['PENDING', 'RUNNING', 'FAILED', 'SUCCEEDED'];

class QueuesView extends HTMLElement {
  #selected = null;
  #filter = h('input', {
    type: 'search', placeholder: 'Filter by name', 'aria-label': 'Filter queues by name',
    dataset: { testid: 'queue-filter' }, oninput: () => this.#refreshSoon(),
  });
  #listNote = h('span', { class: 'muted' });
  #list = h('div');
  #detail = h('div');
  #brokers = h('div');
  #notice = alertBox('queue-notice');
  #typing = null;

  connectedCallback() {
    if (this.childElementCount) return;
    this.replaceChildren(
      h('section', { class: 'card' },
        h('div', { class: 'card-head' }, h('h2', {}, 'Queues'), this.#filter, this.#listNote),
        this.#list),
      this.#detail,
      h('section', { class: 'card' }, h('h2', {}, 'Dequeue brokers'),
        h('p', { class: 'muted' }, 'Live brokers and the queue partitions each owns.'), this.#brokers));
  }

  /** '#queues/<name>': the queue whose partitions and failed jobs are shown. */
  route([name]) {
    if (name !== this.#selected) {
      this.#selected = name || null;
      this.#notice.clear();
      this.#detail.replaceChildren();
    }
  }

  async refresh() {
    const selected = this.#selected;
    await renderEach(
      [this.#loadList(this.#filter.value.trim()), (list) => this.#renderList(list)],
      [api.brokers(), (brokers) => this.#brokers.replaceChildren(brokerTable(brokers))],
      [selected ? loadDetail(selected) : Promise.resolve(null),
        (detail) => { if (selected === this.#selected) this.#renderDetail(detail); }]);
  }

  #refreshSoon() {
    clearTimeout(this.#typing);
    this.#typing = setTimeout(() => this.dispatchEvent(new Event('pinion:refresh', { bubbles: true })), 250);
  }

  async #loadList(filter) {
    const [queues, overview] = await Promise.all([api.queues(), api.overview()]);
    const matching = queues.items.filter((queue) => queue.name.includes(filter));
    const shown = matching.slice(0, SHOWN);
    const stats = await Promise.allSettled(shown.map((queue) => api.queueStats(queue.name)));
    const rates = new Map(overview.queues.map((queue) => [queue.queue, queue]));
    return {
      total: queues.items.length,
      matching: matching.length,
      rows: shown.map((queue, i) => ({
        queue, stats: stats[i].status === 'fulfilled' ? stats[i].value : null, rates: rates.get(queue.name),
      })),
    };
  }

  #renderList({ total, matching, rows }) {
    this.#listNote.textContent = matching > rows.length
      ? `${rows.length} of ${matching} matching (${total} queues)`
      : `${matching} of ${total} queues`;
    this.#list.replaceChildren(table('queues-table', ['Queue', ['Partitions', 'num'], ...STATES.map((s) => [cap(s), 'num']),
      ['Oldest due', 'num'], ['Enqueued/s', 'num'], ['Acked/s', 'num'], ['Failed acks/s', 'num'], ['Retries/s', 'num']],
    rows.map(({ queue, stats, rates }) => h('tr', {
      class: queue.name === this.#selected ? 'selected' : null, dataset: { testid: 'queue-row', name: queue.name },
    },
    h('td', {}, h('a', { href: `#queues/${encodeURIComponent(queue.name)}`, dataset: { testid: 'queue-link' } }, queue.name)),
    num(queue.partitions.length),
    ...STATES.map((state) => num(stats ? count(stats.counts[state] ?? 0) : '–', `queue-${state.toLowerCase()}`)),
    num(stats ? dueAge(stats.oldestDueAgeMs) : '–'),
    num(rate(rates?.enqueuedPerSec)),
    num(rate(rates?.ackedSuccessPerSec)),
    num(rate(rates?.ackedFailurePerSec)),
    num(rate(rates?.retriesPerSec)))),
    'no queue matches'));
  }

  #renderDetail({ queue, stats, failed }) {
    const config = queue.config;
    this.#detail.replaceChildren(h('section', { class: 'card', dataset: { testid: 'queue-detail', name: queue.name } },
      h('h2', {}, 'Queue ', h('span', { class: 'mono' }, queue.name)),
      h('p', { class: 'muted' },
        `rate limit ${config.rateLimit ?? 'none'} · max attempts ${config.maxAttempts} · lease ${age(config.leaseMs)}`
        + ` · ${config.fifo ? 'FIFO' : plural(queue.partitions.length, 'partition')}`),
      this.#notice,
      h('h3', {}, 'Partitions'),
      table('partitions-table', ['Partition', ['Shard', 'num'], 'Owner', ...STATES.map((s) => [cap(s), 'num']), ['Oldest due', 'num']],
        stats.partitions.map((partition) => h('tr', { class: partition.available ? null : 'unavailable' },
          num(partition.partition),
          num(partition.shard),
          h('td', { class: 'mono' }, partition.owner ?? 'none'),
          ...(partition.available
            ? STATES.map((state) => num(count(partition.counts[state] ?? 0)))
            : [h('td', { class: 'bad', colSpan: STATES.length }, 'MySQL host unavailable')]),
          num(dueAge(partition.oldestDueAgeMs))))),
      h('h3', {}, `Failed jobs${failed.nextCursor ? ' (first 25)' : ''}`),
      table('failed-jobs', ['Job', ['Attempts', 'num'], 'Updated', 'Status', ''],
        failed.items.map((job) => h('tr', { dataset: { testid: 'failed-job', id: job.id } },
          h('td', { class: 'mono' }, job.id),
          num(`${job.attemptsMade}/${job.attemptsAllowed}`),
          h('td', {}, time(job.updatedAt)),
          h('td', { class: 'status', title: job.status ?? '' }, lastLine(job.status)),
          h('td', { class: 'row-actions' },
            h('button', { type: 'button', dataset: { testid: 'retry-job' }, onclick: (event) => this.#retry(event.target, job.id) }, 'Retry'),
            h('button', { type: 'button', class: 'danger', dataset: { testid: 'delete-job' }, onclick: (event) => this.#delete(event.target, job.id) }, 'Delete')))),
        'no failed jobs')));
  }

  #retry(button, id) {
    this.#act(button, () => api.retryJob(id), `Job ${id} is PENDING again, with fresh attempts.`);
  }

  #delete(button, id) {
    if (!window.confirm(`Delete job ${id}? Its row is removed for good.`)) return;
    this.#act(button, () => api.deleteJob(id), `Job ${id} deleted.`);
  }

  async #act(button, action, done) {
    button.disabled = true;
    try {
      await action();
      this.#notice.info(done);
    } catch (error) {
      this.#notice.show(error);
      button.disabled = false;
    }
    this.dispatchEvent(new Event('pinion:refresh', { bubbles: true }));
  }
}

async function loadDetail(name) {
  const [queue, stats, failed] = await Promise.all([api.queue(name), api.queueStats(name), api.failedJobs(name)]);
  return { queue, stats, failed };
}

function brokerTable(brokers) {
  return table('brokers-table', ['Broker', 'Address', 'Started', ['Partitions', 'num'], 'Serves'],
    brokers.map((broker) => h('tr', { dataset: { testid: 'broker-row' } },
      h('td', { class: 'mono' }, broker.id),
      h('td', { class: 'mono' }, broker.address),
      h('td', {}, time(broker.startedAt)),
      num(broker.partitions.length),
      h('td', { class: 'partitions' }, byQueue(broker.partitions)))),
    'no live broker');
}

/** 'q/0', 'q/1', 'r/3' as 'q 0, 1 · r 3'. */
function byQueue(partitions) {
  const queues = new Map();
  for (const label of partitions) {
    const at = label.lastIndexOf('/');
    const queue = label.slice(0, at);
    queues.set(queue, [...(queues.get(queue) ?? []), label.slice(at + 1)]);
  }
  return [...queues].map(([queue, numbers]) => `${queue} ${numbers.join(', ')}`).join(' · ');
}

/** How long the oldest due job has waited; a dash when none is due. */
function dueAge(millis) {
  return millis > 0 ? age(millis) : '–';
}

function plural(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function cap(state) {
  return state.charAt(0) + state.slice(1).toLowerCase();
}

/** The newest line of a job's status (workers append to it), the whole status in the cell's title. */
function lastLine(status) {
  if (!status) return '';
  const lines = status.trim().split('\n');
  return lines[lines.length - 1];
}

customElements.define('pinion-queues', QueuesView);
