// Request bodies, as plain objects (the scripts send JSON.stringify of them).
import { intBetween, pick } from './random.js';

const WORDS = ['linen', 'sourdough', 'cabin', 'watercolor', 'harbor', 'ceramic', 'trail', 'garden', 'loft', 'citrus'];

/**
 * POST /v1/pins: a pin on `boardId` with a short description, http(s) link and image, and 0-3 interests taken
 * from `interests` (names already valid for a pin: 1-40 letters, digits, spaces, _ or -). `n` makes URLs unique.
 */
export function pinBody(rnd, boardId, interests, n) {
  const tags = [];
  const count = interests.length === 0 ? 0 : intBetween(rnd, 0, Math.min(3, interests.length));
  for (let i = 0; i < count; i++) {
    const name = pick(rnd, interests);
    if (!tags.includes(name)) tags.push(name);
  }
  return {
    boardId,
    description: `${pick(rnd, WORDS)} ${pick(rnd, WORDS)} ${n}`,
    link: `https://example.com/k6/${n}`,
    imageUrl: `https://img.example.com/k6/${n}.jpg`,
    interests: tags,
  };
}

/** POST /v1/pins/{id}/saves. */
export function saveBody(boardId) {
  return { boardId };
}

/** POST /v1/queues: a queue for the load test; finished jobs are kept an hour so the tables stay small. */
export function queueBody(name, partitions = 4) {
  return { name, partitions, leaseMs: 60000, retentionMs: 3600000 };
}

/** POST /v1/queues/{name}/jobs: always the batch form {jobs: [...]}, which answers {items: [{id, created}]}. */
export function enqueueBody(count, prefix) {
  const jobs = [];
  for (let i = 0; i < count; i++) jobs.push({ body: `${prefix}-${i}` });
  return { jobs };
}

/** POST /v1/queues/{name}/dequeue. */
export function dequeueBody(max, waitMs) {
  return { max, waitMs };
}

/** POST /v1/jobs/ack: every leased job ({id, leaseToken} as dequeue hands them out) with one outcome. */
export function ackBody(leased, outcome = 'success') {
  return { acks: leased.map((job) => ({ id: job.id, leaseToken: job.leaseToken, outcome })) };
}
