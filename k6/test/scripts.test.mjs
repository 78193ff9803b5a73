// Smoke tests of the k6 scripts themselves: each runs under node against k6 stand-ins (k6mock/) and an in-memory
// API (fake-api.mjs) over the fixture manifest, through setup, iterations and teardown. Every check must pass,
// every request must carry a name tag with its own thresholds, and each script must do what it says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { fakeApi } from '../testkit/fake-api.mjs';

register('../testkit/k6mock/loader.mjs', import.meta.url);
const { state, reset } = await import('../testkit/k6mock/state.mjs');

const K6_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = resolve(K6_DIR, 'testkit/fixtures/seed/manifest.json');
const manifest = JSON.parse(readFileSync(FIXTURE, 'utf8'));
let loads = 0;

async function load(script, env = {}, server = fakeApi(manifest)) {
  reset();
  state.server = server;
  globalThis.__ENV = { MANIFEST: FIXTURE, BASE_URL: 'http://127.0.0.1:18080/', THINK: '1', ...env };
  globalThis.__VU = 1;
  globalThis.__ITER = 0;
  globalThis.open = (path) => {
    state.opened.push(path);
    return readFileSync(resolve(K6_DIR, path), 'utf8');
  };
  return import(`../${script}?load=${++loads}`);
}

function quietly(fn) {
  const log = console.log;
  const lines = [];
  console.log = (...args) => lines.push(args.join(' '));
  try {
    fn();
  } finally {
    console.log = log;
  }
  return lines;
}

function run(mod, iterations) {
  return quietly(() => {
    const data = mod.setup ? mod.setup() : undefined;
    for (let i = 0; i < iterations; i++) {
      state.iterationInTest = i;
      state.iterationInInstance = i;
      mod.default(data);
    }
    if (mod.teardown) mod.teardown(data);
  });
}

const names = () => state.requests.map((r) => r.params.tags.name);
const count = (name) => names().filter((n) => n === name).length;

function commonChecks(mod, untagged = []) {
  const { scenarios, thresholds } = mod.options;
  assert.equal(scenarios.ramp.executor, 'ramping-vus');
  assert.equal(scenarios.constant.executor, 'constant-arrival-rate');
  for (const key of ['http_req_duration', 'http_req_failed', 'checks']) assert.ok(thresholds[key], key);
  assert.ok(thresholds.http_req_duration.some((t) => t.startsWith('p(95)<')));
  assert.ok(thresholds.http_req_duration.some((t) => t.startsWith('p(99)<')));
  assert.deepEqual(state.opened, [FIXTURE], 'the manifest is read once');
  assert.ok(state.requests.length > 0);
  for (const r of state.requests) {
    assert.ok(r.url.startsWith('http://127.0.0.1:18080/v1/'), r.url);
    const name = r.params.tags && r.params.tags.name;
    assert.ok(name, `no name tag on ${r.method} ${r.url}`);
    if (!untagged.includes(name)) assert.ok(thresholds[`http_req_duration{name:${name}}`], `no thresholds for ${name}`);
  }
  const failed = state.checks.filter((c) => !c.ok);
  assert.deepEqual(failed, [], 'every check passes');
  const bad = state.requests.filter((r) => r.status >= 400);
  assert.deepEqual(bad.map((r) => `${r.method} ${r.url} ${r.status}`), []);
  assert.ok(state.checks.every((c) => c.tags && c.tags.name));
}

test('read-feed: sessions walk 2-4 pages with their own cursors', async () => {
  const mod = await load('read-feed.js');
  run(mod, 60);
  commonChecks(mod);
  const first = count('home-feed-first');
  const next = count('home-feed-next');
  assert.equal(first, 60, 'one first page per session');
  assert.ok(next >= 60 && next <= 60 * 2, `next pages ${next}`); // the fake list has 3 pages
  assert.ok(state.requests.every((r) => r.url.includes('limit=25')));
  const pages = state.metrics.feed_pages_per_session;
  assert.equal(pages.length, 60);
  assert.ok(pages.every((p) => p >= 2 && p <= 3));
  assert.ok(state.slept > 0);
  // sessions take users in turn
  const tokens = state.requests.filter((r) => !r.url.includes('cursor=')).map((r) => r.params.headers.Authorization);
  assert.equal(tokens[0], `Bearer ${manifest.users[0].token}`);
  assert.equal(tokens[1], `Bearer ${manifest.users[1].token}`);
});

test('read-feed: PAGES_MAX=0 reads first pages only, THINK=0 never sleeps', async () => {
  const mod = await load('read-feed.js', { PAGES_MAX: '0', THINK: '0', SCENARIO: 'constant' });
  assert.deepEqual(Object.keys(mod.options.scenarios), ['constant']);
  run(mod, 10);
  assert.equal(count('home-feed-next'), 0);
  assert.equal(state.slept, 0);
});

test('follow: checks, batches and writes; never self or own boards', async () => {
  const mod = await load('follow.js');
  run(mod, 600);
  commonChecks(mod);
  for (const name of ['follow-check-user', 'follow-check-board', 'follow-which-users', 'follow-which-boards',
    'follow-user', 'unfollow-user', 'follow-board', 'unfollow-board']) assert.ok(count(name) > 0, name);
  const writes = state.requests.filter((r) => r.method !== 'GET').length;
  assert.ok(writes / state.requests.length > 0.12 && writes / state.requests.length < 0.28, `writes ${writes}`);
  for (const r of state.requests.filter((x) => x.url.includes('ids='))) {
    const ids = new URL(r.url).searchParams.get('ids').split(',');
    assert.ok(ids.length >= 1 && ids.length <= 100);
    assert.equal(new Set(ids).size, ids.length);
  }
  const heavy = new Set(manifest.heavyAuthors.map((a) => a.id));
  const userTargets = state.requests.filter((r) => /following\/users\/\d+$/.test(r.url)).map((r) => r.url.split('/').pop());
  const share = userTargets.filter((id) => heavy.has(id)).length / userTargets.length;
  assert.ok(share > 0.35, `heavy share ${share}`);
});

test('write-pins: creates, saves, likes and unlikes as the pin\'s owner', async () => {
  const mod = await load('write-pins.js');
  run(mod, 300);
  commonChecks(mod);
  for (const name of ['pin-create', 'pin-save', 'pin-like', 'pin-unlike']) assert.ok(count(name) > 0, name);
  const created = state.requests.filter((r) => r.params.tags.name === 'pin-create');
  for (const r of created) {
    const body = JSON.parse(r.body);
    assert.ok(manifest.users.some((u) => r.params.headers.Authorization === `Bearer ${u.token}` && u.boards.includes(body.boardId)));
  }
});

test('jobs: setup creates the queue (or finds it), iterations enqueue, lease and ack', async () => {
  const server = fakeApi(manifest);
  let mod = await load('jobs.js', { BATCH: '5' }, server);
  const lines = run(mod, 20);
  commonChecks(mod, ['queue-create', 'queue-stats']);
  assert.match(lines[0], /queue k6_jobs: created/);
  assert.match(lines.at(-1), /queue k6_jobs counts: .*"SUCCEEDED":100/);
  const sum = (m) => (state.metrics[m] || []).reduce((a, b) => a + b, 0);
  assert.equal(sum('jobs_enqueued'), 100);
  assert.equal(sum('jobs_dequeued'), 100);
  assert.equal(sum('jobs_acked'), 100);
  assert.equal(state.metrics.jobs_acked_ok.length, 100);
  assert.ok(state.metrics.jobs_acked_ok.every((v) => v === 1));
  assert.ok(mod.options.thresholds.jobs_acked_ok);
  const ack = JSON.parse(state.requests.find((r) => r.params.tags.name === 'jobs-ack').body);
  assert.deepEqual(Object.keys(ack.acks[0]).sort(), ['id', 'leaseToken', 'outcome']);
  // a second run finds the queue: 409 queue_exists is expected, not a failure
  mod = await load('jobs.js', { QUEUE: 'k6_jobs' }, server);
  const again = run(mod, 1);
  assert.match(again[0], /queue k6_jobs: exists/);
  const create = state.requests.find((r) => r.params.tags.name === 'queue-create');
  assert.equal(create.status, 409);
  assert.deepEqual(create.params.responseCallback, { expectedStatuses: [201, 409] });
  assert.ok(state.checks.every((c) => c.ok));
});

test('jobs: setup fails loudly when the worker is no admin', async () => {
  const server = fakeApi({ ...manifest, worker: { ...manifest.worker, token: 'not-a-token' } });
  const mod = await load('jobs.js', {}, server);
  assert.throws(() => mod.setup(), /cannot create queue k6_jobs as user \d+: 401 unauthorized: the worker needs the admin role \(bin\/admin grant/);
});

test('mixed: every action of the mix, about 85% reads', async () => {
  const mod = await load('mixed.js');
  run(mod, 3000);
  commonChecks(mod);
  const { MIXED_WEIGHTS } = await import('../lib/mix.js');
  for (const name of Object.keys(MIXED_WEIGHTS)) assert.ok(count(name) > 0, name);
  const writes = state.requests.filter((r) => r.method !== 'GET').length / state.requests.length;
  assert.ok(Math.abs(writes - 0.15) < 0.03, `write share ${writes}`);
  assert.ok(count('home-feed-next') > 0);
});

test('freshness: setup signs up the probe accounts; each kind creates a pin and polls first pages until it is there', async () => {
  const tokens = new Map(); // token -> user id
  const feedFor = new Map(); // user id -> pins visible after `delay` more polls: [{pin, after}]
  let nextId = 5000;
  const json = (body) => (body ? JSON.parse(body) : null);
  const server = (method, url, body, params) => {
    const path = new URL(url).pathname;
    const caller = tokens.get(((params.headers || {}).Authorization || '').slice(7));
    const b = json(body);
    if (method === 'POST' && path === '/v1/users') return { status: 201, body: { id: String(nextId++), username: b.username } };
    if (method === 'POST' && path === '/v1/sessions') {
      const id = String(nextId++);
      tokens.set(`t${id}`, id);
      feedFor.set(id, []);
      return { status: 200, body: { token: `t${id}`, userId: id } };
    }
    if (!caller) return { status: 401, body: { error: 'unauthorized', message: 'no' } };
    if (method === 'PUT' && path.startsWith('/v1/me/following/')) return { status: 200, body: { following: true, changed: true } };
    if (method === 'POST' && path === '/v1/boards') {
      return { status: 201, body: { id: String(nextId++), ownerId: caller, name: b.name, counts: { pins: 0, followers: 0 } } };
    }
    if (method === 'POST' && path === '/v1/pins') {
      const pin = { id: String(nextId++), boardId: b.boardId, ownerId: caller, counts: { likes: 0, saves: 0 } };
      for (const list of feedFor.values()) list.push({ pin, after: 2 });
      return { status: 201, body: pin };
    }
    if (method === 'GET' && path === '/v1/me/home-feed') {
      const list = feedFor.get(caller);
      list.forEach((e) => { e.after -= 1; });
      const items = list.filter((e) => e.after < 0).map((e) => ({ pin: e.pin, source: 'following', fresh: true }));
      return { status: 200, body: { items, nextCursor: null } };
    }
    return { status: 404, body: { error: 'not_found', message: path } };
  };
  const mod = await load('freshness.js', { DURATION: '30s', POLL_MS: '10' }, server);
  const lines = quietly(() => {
    const plans = mod.setup();
    mod.pushed(plans);
    mod.pulled(plans);
    mod.interest(plans);
  });
  assert.deepEqual(lines, []);
  assert.deepEqual(Object.keys(mod.options.scenarios), ['pushed', 'pulled', 'interest']);
  for (const kind of ['pushed', 'pulled', 'interest']) {
    assert.ok(mod.options.thresholds[`freshness_${kind}`][0].startsWith('p(99)<'));
    assert.equal(state.metrics[`freshness_${kind}`].length, 1, `one ${kind} pin measured`);
  }
  assert.equal(count('pin-create'), 3);
  assert.ok(count('home-feed-first') >= 3 * 3, 'polled until each pin was there');
  assert.deepEqual(state.checks.filter((c) => !c.ok), [], 'every check passes');
  assert.ok(state.checks.every((c) => c.tags && c.tags.name));
});
