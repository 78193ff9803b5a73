import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lists, parseManifest } from '../lib/manifest.js';
import { seeded } from '../lib/random.js';
import { targets } from '../lib/targets.js';
import { pinBody, ackBody, enqueueBody, queueBody } from '../lib/bodies.js';

const l = lists(parseManifest(readFileSync(new URL('../testkit/fixtures/seed/manifest.json', import.meta.url), 'utf8')));

test('user targets lean toward heavy authors, the most followed first, and are never the caller', () => {
  const t = targets(l);
  const rnd = seeded(21);
  const counts = new Map();
  const self = l.users[0].id;
  const n = 50000;
  for (let i = 0; i < n; i++) {
    const id = t.user(rnd, self);
    assert.notEqual(id, self);
    counts.set(id, (counts.get(id) || 0) + 1);
  }
  const heavy = l.heavy.map((id) => counts.get(id) || 0);
  const heavyShare = heavy.reduce((a, b) => a + b, 0) / n;
  assert.ok(Math.abs(heavyShare - 0.5) < 0.02, `heavy share ${heavyShare}`);
  assert.ok(heavy[0] > heavy[1] && heavy[1] > heavy[2], `zipf over rank: ${heavy}`);
  const light = l.light.reduce((a, id) => a + (counts.get(id) || 0), 0) / n;
  assert.ok(Math.abs(light - 0.2) < 0.02, `light share ${light}`);
});

test('a caller who is the only candidate gets no target', () => {
  const only = { users: [{ id: '1' }], heavy: ['1'], light: [], heavyBoards: [], lightBoards: [], boards: [] };
  const t = targets(only);
  assert.equal(t.user(seeded(1), '1'), undefined);
  assert.equal(t.board(seeded(1), []), undefined);
  assert.deepEqual(t.users(seeded(1), '1', 10), []);
});

test('board targets skip the caller\'s own boards', () => {
  const t = targets(l);
  const rnd = seeded(4);
  const own = [...l.heavyBoards.slice(0, 3), ...l.boards.slice(0, 10)];
  for (let i = 0; i < 5000; i++) assert.ok(!own.includes(t.board(rnd, own)));
});

test('batches are distinct and at most the size asked', () => {
  const t = targets(l);
  const rnd = seeded(8);
  const ids = t.boards(rnd, [], 100);
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(ids.length > 10 && ids.length <= 100);
  const users = t.users(rnd, l.users[0].id, 5);
  assert.equal(users.length, 5);
  assert.ok(!users.includes(l.users[0].id));
});

test('pin bodies pass the API\'s field limits', () => {
  const rnd = seeded(2);
  const url = /^https?:\/\/[^\s/$.?#][^\s]*$/;
  for (let i = 0; i < 200; i++) {
    const body = pinBody(rnd, '77', l.interests, `3-${i}`);
    assert.equal(body.boardId, '77');
    assert.ok(url.test(body.link) && url.test(body.imageUrl));
    assert.ok(body.description.length <= 500);
    assert.ok(body.interests.length <= 3);
    assert.equal(new Set(body.interests).size, body.interests.length);
    for (const name of body.interests) assert.ok(l.interests.includes(name));
  }
  assert.deepEqual(pinBody(rnd, '1', [], 'x').interests, []);
});

test('queue bodies: create, batch enqueue, ack', () => {
  assert.deepEqual(queueBody('k6_jobs', 4), { name: 'k6_jobs', partitions: 4, leaseMs: 60000, retentionMs: 3600000 });
  assert.deepEqual(enqueueBody(2, 'p'), { jobs: [{ body: 'p-0' }, { body: 'p-1' }] });
  assert.deepEqual(ackBody([{ id: '5', leaseToken: '2', body: 'x' }]), { acks: [{ id: '5', leaseToken: '2', outcome: 'success' }] });
});
