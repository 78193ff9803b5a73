// Body shapes of the API's answers, for check()s: each function takes the parsed body (or null) and says
// whether it has the documented shape. Ids are decimal strings.

export const isId = (v) => typeof v === 'string' && /^[0-9]{1,20}$/.test(v);

/** The parsed body, or null when it is not JSON. */
export function parseJson(text) {
  if (typeof text !== 'string' || text.length === 0) return null;
  try {
    return JSON.parse(text);
  } catch (e) {
    return null;
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCursor = (v) => v === null || typeof v === 'string';

/** {items: [...], nextCursor: string | null}, every item passing `item`. */
export function isPage(body, item = () => true) {
  return isObject(body) && Array.isArray(body.items) && isCursor(body.nextCursor) && body.items.every(item);
}

/** A pin: {id, boardId, ownerId, counts {likes, saves}, ...}. */
export function isPin(body) {
  return isObject(body) && isId(body.id) && isId(body.boardId) && isId(body.ownerId) && isObject(body.counts)
    && typeof body.counts.likes === 'number' && typeof body.counts.saves === 'number';
}

/** A home feed page: items of {pin: {id, ...}, source, fresh}. */
export function isFeedPage(body) {
  return isPage(body, (i) => isObject(i) && isObject(i.pin) && isId(i.pin.id) && typeof i.source === 'string'
    && typeof i.fresh === 'boolean');
}

/** A board: {id, ownerId, name, counts {pins, followers}}. */
export function isBoard(body) {
  return isObject(body) && isId(body.id) && isId(body.ownerId) && typeof body.name === 'string' && isObject(body.counts)
    && typeof body.counts.pins === 'number';
}

/** A user profile: {id, username, counts {boards, pins, likes, followers, ...}}. */
export function isUser(body) {
  return isObject(body) && isId(body.id) && typeof body.username === 'string' && isObject(body.counts)
    && typeof body.counts.pins === 'number';
}

/** GET /v1/users/{a}/following/users/{b}: {following, implicit, since}. */
export function isUserFollowCheck(body) {
  return isObject(body) && typeof body.following === 'boolean' && typeof body.implicit === 'boolean'
    && (body.since === null || body.since === undefined || typeof body.since === 'string');
}

/** GET /v1/users/{a}/following/boards/{x}: {following}. */
export function isBoardFollowCheck(body) {
  return isObject(body) && typeof body.following === 'boolean';
}

/** GET /v1/me/following/users|boards?ids=: {following: [ids]}, each one of those asked. */
export function isFollowedIds(body, asked) {
  const set = new Set(asked);
  return isObject(body) && Array.isArray(body.following) && body.following.every((id) => isId(id) && set.has(id));
}

/** PUT / DELETE /v1/me/following/...: {following, changed} with following as expected. */
export function isFollowState(body, following) {
  return isObject(body) && body.following === following && typeof body.changed === 'boolean';
}

/** PUT / DELETE /v1/pins/{id}/like: {pinId, liked, likeCount}. */
export function isLikeState(body, pinId, liked) {
  return isObject(body) && body.pinId === pinId && body.liked === liked && typeof body.likeCount === 'number'
    && body.likeCount >= (liked ? 1 : 0);
}

/** POST /v1/queues/{name}/jobs with {jobs}: {items: [{id, created}]}, one per job sent. */
export function isEnqueued(body, count) {
  return isPage(body, (i) => isObject(i) && isId(i.id) && typeof i.created === 'boolean') && body.items.length === count;
}

/** POST /v1/queues/{name}/dequeue: {items: [{id, leaseToken, leaseExpiresAt, ...}]}, at most `max`. */
export function isLeasePage(body, max) {
  return isPage(body, (i) => isObject(i) && isId(i.id) && typeof i.leaseToken === 'string' && typeof i.leaseExpiresAt === 'string')
    && body.items.length <= max;
}

/** POST /v1/jobs/ack: {items: [{id, result}]}, one per ack, in the order sent. */
export function isAckPage(body, ids) {
  return isPage(body, (i) => isObject(i) && isId(i.id) && ['acked', 'lease_lost', 'not_found'].includes(i.result))
    && body.items.length === ids.length && body.items.every((i, n) => i.id === ids[n]);
}

/** The error shape: {error, message}, with the given code when one is named. */
export function isError(body, code) {
  return isObject(body) && typeof body.error === 'string' && typeof body.message === 'string'
    && (code === undefined || body.error === code);
}
