import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lists, manifestPath, parseManifest, sharedLists } from '../lib/manifest.js';

const text = readFileSync(new URL('../testkit/fixtures/seed/manifest.json', import.meta.url), 'utf8');

test('manifestPath: MANIFEST, then SEED_DIR, then the default next to the scripts', () => {
  assert.equal(manifestPath({}), '../.stack/seed/manifest.json');
  assert.equal(manifestPath({ MANIFEST: '/data/m.json', SEED_DIR: '/x' }), '/data/m.json');
  assert.equal(manifestPath({ SEED_DIR: '/data/seed/' }), '/data/seed/manifest.json');
  assert.equal(manifestPath({ SEED_DIR: '.stack/seed', PWD: '/work/repo' }), '/work/repo/.stack/seed/manifest.json');
  assert.equal(manifestPath({ MANIFEST: './m.json', PWD: '/work/repo/' }), '/work/repo/m.json');
  assert.equal(manifestPath({ MANIFEST: 'm.json' }), 'm.json');
});

test('parseManifest reads the fixture', () => {
  const m = parseManifest(text, ['users', 'heavyAuthors', 'lightAuthors', 'boards', 'pins', 'interests', 'worker', 'userBoards']);
  assert.equal(m.users.length, 10);
  assert.equal(m.worker.username, 'seed_worker');
});

test('parseManifest names every problem', () => {
  assert.throws(() => parseManifest('{'), /not JSON/);
  assert.throws(() => parseManifest('[]'), /not a JSON object/);
  assert.throws(() => parseManifest(JSON.stringify({ version: 2 })), /version is 2/);
  const bad = JSON.parse(text);
  bad.users[1].id = 123; // a number loses precision past 2^53: ids must be strings
  bad.pins[0] = '12a';
  delete bad.users[2].token;
  const e = (() => { try { parseManifest(JSON.stringify(bad)); } catch (err) { return err; } })();
  assert.match(e.message, /users\[1\]\.id is not a decimal id string/);
  assert.match(e.message, /pins\[0\] is not a decimal id string/);
  assert.match(e.message, /users\[2\]\.token is missing/);
  const empty = JSON.parse(text);
  empty.users = [];
  delete empty.worker;
  assert.throws(() => parseManifest(JSON.stringify(empty), ['users']), /users is empty or missing/);
  assert.throws(() => parseManifest(JSON.stringify(empty), ['worker']), /worker is missing/);
  assert.doesNotThrow(() => parseManifest(JSON.stringify(empty)));
  const noBoards = JSON.parse(text);
  noBoards.users.forEach((u) => { u.boards = []; });
  assert.throws(() => parseManifest(JSON.stringify(noBoards), ['userBoards']), /no user in users has a board/);
});

test('parseManifest refuses expired tokens when a script needs them', () => {
  const m = JSON.parse(text);
  m.tokenExpiresAt = '2026-11-23T10:00:00Z';
  const expired = JSON.stringify(m);
  const after = Date.parse('2026-11-23T10:00:01Z');
  assert.throws(() => parseManifest(expired, ['users'], after), /tokens expired at 2026-11-23T10:00:00Z: run bin\/seed again/);
  assert.throws(() => parseManifest(expired, ['worker'], after), /tokens expired/);
  assert.doesNotThrow(() => parseManifest(expired, ['users'], Date.parse('2026-11-23T09:00:00Z')));
  assert.doesNotThrow(() => parseManifest(expired, ['pins'], after));
  delete m.tokenExpiresAt;
  assert.doesNotThrow(() => parseManifest(JSON.stringify(m), ['users'], after));
});

test('lists: heavy authors most followed first, boards flattened, invalid interests dropped', () => {
  const l = lists(parseManifest(text));
  const m = JSON.parse(text);
  assert.deepEqual(l.heavy, [m.heavyAuthors[1].id, m.heavyAuthors[0].id, m.heavyAuthors[2].id]);
  assert.equal(l.heavyBoards.length, 6);
  assert.equal(l.heavyBoards[0], m.heavyAuthors[1].boards[0]);
  assert.equal(l.lightBoards.length, 4);
  assert.equal(l.usersWithBoards.length, 9);
  assert.deepEqual(l.interests, ['travel', 'food', 'diy', 'home decor']);
  assert.deepEqual(l.worker, [{ id: m.worker.id, token: m.worker.token }]);
  assert.deepEqual(Object.keys(l.users[0]).sort(), ['boards', 'id', 'token']);
});

test('sharedLists reads and parses the manifest once for all lists', () => {
  let reads = 0;
  const made = [];
  class FakeShared {
    constructor(name, fn) {
      made.push(name);
      return fn();
    }
  }
  const out = sharedLists(FakeShared, () => { reads++; return text; }, ['users', 'pins', 'worker'], ['users']);
  assert.equal(reads, 1);
  assert.deepEqual(made, ['users', 'pins', 'worker']);
  assert.equal(out.users.length, 10);
  assert.equal(out.pins.length, 40);
  assert.equal(out.worker.length, 1);
});
