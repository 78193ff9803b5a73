// Feed freshness: how long a new pin takes to reach a follower's next first page, for each way a pin travels:
// pushed (an author below the pull threshold), pulled (the data set's most followed heavy author, above it) and
// through an interest (interests are always pulled). Run it beside a write load:
//
//   k6 run -e SCENARIO=constant -e RATE=200 -e DURATION=5m k6/write-pins.js &
//   k6 run -e DURATION=5m k6/freshness.js
//
// setup() signs up a fresh author and two followers (one follows the author, one an interest of the run) and logs
// in as the heavy author (the manifest's password). Each kind has one VU: it creates a pin as its author, then opens
// its follower's first page every POLL_MS until the pin is there (at most 30 s), records the time in
// freshness_<kind> (ms), and waits a second.
import http from 'k6/http';
import { check, sleep } from 'k6';
import { Trend } from 'k6/metrics';
import { api } from './lib/api.js';
import { manifestPath, parseManifest } from './lib/manifest.js';
import { envDuration, envNumber, SUMMARY_TREND_STATS } from './lib/options.js';
import { summaryOutputs } from './lib/summary.js';
import { isBoard } from './lib/shape.js';

const manifest = parseManifest(open(manifestPath(__ENV)), ['heavyAuthors']);
const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
const DURATION = envDuration(__ENV, 'DURATION', '1m');
const POLL_MS = Math.max(10, envNumber(__ENV, 'POLL_MS', 100));
const GIVE_UP_MS = 30000;
const KINDS = ['pushed', 'pulled', 'interest'];
const LIMITS = { pushed: 5000, pulled: 1000, interest: 1000 }; // p99, ms

const freshness = {};
for (const kind of KINDS) freshness[kind] = new Trend(`freshness_${kind}`, true);

const scenarios = {};
const thresholds = { checks: ['rate>0.99'] };
for (const kind of KINDS) {
  scenarios[kind] = { executor: 'constant-vus', vus: 1, duration: DURATION, exec: kind, gracefulStop: '35s' };
  thresholds[`freshness_${kind}`] = [`p(99)<${LIMITS[kind]}`];
}
export const options = { scenarios, thresholds, summaryTrendStats: SUMMARY_TREND_STATS };

const client = api({ http, check }, BASE_URL);

function account(name) {
  const username = `${name}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6).toString(36)}`;
  const password = `probe-${username}`;
  const body = { username, password, displayName: `Freshness probe ${name}` };
  if (!client.expect(client.send('POST', '/v1/users', 'probe-setup', null, body), 'probe-setup', 201, (b) => b !== null)) {
    throw new Error(`cannot sign up ${username}`);
  }
  return login(username, password);
}

function login(username, password) {
  const session = client.expect(client.send('POST', '/v1/sessions', 'probe-setup', null, { username, password }), 'probe-setup', 200,
    (b) => b !== null && typeof b.token === 'string');
  if (!session) throw new Error(`cannot log in as ${username}`);
  return { id: session.userId, token: session.token };
}

function follow(user, what) {
  const res = client.send('PUT', `/v1/me/following/${what}`, 'probe-setup', user);
  if (!check(res, { 'probe follow 200': (r) => r.status === 200 }, { name: 'probe-setup' })) throw new Error(`cannot follow ${what}`);
}

function board(user) {
  const created = client.expect(client.send('POST', '/v1/boards', 'probe-setup', user, { name: 'freshness', description: 'probe' }),
    'probe-setup', 201, isBoard);
  if (!created) throw new Error('cannot create a board');
  return created.id;
}

export function setup() {
  const heavy = [...manifest.heavyAuthors].sort((a, b) => (b.followers || 0) - (a.followers || 0))[0];
  if (!heavy.username || !manifest.password) throw new Error('manifest: the heavy author has no username or no password');
  const pulledAuthor = login(heavy.username, manifest.password);
  const author = account('probe_author');
  const reader = account('probe_reader');
  const topicReader = account('probe_topic');
  const topic = `probe ${Date.now().toString(36)}`;
  follow(reader, `users/${author.id}`);
  follow(reader, `users/${pulledAuthor.id}`);
  follow(topicReader, `interests/${encodeURIComponent(topic)}`);
  // the first visits record the readers as active
  client.homeFeed(reader, 25);
  client.homeFeed(topicReader, 25);
  return {
    pushed: { author, board: board(author), reader, interests: [] },
    pulled: { author: pulledAuthor, board: heavy.boards[0], reader, interests: [] },
    interest: { author, board: board(author), reader: topicReader, interests: [topic] },
  };
}

function probe(kind, plan) {
  const pin = client.createPin(plan.author, {
    boardId: plan.board, description: `freshness ${kind}`, imageUrl: 'https://img.example.com/probe.jpg', interests: plan.interests,
  });
  if (!pin) return;
  const start = Date.now();
  let seen = false;
  while (!seen && Date.now() - start < GIVE_UP_MS) {
    const page = client.homeFeed(plan.reader, 25);
    seen = page !== null && page.items.some((item) => item.pin.id === pin.id);
    if (!seen) sleep(POLL_MS / 1000);
  }
  check(seen, { [`${kind} pin reached the follower's first page`]: (s) => s === true }, { name: `freshness-${kind}` });
  if (seen) freshness[kind].add(Date.now() - start);
  sleep(1);
}

export function pushed(plans) {
  probe('pushed', plans.pushed);
}

export function pulled(plans) {
  probe('pulled', plans.pulled);
}

export function interest(plans) {
  probe('interest', plans.interest);
}

/** The summary as text on stdout and as JSON in $SUMMARY_DIR (lib/summary.js). */
export function handleSummary(data) {
  return summaryOutputs(data, 'freshness', __ENV);
}
