// bench/fill-feeds.js — brings the sample users' home feeds to the steady state of an active user: their
// materialized feeds full (pinion.feed.materialized-max entries, 1,000 by default), by reading first pages as the
// users themselves, each visit materializing a new chunk. A user whose pools run dry follows more, as active users
// do, and reads on: first the manifest's interests one at a time (each backfills its 50 newest pins), then ten of
// the manifest's boards at a time.
//
//   ../shared/tools/k6 run bench/fill-feeds.js                      # every sample user, to 1,000 entries
//   ../shared/tools/k6 run -e TARGET=500 -e USERS=200 bench/fill-feeds.js
//
// It reads each user's fill from GET /v1/admin/feed/users/{id} (as the manifest's worker account, an admin) and
// prints the fill of the users it handled: min, median and max materialized entries. BASE_URL, MANIFEST/SEED_DIR
// as for the k6/ scripts; TARGET (1000), USERS (all), VUS (16), MAX_VISITS (200) per user, MAX_FOLLOWS (120)
// interests and boards per user.
import http from 'k6/http';
import { sleep } from 'k6';
import exec from 'k6/execution';
import { SharedArray } from 'k6/data';
import { Trend, Counter } from 'k6/metrics';

const PATH = __ENV.MANIFEST || (__ENV.SEED_DIR ? `${__ENV.SEED_DIR}/manifest.json` : '../.stack/seed/manifest.json');
const manifest = JSON.parse(open(PATH));
const users = new SharedArray('users', () => manifest.users.map((u) => ({ id: u.id, token: u.token })));
const boards = new SharedArray('boards', () => manifest.boards.map((b) => (typeof b === 'string' ? b : b.id)));
const interests = new SharedArray('interests', () => (Array.isArray(manifest.interests) ? manifest.interests : []));
const ADMIN = manifest.worker.token;
const BASE = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
const TARGET = Number(__ENV.TARGET || 1000);
const COUNT = Math.min(users.length, Number(__ENV.USERS || users.length));
const MAX_VISITS = Number(__ENV.MAX_VISITS || 200);
const MAX_FOLLOWS = Number(__ENV.MAX_FOLLOWS || 120);

const fill = new Trend('feed_fill_entries');
const visits = new Counter('feed_fill_visits');
const follows = new Counter('feed_fill_follows');

export const options = {
  scenarios: {
    fill: { executor: 'shared-iterations', vus: Number(__ENV.VUS || 16), iterations: COUNT, maxDuration: '60m' },
  },
  summaryTrendStats: ['min', 'med', 'p(10)', 'avg', 'max'],
};

function auth(token) {
  return { headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } };
}

function materialized(id) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const res = http.get(`${BASE}/v1/admin/feed/users/${id}`, auth(ADMIN));
    if (res.status === 200) return JSON.parse(res.body).materialized || 0;
    sleep(0.5);
  }
  return 0;
}

export default function () {
  const index = exec.scenario.iterationInTest;
  const user = users[index];
  let followed = 0;
  let dry = 0;
  let count = materialized(user.id);
  for (let visit = 0; visit < MAX_VISITS && count < TARGET; visit++) {
    const res = http.get(`${BASE}/v1/me/home-feed?limit=25`, auth(user.token));
    visits.add(1);
    const fresh = res.status === 200 ? JSON.parse(res.body).items.filter((item) => item.fresh).length : 0;
    if (fresh > 0) {
      dry = 0;
      count += fresh;
      // a fresh pin may have been shown before (it moves up, the feed does not grow): read the real count now and then
      if (count >= TARGET || visit % 8 === 7) {
        sleep(0.3);
        count = materialized(user.id);
      }
      continue;
    }
    if (++dry < 2) {
      sleep(0.2);
      continue;
    }
    if (followed >= MAX_FOLLOWS) break;
    if (followed < interests.length) {
      for (let k = 0; k < 5 && followed < interests.length; k++, followed++) {
        http.put(`${BASE}/v1/me/following/interests/${interests[(index + followed) % interests.length]}`, null,
          auth(user.token));
        follows.add(1);
      }
    } else {
      for (let k = 0; k < 10; k++) {
        const board = boards[(index * 37 + followed + k) % boards.length];
        http.put(`${BASE}/v1/me/following/boards/${board}`, null, auth(user.token));
      }
      followed += 10;
      follows.add(10);
    }
    sleep(1); // the follows' backfills run as jobs
    count = materialized(user.id);
  }
  sleep(0.5); // the last chunks' persist jobs
  fill.add(materialized(user.id));
}
