// The job queue over HTTP, as the manifest's worker (bin/seed grants it the admin and worker roles; for another
// account: bin/admin grant <username> admin worker). setup() creates the queue (409
// queue_exists is fine); each iteration enqueues a batch, leases up to a batch with a short wait and acks what it
// got as succeeded. teardown() prints the queue's counts.
//
//   k6 run k6/jobs.js
//   k6 run -e SCENARIO=constant -e RATE=100 -e BATCH=10 -e QUEUE=k6_jobs k6/jobs.js
import http from 'k6/http';
import { check, fail } from 'k6';
import { SharedArray } from 'k6/data';
import { Counter, Rate, Trend } from 'k6/metrics';
import exec from 'k6/execution';
import { api } from './lib/api.js';
import { manifestPath, sharedLists } from './lib/manifest.js';
import { envNumber, scenarios, SUMMARY_TREND_STATS, thresholds } from './lib/options.js';
import { summaryOutputs } from './lib/summary.js';

const PATH = manifestPath(__ENV);
const data = sharedLists(SharedArray, () => open(PATH), ['worker'], ['worker']);
const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const QUEUE = __ENV.QUEUE || 'k6_jobs';
const BATCH = Math.max(1, Math.min(1000, Math.floor(envNumber(__ENV, 'BATCH', 10)))); // jobs per enqueue and per dequeue
const WAIT_MS = Math.floor(envNumber(__ENV, 'WAIT_MS', 100)); // dequeue long-poll when nothing is ready
const PARTITIONS = Math.max(1, Math.floor(envNumber(__ENV, 'PARTITIONS', 4))); // only when setup() creates the queue

const enqueued = new Counter('jobs_enqueued');
const dequeued = new Counter('jobs_dequeued');
const acked = new Counter('jobs_acked');
const leaseLost = new Counter('jobs_lease_lost');
const ackedOk = new Rate('jobs_acked_ok'); // per ack: acked (not lease_lost / not_found)
const waited = new Trend('jobs_wait_ms', true); // enqueuedAt -> leased here
const perDequeue = new Trend('jobs_per_dequeue');
// dequeues answered with no job right after this iteration enqueued its batch: with as many jobs enqueued as
// dequeued, each one means a worker went away empty while jobs were due somewhere (or other workers had just taken
// them); through a load balancer, the count to compare with one instance's
const emptyDequeues = new Counter('jobs_empty_dequeues');

export const options = {
  scenarios: scenarios(__ENV, { vus: 20, rate: 100, maxVUs: 200 }),
  thresholds: thresholds(__ENV, ['jobs-enqueue', 'jobs-dequeue', 'jobs-ack'], [250, 500], {
    jobs_acked_ok: ['rate>0.99'],
  }),
  summaryTrendStats: SUMMARY_TREND_STATS,
};

const client = api({ http, check }, BASE_URL);

export function setup() {
  const worker = data.worker[0];
  const made = client.createQueue(worker, QUEUE, PARTITIONS);
  if (made.result === 'failed') {
    const hint = made.status === 401 || made.status === 403
      ? ": the worker needs the admin role (bin/admin grant <the worker's username> admin worker), and a token issued after the grant (run bin/seed again)"
      : '';
    fail(`cannot create queue ${QUEUE} as user ${worker.id}: ${made.status} ${made.error || ''}${hint}`);
  }
  console.log(`queue ${QUEUE}: ${made.result}`);
  return { worker };
}

export default function ({ worker }) {
  const ids = client.enqueue(worker, QUEUE, BATCH, `k6-${exec.vu.idInTest}-${exec.vu.iterationInInstance}`);
  if (ids) enqueued.add(ids.length);
  const leased = client.dequeue(worker, QUEUE, BATCH, WAIT_MS);
  if (!leased) return;
  perDequeue.add(leased.length);
  if (leased.length === 0) {
    emptyDequeues.add(1);
    return;
  }
  dequeued.add(leased.length);
  const now = Date.now();
  for (const job of leased) {
    const at = Date.parse(job.enqueuedAt);
    if (!Number.isNaN(at)) waited.add(Math.max(0, now - at));
  }
  const results = client.ack(worker, leased);
  if (!results) return;
  for (const r of results) {
    ackedOk.add(r.result === 'acked');
    if (r.result === 'acked') acked.add(1);
    else if (r.result === 'lease_lost') leaseLost.add(1);
  }
}

export function teardown({ worker }) {
  const stats = client.queueStats(worker, QUEUE);
  if (stats) console.log(`queue ${QUEUE} counts: ${JSON.stringify(stats.counts)}, oldest due ${stats.oldestDueAgeMs} ms`);
}

/** The summary as text on stdout and as JSON in $SUMMARY_DIR (lib/summary.js). */
export function handleSummary(data) {
  return summaryOutputs(data, 'jobs', __ENV);
}
