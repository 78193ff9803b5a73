// Action weights of the scenarios (percent of iterations). Each name is also the request's name tag.

/** follow.js: 80% reads (point and batch checks), 20% follows and unfollows. */
export const FOLLOW_WEIGHTS = {
  'follow-check-user': 30,
  'follow-check-board': 15,
  'follow-which-users': 20,
  'follow-which-boards': 15,
  'follow-user': 6,
  'unfollow-user': 4,
  'follow-board': 6,
  'unfollow-board': 4,
};

/** write-pins.js: every iteration is one write. */
export const WRITE_WEIGHTS = {
  'pin-create': 35,
  'pin-save': 15,
  'pin-like': 35,
  'pin-unlike': 15,
};

/** mixed.js: 85% reads, 15% writes. */
export const MIXED_WEIGHTS = {
  'home-feed-first': 15,
  'home-feed-next': 10,
  'pin-get': 18,
  'board-get': 8,
  'board-pins': 14,
  'user-get': 10,
  'follow-check-user': 6,
  'follow-which-users': 4,
  'pin-create': 4,
  'pin-like': 5,
  'pin-unlike': 1,
  'pin-save': 1,
  'follow-user': 2,
  'unfollow-user': 1,
  'follow-board': 1,
};

/** Names that only read. */
export const READS = new Set([
  'home-feed-first', 'home-feed-next', 'pin-get', 'board-get', 'board-pins', 'user-get',
  'follow-check-user', 'follow-check-board', 'follow-which-users', 'follow-which-boards',
]);

/** Percent of a weight table that reads. */
export function readShare(weights) {
  let reads = 0;
  let all = 0;
  for (const [name, weight] of Object.entries(weights)) {
    all += weight;
    if (READS.has(name)) reads += weight;
  }
  return all === 0 ? 0 : (100 * reads) / all;
}
