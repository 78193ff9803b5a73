// The API calls the scripts make, each with its name tag and its checks on status and body shape.
// k6's modules are passed in ({http, check}), so this module imports none and runs under node with fakes.
import { ackBody, dequeueBody, enqueueBody, queueBody, saveBody } from './bodies.js';
import { feedPath, pagePath } from './paging.js';
import {
  isAckPage, isBoard, isBoardFollowCheck, isEnqueued, isError, isFeedPage, isFollowState, isFollowedIds,
  isLeasePage, isLikeState, isPage, isPin, isUser, isUserFollowCheck, parseJson,
} from './shape.js';

/**
 * api({http, check}, baseUrl): every method sends one request and returns the parsed body when the status and
 * the body's shape are as documented (every check passed), else null. `user` is {id, token}.
 */
export function api(k6, baseUrl) {
  const { http, check } = k6;
  const base = baseUrl.replace(/\/+$/, '');

  function send(method, path, name, user, body, extra = {}) {
    const headers = {};
    if (user) headers.Authorization = `Bearer ${user.token}`;
    // every write says JSON, with or without a body, as the resources consume JSON
    if (body !== undefined || method !== 'GET') headers['Content-Type'] = 'application/json';
    const params = Object.assign({ headers, tags: { name } }, extra);
    return http.request(method, base + path, body === undefined ? null : JSON.stringify(body), params);
  }

  // One check on the status and one on the body; returns the body when both pass.
  function expect(res, name, status, shape) {
    const body = parseJson(res.body);
    const ok = check(res, {
      [`${name} status ${status}`]: (r) => r.status === status,
      [`${name} body`]: () => shape(body),
    }, { name });
    return ok ? body : null;
  }

  const one = (method, path, name, user, body, status, shape) => expect(send(method, path, name, user, body), name, status, shape);
  const followPath = (kind, id) => `/v1/me/following/${kind}/${id}`;

  return {
    send,
    expect,

    /** GET /v1/me/home-feed?limit=&cursor=: first page without a cursor, then the cursor's page. */
    homeFeed(user, limit, cursor) {
      return one('GET', feedPath(limit, cursor), cursor ? 'home-feed-next' : 'home-feed-first', user, undefined, 200, isFeedPage);
    },
    getPin(id) {
      return one('GET', `/v1/pins/${id}`, 'pin-get', null, undefined, 200, (b) => isPin(b) && b.id === id);
    },
    getBoard(id) {
      return one('GET', `/v1/boards/${id}`, 'board-get', null, undefined, 200, (b) => isBoard(b) && b.id === id);
    },
    getUser(id) {
      return one('GET', `/v1/users/${id}`, 'user-get', null, undefined, 200, (b) => isUser(b) && b.id === id);
    },
    boardPins(id, limit = 25) {
      return one('GET', pagePath(`/v1/boards/${id}/pins`, limit), 'board-pins', null, undefined, 200,
        (b) => isPage(b, (p) => isPin(p) && p.boardId === id) && b.items.length <= limit);
    },

    /** Does a follow user b: {following, implicit, since}. */
    followCheckUser(a, b) {
      return one('GET', `/v1/users/${a}/following/users/${b}`, 'follow-check-user', null, undefined, 200, isUserFollowCheck);
    },
    /** Does a follow board x: {following}. */
    followCheckBoard(a, x) {
      return one('GET', `/v1/users/${a}/following/boards/${x}`, 'follow-check-board', null, undefined, 200, isBoardFollowCheck);
    },
    /** Which of these (<= 100) users or boards the caller follows; kind 'users' or 'boards'. */
    which(user, kind, ids) {
      return one('GET', `/v1/me/following/${kind}?ids=${ids.join(',')}`, `follow-which-${kind}`, user, undefined, 200,
        (b) => isFollowedIds(b, ids));
    },
    /** Follow (on) or unfollow a user or board; kind 'users' or 'boards'. */
    follow(user, kind, id, on) {
      const name = `${on ? 'follow' : 'unfollow'}-${kind === 'users' ? 'user' : 'board'}`;
      return one(on ? 'PUT' : 'DELETE', followPath(kind, id), name, user, undefined, 200, (b) => isFollowState(b, on));
    },

    /** POST /v1/pins on one of the user's boards -> 201 with the new pin. */
    createPin(user, pin) {
      return one('POST', '/v1/pins', 'pin-create', user, pin, 201,
        (b) => isPin(b) && b.boardId === pin.boardId && b.ownerId === user.id);
    },
    /** POST /v1/pins/{id}/saves to one of the user's boards -> 201 with the new pin, savedFrom the original. */
    savePin(user, pinId, boardId) {
      return one('POST', `/v1/pins/${pinId}/saves`, 'pin-save', user, saveBody(boardId), 201,
        (b) => isPin(b) && b.savedFrom === pinId && b.boardId === boardId && b.ownerId === user.id);
    },
    /** PUT (on) or DELETE /v1/pins/{id}/like -> {pinId, liked, likeCount}. */
    like(user, pinId, on) {
      return one(on ? 'PUT' : 'DELETE', `/v1/pins/${pinId}/like`, on ? 'pin-like' : 'pin-unlike', user, undefined, 200,
        (b) => isLikeState(b, pinId, on));
    },

    /**
     * POST /v1/queues (admin): 201 created, or 409 queue_exists, both fine.
     * Returns {result: 'created' | 'exists' | 'failed', status, error}: error is the answer's error code.
     */
    createQueue(admin, name, partitions) {
      const res = send('POST', '/v1/queues', 'queue-create', admin, queueBody(name, partitions),
        { responseCallback: http.expectedStatuses(201, 409) });
      const body = parseJson(res.body);
      const ok = check(res, {
        'queue-create 201 or 409 queue_exists': (r) => (r.status === 201 && body !== null && body.name === name)
          || (r.status === 409 && isError(body, 'queue_exists')),
      }, { name: 'queue-create' });
      const error = body && typeof body.error === 'string' ? body.error : null;
      if (!ok) return { result: 'failed', status: res.status, error };
      return { result: res.status === 201 ? 'created' : 'exists', status: res.status, error };
    },
    /** Enqueues `count` jobs in one batch -> their ids. */
    enqueue(worker, queue, count, prefix) {
      const body = one('POST', `/v1/queues/${queue}/jobs`, 'jobs-enqueue', worker, enqueueBody(count, prefix), 201,
        (b) => isEnqueued(b, count));
      return body ? body.items.map((i) => i.id) : null;
    },
    /** Leases up to `max` jobs, waiting up to waitMs -> [{id, leaseToken, enqueuedAt, ...}] (maybe empty). */
    dequeue(worker, queue, max, waitMs) {
      const body = one('POST', `/v1/queues/${queue}/dequeue`, 'jobs-dequeue', worker, dequeueBody(max, waitMs), 200,
        (b) => isLeasePage(b, max));
      return body ? body.items : null;
    },
    /** Acks leased jobs as succeeded -> [{id, result}] in the order sent. */
    ack(worker, leased) {
      const ids = leased.map((j) => j.id);
      const body = one('POST', '/v1/jobs/ack', 'jobs-ack', worker, ackBody(leased), 200, (b) => isAckPage(b, ids));
      return body ? body.items : null;
    },
    /** GET /v1/queues/{name}/stats -> {queue, counts, oldestDueAgeMs, partitions}. */
    queueStats(worker, queue) {
      return one('GET', `/v1/queues/${queue}/stats`, 'queue-stats', worker, undefined, 200,
        (b) => b !== null && typeof b === 'object' && b.queue === queue && typeof b.counts === 'object');
    },
  };
}
