// A stand-in for the Pinion API in memory, for the smoke tests: the paths, bodies, statuses and error shape of
// docs/api.md and docs/queue.md, with the checks that matter to the scripts (tokens, own boards, self follows,
// cursors bound to their user and list, id lists of <= 100, queue batches).
const ID = /^[0-9]{1,20}$/;
const URL_RE = /^https?:\/\/[^\s/$.?#][^\s]*$/;
const INTEREST = /^\s*[A-Za-z0-9][A-Za-z0-9 _-]{0,39}\s*$/;

export function fakeApi(manifest) {
  const tokens = new Map(); // token -> user id
  const owner = new Map(); // board id -> owner id
  const admins = new Set();
  for (const u of manifest.users) {
    tokens.set(u.token, u.id);
    for (const b of u.boards) owner.set(b, u.id);
  }
  for (const a of [...manifest.heavyAuthors, ...manifest.lightAuthors]) for (const b of a.boards) owner.set(b, a.id);
  for (const b of manifest.boards) if (!owner.has(b)) owner.set(b, '999');
  tokens.set(manifest.worker.token, manifest.worker.id);
  admins.add(manifest.worker.id);
  const queues = new Map(); // name -> {pending: [], running: Map}
  let nextId = 1000;
  let jobSeq = 1;

  const err = (status, error, message = error) => ({ status, body: { error, message } });
  const pin = (id, boardId, ownerId, extra = {}) => ({
    id, boardId, ownerId, description: 'd', link: null, imageUrl: 'https://img.example.com/x.jpg', interests: [],
    savedFrom: null, createdAt: '2026-11-22T10:00:00Z', counts: { likes: 1, saves: 0 }, ...extra,
  });
  const ids = (text, max = 100) => {
    if (!text) return err(400, 'invalid_ids');
    const parts = text.split(',');
    if (parts.length > max) return err(400, 'too_many_ids');
    if (!parts.every((p) => ID.test(p))) return err(400, 'invalid_id');
    return parts;
  };

  return function server(method, url, body, params) {
    const u = new URL(url);
    const path = u.pathname;
    const q = u.searchParams;
    const auth = (params.headers || {}).Authorization || '';
    const caller = auth.startsWith('Bearer ') ? tokens.get(auth.slice(7)) : undefined;
    let json = null;
    if (method !== 'GET' && (params.headers || {})['Content-Type'] !== 'application/json') return err(415, 'unsupported_media_type');
    if (body !== null && body !== undefined) {
      try {
        json = JSON.parse(body);
      } catch (e) {
        return err(400, 'malformed_json');
      }
    }
    const m = (re) => path.match(re);
    let r;
    const needUser = () => (caller ? null : err(401, 'unauthorized'));
    const limit = () => {
      const l = q.get('limit') === null ? 25 : Number(q.get('limit'));
      return Number.isInteger(l) && l >= 1 ? Math.min(l, 100) : null;
    };

    if (method === 'GET' && path === '/v1/me/home-feed') {
      if (!caller) return err(401, 'unauthorized');
      const l = limit();
      if (l === null) return err(400, 'invalid_limit');
      let page = 0;
      const cursor = q.get('cursor');
      if (cursor) {
        const [who, n] = cursor.split('.');
        if (who !== `feed${caller}` || !/^\d+$/.test(n)) return err(400, 'invalid_cursor');
        page = Number(n);
      }
      const items = [];
      for (let i = 0; i < l; i++) items.push({ pin: pin(String(100000 + page * 100 + i), '7', '8'), source: 'following', fresh: page === 0 });
      return { status: 200, body: { items, nextCursor: page < 2 ? `feed${caller}.${page + 1}` : null } };
    }
    if (method === 'GET' && (r = m(/^\/v1\/pins\/([^/]+)$/))) {
      return ID.test(r[1]) ? { status: 200, body: pin(r[1], '7', '8') } : err(400, 'invalid_id');
    }
    if (method === 'GET' && (r = m(/^\/v1\/boards\/([^/]+)$/))) {
      if (!ID.test(r[1])) return err(400, 'invalid_id');
      return owner.has(r[1]) ? { status: 200, body: { id: r[1], ownerId: owner.get(r[1]), name: 'b', description: null, createdAt: '2026-11-22T10:00:00Z', counts: { pins: 3, followers: 2 } } } : err(404, 'board_not_found');
    }
    if (method === 'GET' && (r = m(/^\/v1\/boards\/([^/]+)\/pins$/))) {
      const l = limit();
      if (l === null) return err(400, 'invalid_limit');
      return { status: 200, body: { items: [pin('11', r[1], '8'), pin('12', r[1], '8')].slice(0, l), nextCursor: null } };
    }
    if (method === 'GET' && (r = m(/^\/v1\/users\/([^/]+)$/))) {
      if (!ID.test(r[1])) return err(400, 'invalid_id');
      return { status: 200, body: { id: r[1], username: 'u', displayName: 'U', createdAt: '2026-11-22T10:00:00Z', counts: { boards: 1, pins: 2, likes: 3, followers: 4, implicitFollowers: 0, following: 1, implicitFollowing: 0, followedBoards: 0, interests: 0 } } };
    }
    if (method === 'GET' && (r = m(/^\/v1\/users\/(\d+)\/following\/users\/(\d+)$/))) {
      return { status: 200, body: { following: false, implicit: false, since: null } };
    }
    if (method === 'GET' && (r = m(/^\/v1\/users\/(\d+)\/following\/boards\/(\d+)$/))) {
      return { status: 200, body: { following: true } };
    }
    if (method === 'GET' && (r = m(/^\/v1\/me\/following\/(users|boards)$/))) {
      const denied = needUser();
      if (denied) return denied;
      const list = ids(q.get('ids'));
      if (!Array.isArray(list)) return list;
      return { status: 200, body: { following: list.slice(0, 1) } };
    }
    if ((method === 'PUT' || method === 'DELETE') && (r = m(/^\/v1\/me\/following\/(users|boards)\/([^/]+)$/))) {
      const denied = needUser();
      if (denied) return denied;
      if (!ID.test(r[2])) return err(400, 'invalid_id');
      if (r[1] === 'users' && r[2] === caller) return err(400, 'cannot_follow_self');
      if (r[1] === 'boards' && owner.get(r[2]) === caller) return err(400, 'cannot_follow_self');
      return { status: 200, body: { following: method === 'PUT', changed: true } };
    }
    if (method === 'POST' && path === '/v1/pins') {
      const denied = needUser();
      if (denied) return denied;
      if (!json || !ID.test(json.boardId || '')) return err(400, 'validation_failed');
      if (typeof json.imageUrl !== 'string' || !URL_RE.test(json.imageUrl)) return err(400, 'validation_failed');
      if (json.link !== undefined && json.link !== null && !URL_RE.test(json.link)) return err(400, 'validation_failed');
      if (json.description && json.description.length > 500) return err(400, 'validation_failed');
      if (json.interests && (json.interests.length > 10 || !json.interests.every((i) => INTEREST.test(i)))) return err(400, 'validation_failed');
      if (!owner.has(json.boardId)) return err(404, 'board_not_found');
      if (owner.get(json.boardId) !== caller) return err(403, 'forbidden');
      return { status: 201, body: pin(String(nextId++), json.boardId, caller) };
    }
    if (method === 'POST' && (r = m(/^\/v1\/pins\/(\d+)\/saves$/))) {
      const denied = needUser();
      if (denied) return denied;
      if (!json || !ID.test(json.boardId || '')) return err(400, 'validation_failed');
      if (owner.get(json.boardId) !== caller) return err(403, 'forbidden');
      return { status: 201, body: pin(String(nextId++), json.boardId, caller, { savedFrom: r[1] }) };
    }
    if ((method === 'PUT' || method === 'DELETE') && (r = m(/^\/v1\/pins\/(\d+)\/like$/))) {
      const denied = needUser();
      if (denied) return denied;
      return { status: 200, body: { pinId: r[1], liked: method === 'PUT', likeCount: method === 'PUT' ? 1 : 0 } };
    }
    // queues: worker or admin
    if (path.startsWith('/v1/queues') || path.startsWith('/v1/jobs')) {
      if (!caller) return err(401, 'unauthorized');
      if (!admins.has(caller)) return err(403, 'forbidden');
    }
    if (method === 'POST' && path === '/v1/queues') {
      if (!json || !/^[a-z0-9][a-z0-9._-]{0,63}$/.test(json.name || '')) return err(400, 'invalid_queue_name');
      if (queues.has(json.name)) return err(409, 'queue_exists', `a queue named '${json.name}' exists`);
      queues.set(json.name, { pending: [], running: new Map(), done: 0 });
      return { status: 201, body: { name: json.name, version: 1, config: {}, partitions: [] } };
    }
    if ((r = m(/^\/v1\/queues\/([^/]+)(\/.*)?$/))) {
      const queue = queues.get(r[1]);
      if (!queue) return err(404, 'queue_not_found');
      const rest = r[2] || '';
      if (method === 'POST' && rest === '/jobs') {
        if (!json || !Array.isArray(json.jobs) || Object.keys(json).length !== 1) return err(400, 'invalid_batch');
        if (json.jobs.length < 1 || json.jobs.length > 1000) return err(400, 'invalid_batch');
        const items = json.jobs.map((job) => {
          const id = String(4n << 36n | BigInt(jobSeq++));
          queue.pending.push({ id, body: job.body, at: new Date().toISOString() });
          return { id, created: true };
        });
        return { status: 201, body: { items, nextCursor: null } };
      }
      if (method === 'POST' && rest === '/dequeue') {
        const max = json && json.max !== undefined ? json.max : 1;
        if (!Number.isInteger(max) || max < 1 || max > 1000) return err(400, 'invalid_max');
        const items = queue.pending.splice(0, max).map((job) => {
          queue.running.set(job.id, '1');
          return { id: job.id, queue: r[1], priority: 2, body: job.body, bodyBase64: null, attempt: 1, attemptsAllowed: 5, leaseToken: '1', leaseExpiresAt: '2026-11-22T10:01:00Z', enqueuedAt: job.at };
        });
        return { status: 200, body: { items, nextCursor: null } };
      }
      if (method === 'GET' && rest === '/stats') {
        return { status: 200, body: { queue: r[1], counts: { PENDING: queue.pending.length, RUNNING: queue.running.size, SUCCEEDED: queue.done, FAILED: 0 }, oldestDueAgeMs: 0, partitions: [] } };
      }
      return err(404, 'not_found');
    }
    if (method === 'POST' && path === '/v1/jobs/ack') {
      if (!json || !Array.isArray(json.acks) || json.acks.length < 1 || json.acks.length > 1000) return err(400, 'invalid_batch');
      const items = [];
      for (const a of json.acks) {
        if (a.outcome !== 'success' && a.outcome !== 'failure') return err(400, 'invalid_outcome');
        let result = 'not_found';
        for (const queue of queues.values()) {
          if (queue.running.has(a.id)) {
            result = queue.running.get(a.id) === a.leaseToken ? 'acked' : 'lease_lost';
            if (result === 'acked') {
              queue.running.delete(a.id);
              queue.done++;
            }
          }
        }
        items.push({ id: a.id, result });
      }
      return { status: 200, body: { items, nextCursor: null } };
    }
    return err(404, 'not_found', `${method} ${path}`);
  };
}
