import { test } from 'node:test';
import assert from 'node:assert/strict';
import { feedPath, nextCursor, pagePath, walk } from '../lib/paging.js';

test('paths carry limit and the encoded cursor', () => {
  assert.equal(feedPath(25, null), '/v1/me/home-feed?limit=25');
  assert.equal(feedPath(25, 'MTI6MzQ.a-b_c'), '/v1/me/home-feed?limit=25&cursor=MTI6MzQ.a-b_c');
  assert.equal(feedPath(10, 'a+b/c=='), '/v1/me/home-feed?limit=10&cursor=a%2Bb%2Fc%3D%3D');
  assert.equal(pagePath('/v1/users/1/followers?kind=implicit', 5), '/v1/users/1/followers?kind=implicit&limit=5');
});

test('nextCursor: a non-empty string, else null', () => {
  assert.equal(nextCursor({ items: [], nextCursor: 'x' }), 'x');
  assert.equal(nextCursor({ items: [], nextCursor: null }), null);
  assert.equal(nextCursor({ items: [], nextCursor: '' }), null);
  assert.equal(nextCursor(null), null);
  assert.equal(nextCursor({ items: [] }), null);
});

// A list of `total` pages of two items; fetch records the cursors it was given.
function list(total) {
  const asked = [];
  const fetch = (cursor) => {
    asked.push(cursor);
    const n = cursor === null ? 0 : Number(cursor.slice(1));
    return { items: [1, 2], nextCursor: n + 1 < total ? `p${n + 1}` : null };
  };
  return { asked, fetch };
}

test('walk follows cursors for the extra pages asked', () => {
  const { asked, fetch } = list(10);
  const thinks = [];
  const out = walk(fetch, 3, (i) => thinks.push(i));
  assert.deepEqual(asked, [null, 'p1', 'p2', 'p3']);
  assert.deepEqual(thinks, [1, 2, 3]);
  assert.deepEqual(out, { pages: 4, items: 8, complete: false });
});

test('walk stops at the last page', () => {
  const { asked, fetch } = list(2);
  assert.deepEqual(walk(fetch, 3), { pages: 2, items: 4, complete: true });
  assert.deepEqual(asked, [null, 'p1']);
  assert.deepEqual(walk(list(1).fetch, 0), { pages: 1, items: 2, complete: true });
  assert.deepEqual(walk(list(5).fetch, 0), { pages: 1, items: 2, complete: false });
});

test('walk stops at a failed page', () => {
  let calls = 0;
  const out = walk((cursor) => (++calls === 2 ? null : { items: [1], nextCursor: 'c' }), 3);
  assert.deepEqual(out, { pages: 1, items: 1, complete: false });
  assert.equal(calls, 2);
});
