import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isAckPage, isBoard, isEnqueued, isError, isFeedPage, isFollowState, isFollowedIds, isId, isLeasePage, isLikeState,
  isPage, isPin, isUser, isUserFollowCheck, parseJson,
} from '../lib/shape.js';

const pin = { id: '241294492511762325', boardId: '2', ownerId: '3', counts: { likes: 0, saves: 0 } };

test('ids are decimal strings', () => {
  assert.ok(isId('241294492511762325'));
  assert.ok(!isId(241294492511762325));
  assert.ok(!isId('-1'));
  assert.ok(!isId(''));
  assert.ok(!isId('12a'));
});

test('parseJson', () => {
  assert.deepEqual(parseJson('{"a":1}'), { a: 1 });
  assert.equal(parseJson('<html>'), null);
  assert.equal(parseJson(''), null);
  assert.equal(parseJson(undefined), null);
});

test('feed pages: items with pin.id, nextCursor string or null', () => {
  const item = { pin, source: 'following', fresh: true };
  assert.ok(isFeedPage({ items: [item], nextCursor: 'abc' }));
  assert.ok(isFeedPage({ items: [], nextCursor: null }));
  assert.ok(!isFeedPage({ items: [item] }), 'nextCursor must be present');
  assert.ok(!isFeedPage({ items: [{ ...item, pin: { id: 5 } }], nextCursor: null }));
  assert.ok(!isFeedPage({ items: {}, nextCursor: null }));
  assert.ok(!isFeedPage({ items: [item], nextCursor: 3 }));
  assert.ok(!isFeedPage(null));
});

test('objects', () => {
  assert.ok(isPin(pin));
  assert.ok(!isPin({ ...pin, counts: null }));
  assert.ok(isBoard({ id: '1', ownerId: '2', name: 'n', counts: { pins: 0, followers: null } }));
  assert.ok(isUser({ id: '1', username: 'u', counts: { pins: 0 } }));
  assert.ok(isPage({ items: [pin], nextCursor: null }, isPin));
  assert.ok(isUserFollowCheck({ following: true, implicit: false, since: '2026-11-22T10:00:00Z' }));
  assert.ok(isUserFollowCheck({ following: false, implicit: false, since: null }));
  assert.ok(!isUserFollowCheck({ following: 'no', implicit: false }));
});

test('follows and likes', () => {
  assert.ok(isFollowedIds({ following: ['1'] }, ['1', '2']));
  assert.ok(!isFollowedIds({ following: ['3'] }, ['1', '2']));
  assert.ok(isFollowState({ following: true, changed: false }, true));
  assert.ok(!isFollowState({ following: false, changed: true }, true));
  assert.ok(isLikeState({ pinId: '9', liked: true, likeCount: 1 }, '9', true));
  assert.ok(!isLikeState({ pinId: '9', liked: true, likeCount: 0 }, '9', true));
  assert.ok(isLikeState({ pinId: '9', liked: false, likeCount: 0 }, '9', false));
  assert.ok(!isLikeState({ pinId: '8', liked: false, likeCount: 0 }, '9', false));
});

test('jobs', () => {
  assert.ok(isEnqueued({ items: [{ id: '1', created: true }, { id: '2', created: true }], nextCursor: null }, 2));
  assert.ok(!isEnqueued({ items: [{ id: '1', created: true }], nextCursor: null }, 2));
  const lease = { id: '5', leaseToken: '1', leaseExpiresAt: '2026-11-22T10:01:00Z' };
  assert.ok(isLeasePage({ items: [lease], nextCursor: null }, 1));
  assert.ok(!isLeasePage({ items: [lease, lease], nextCursor: null }, 1));
  assert.ok(!isLeasePage({ items: [{ ...lease, leaseToken: 1 }], nextCursor: null }, 1));
  assert.ok(isAckPage({ items: [{ id: '5', result: 'acked' }, { id: '6', result: 'lease_lost' }], nextCursor: null }, ['5', '6']));
  assert.ok(!isAckPage({ items: [{ id: '6', result: 'acked' }, { id: '5', result: 'acked' }], nextCursor: null }, ['5', '6']));
  assert.ok(!isAckPage({ items: [{ id: '5', result: 'done' }], nextCursor: null }, ['5']));
});

test('errors', () => {
  assert.ok(isError({ error: 'queue_exists', message: 'm' }, 'queue_exists'));
  assert.ok(!isError({ error: 'queue_exists', message: 'm' }, 'lease_lost'));
  assert.ok(isError({ error: 'x', message: 'm' }));
  assert.ok(!isError({ error: 'x' }));
});
