// Whom and what to follow or check: skewed toward heavy authors (the most followed first, Zipf over their rank),
// never the caller or the caller's own boards (both answer 400 cannot_follow_self).
import { distinct, pick, weighted, zipf } from './random.js';

/** Shares of the target pools; a pool that is empty is skipped. */
export const USER_POOLS = { heavy: 50, light: 20, users: 30 };
export const BOARD_POOLS = { heavyBoards: 50, lightBoards: 20, boards: 30 };

function pools(lists, shares) {
  const weights = {};
  for (const [name, share] of Object.entries(shares)) weights[name] = lists[name] && lists[name].length > 0 ? share : 0;
  return Object.values(weights).some((w) => w > 0) ? weighted(weights) : null;
}

/**
 * Target pickers over the manifest's lists ({heavy, light, users, heavyBoards, lightBoards, boards}; users are
 * {id, ...} objects, the rest ids; any list may be a k6 SharedArray).
 */
export function targets(lists) {
  const userPool = pools(lists, USER_POOLS);
  const boardPool = pools(lists, BOARD_POOLS);
  const heavyRank = lists.heavy && lists.heavy.length > 0 ? zipf(lists.heavy.length) : null;

  function anyUser(rnd) {
    if (!userPool) return undefined;
    const pool = userPool(rnd);
    if (pool === 'heavy') return lists.heavy[heavyRank(rnd)];
    if (pool === 'users') return pick(rnd, lists.users).id;
    return pick(rnd, lists[pool]);
  }

  function anyBoard(rnd) {
    return boardPool ? pick(rnd, lists[boardPool(rnd)]) : undefined;
  }

  return {
    /** A user id other than selfId; undefined when none was found in 10 draws. */
    user(rnd, selfId) {
      for (let i = 0; i < 10; i++) {
        const id = anyUser(rnd);
        if (id !== undefined && id !== selfId) return id;
      }
      return undefined;
    },
    /** A board id not among ownBoards; undefined when none was found in 10 draws. */
    board(rnd, ownBoards = []) {
      for (let i = 0; i < 10; i++) {
        const id = anyBoard(rnd);
        if (id !== undefined && !ownBoards.includes(id)) return id;
      }
      return undefined;
    },
    /** Up to `count` distinct user ids, none of them selfId. */
    users(rnd, selfId, count) {
      return distinct(() => this.user(rnd, selfId), count);
    },
    /** Up to `count` distinct board ids, none of them among ownBoards. */
    boards(rnd, ownBoards, count) {
      return distinct(() => this.board(rnd, ownBoards), count);
    },
  };
}
