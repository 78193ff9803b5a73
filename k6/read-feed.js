// Home feed reading sessions: a sample user opens the first page (limit=25), then follows nextCursor for 1-3 more
// pages as readers do, with a think time between pages, stopping at the last page.
//
//   k6 run k6/read-feed.js
//   BASE_URL=http://host:8080 MANIFEST=/path/manifest.json k6 run -e SCENARIO=constant -e RATE=30 k6/read-feed.js
//
// One iteration is one session; the users take turns (iteration n is users[n % users]).
import http from 'k6/http';
import { check, sleep } from 'k6';
import { SharedArray } from 'k6/data';
import { Trend } from 'k6/metrics';
import exec from 'k6/execution';
import { api } from './lib/api.js';
import { manifestPath, sharedLists } from './lib/manifest.js';
import { envNumber, scenarios, SUMMARY_TREND_STATS, thresholds } from './lib/options.js';
import { summaryOutputs } from './lib/summary.js';
import { walk } from './lib/paging.js';
import { between, intBetween } from './lib/random.js';

const PATH = manifestPath(__ENV);
const data = sharedLists(SharedArray, () => open(PATH), ['users'], ['users']);
const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const LIMIT = Math.max(1, Math.min(100, Math.floor(envNumber(__ENV, 'LIMIT', 25))));
const MAX_EXTRA = Math.floor(envNumber(__ENV, 'PAGES_MAX', 3)); // pages after the first, at most
const THINK = envNumber(__ENV, 'THINK', 1); // multiplies the think time (0.5-2 s); 0 for none

const pagesPerSession = new Trend('feed_pages_per_session');
const itemsPerSession = new Trend('feed_items_per_session');

export const options = {
  scenarios: scenarios(__ENV, { vus: 50, rate: 20, maxVUs: 300 }),
  thresholds: thresholds(__ENV, ['home-feed-first', 'home-feed-next'], [400, 800]),
  summaryTrendStats: SUMMARY_TREND_STATS,
};

const client = api({ http, check }, BASE_URL);

export default function () {
  const users = data.users;
  const user = users[exec.scenario.iterationInTest % users.length];
  const extra = Math.min(MAX_EXTRA, intBetween(Math.random, 1, 3));
  const session = walk(
    (cursor) => client.homeFeed(user, LIMIT, cursor),
    extra,
    () => sleep(THINK * between(Math.random, 0.5, 2)),
  );
  pagesPerSession.add(session.pages);
  itemsPerSession.add(session.items);
  sleep(THINK * between(Math.random, 0.5, 1.5));
}

/** The summary as text on stdout and as JSON in $SUMMARY_DIR (lib/summary.js). */
export function handleSummary(data) {
  return summaryOutputs(data, 'read-feed', __ENV);
}
