import { test } from 'node:test';
import assert from 'node:assert/strict';
import { between, distinct, intBetween, pick, seeded, weighted, zipf } from '../lib/random.js';

test('seeded generators repeat and stay in [0, 1)', () => {
  const a = seeded(7);
  const b = seeded(7);
  for (let i = 0; i < 1000; i++) {
    const x = a();
    assert.equal(x, b());
    assert.ok(x >= 0 && x < 1);
  }
  assert.notEqual(seeded(1)(), seeded(2)());
});

test('intBetween covers both ends and nothing else', () => {
  const rnd = seeded(1);
  const seen = new Set();
  for (let i = 0; i < 2000; i++) seen.add(intBetween(rnd, 1, 3));
  assert.deepEqual([...seen].sort(), [1, 2, 3]);
  for (let i = 0; i < 100; i++) {
    const x = between(rnd, 0.5, 2);
    assert.ok(x >= 0.5 && x < 2);
  }
});

test('pick handles empty lists and array-likes', () => {
  const rnd = seeded(3);
  assert.equal(pick(rnd, []), undefined);
  const arrayLike = { length: 2, 0: 'a', 1: 'b' };
  for (let i = 0; i < 20; i++) assert.ok(['a', 'b'].includes(pick(rnd, arrayLike)));
});

test('weighted picks follow the weights and never pick a zero weight', () => {
  const pickName = weighted({ read: 80, write: 20, never: 0 });
  assert.equal(pickName.total, 100);
  const rnd = seeded(11);
  const counts = { read: 0, write: 0, never: 0 };
  const n = 100000;
  for (let i = 0; i < n; i++) counts[pickName(rnd)]++;
  assert.equal(counts.never, 0);
  assert.ok(Math.abs(counts.read / n - 0.8) < 0.01, `read share ${counts.read / n}`);
  // boundaries: rnd() = 0 picks the first name, rnd() just below 1 the last
  assert.equal(pickName(() => 0), 'read');
  assert.equal(pickName(() => 0.9999999), 'write');
  assert.equal(weighted([['x', 1], ['y', 3]])(() => 0.25), 'y');
});

test('weighted rejects bad weights', () => {
  assert.throws(() => weighted({ a: 0 }), /above 0/);
  assert.throws(() => weighted({ a: -1 }), /must be a number/);
  assert.throws(() => weighted({ a: '5' }), /must be a number/);
  assert.throws(() => weighted({ a: Infinity }), /must be a number/);
});

test('zipf favours low ranks as 1/rank', () => {
  const rank = zipf(5);
  const rnd = seeded(5);
  const counts = [0, 0, 0, 0, 0];
  const n = 200000;
  for (let i = 0; i < n; i++) counts[rank(rnd)]++;
  const h = 1 + 1 / 2 + 1 / 3 + 1 / 4 + 1 / 5;
  counts.forEach((c, i) => assert.ok(Math.abs(c / n - 1 / (i + 1) / h) < 0.01, `rank ${i}: ${c / n}`));
  assert.equal(zipf(1)(rnd), 0);
  assert.throws(() => zipf(0));
});

test('distinct gives up on small pools instead of looping', () => {
  const rnd = seeded(9);
  const three = ['a', 'b', 'c'];
  const got = distinct(() => pick(rnd, three), 10);
  assert.deepEqual([...got].sort(), three);
  assert.deepEqual(distinct(() => undefined, 5), []);
  assert.equal(new Set(distinct(() => intBetween(rnd, 1, 1000), 50)).size, 50);
});
