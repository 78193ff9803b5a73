// The follower graph: point checks (does a follow b / board x), batch checks (which of these <= 100 users or
// boards do I follow) and follows / unfollows of users and boards, 80% reads (weights in lib/mix.js).
// Targets lean toward heavy authors (Zipf over the most followed), never the caller nor the caller's boards.
//
//   k6 run k6/follow.js
//   k6 run -e SCENARIO=constant -e RATE=200 k6/follow.js
import http from 'k6/http';
import { check, sleep } from 'k6';
import { SharedArray } from 'k6/data';
import exec from 'k6/execution';
import { api } from './lib/api.js';
import { manifestPath, sharedLists } from './lib/manifest.js';
import { FOLLOW_WEIGHTS } from './lib/mix.js';
import { envNumber, scenarios, SUMMARY_TREND_STATS, thresholds } from './lib/options.js';
import { summaryOutputs } from './lib/summary.js';
import { between, intBetween, weighted } from './lib/random.js';
import { targets } from './lib/targets.js';

const PATH = manifestPath(__ENV);
const data = sharedLists(SharedArray, () => open(PATH),
  ['users', 'heavy', 'light', 'heavyBoards', 'lightBoards', 'boards'], ['users']);
const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const BATCH = Math.max(1, Math.min(100, Math.floor(envNumber(__ENV, 'BATCH_IDS', 100)))); // largest batch check (the API takes 100)
const THINK = envNumber(__ENV, 'THINK', 1); // multiplies the think time (0.1-0.5 s); 0 for none

export const options = {
  scenarios: scenarios(__ENV, { vus: 50, rate: 200, maxVUs: 300 }),
  thresholds: thresholds(__ENV, Object.keys(FOLLOW_WEIGHTS), [100, 300]),
  summaryTrendStats: SUMMARY_TREND_STATS,
};

const client = api({ http, check }, BASE_URL);
const action = weighted(FOLLOW_WEIGHTS);
const pickTarget = targets(data);

export default function () {
  const rnd = Math.random;
  const user = data.users[exec.scenario.iterationInTest % data.users.length];
  const name = action(rnd);
  switch (name) {
    case 'follow-check-user': {
      const b = pickTarget.user(rnd, user.id);
      if (b) client.followCheckUser(user.id, b);
      break;
    }
    case 'follow-check-board': {
      const x = pickTarget.board(rnd, user.boards);
      if (x) client.followCheckBoard(user.id, x);
      break;
    }
    case 'follow-which-users': {
      const ids = pickTarget.users(rnd, user.id, intBetween(rnd, Math.min(25, BATCH), BATCH));
      if (ids.length > 0) client.which(user, 'users', ids);
      break;
    }
    case 'follow-which-boards': {
      const ids = pickTarget.boards(rnd, user.boards, intBetween(rnd, Math.min(25, BATCH), BATCH));
      if (ids.length > 0) client.which(user, 'boards', ids);
      break;
    }
    case 'follow-user':
    case 'unfollow-user': {
      const b = pickTarget.user(rnd, user.id);
      if (b) client.follow(user, 'users', b, name === 'follow-user');
      break;
    }
    case 'follow-board':
    case 'unfollow-board': {
      const x = pickTarget.board(rnd, user.boards);
      if (x) client.follow(user, 'boards', x, name === 'follow-board');
      break;
    }
    default:
      throw new Error(`unknown action ${name}`);
  }
  sleep(THINK * between(rnd, 0.1, 0.5));
}

/** The summary as text on stdout and as JSON in $SUMMARY_DIR (lib/summary.js). */
export function handleSummary(data) {
  return summaryOutputs(data, 'follow', __ENV);
}
