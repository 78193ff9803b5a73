// A realistic mix: 85% reads, 15% writes. Each VU acts as one sample user for a session of 5-15 actions, then
// takes the next user. Weights (percent of actions; lib/mix.js MIXED_WEIGHTS, the same in wrk/mixed.lua):
//
//   home-feed-first     15   GET /v1/me/home-feed?limit=25
//   home-feed-next      10   the same with the session's nextCursor (a first page when it has none)
//   pin-get             18   GET /v1/pins/{id}
//   board-get            8   GET /v1/boards/{id}
//   board-pins          14   GET /v1/boards/{id}/pins?limit=25
//   user-get            10   GET /v1/users/{id}
//   follow-check-user    6   GET /v1/users/{a}/following/users/{b}
//   follow-which-users   4   GET /v1/me/following/users?ids=<25>
//   pin-create           4   POST /v1/pins on one of the user's boards
//   pin-like             5   PUT /v1/pins/{id}/like
//   pin-unlike           1   DELETE /v1/pins/{id}/like
//   pin-save             1   POST /v1/pins/{id}/saves
//   follow-user          2   PUT /v1/me/following/users/{id}
//   unfollow-user        1   DELETE /v1/me/following/users/{id}
//   follow-board         1   PUT /v1/me/following/boards/{id}
//
//   k6 run k6/mixed.js
//   k6 run -e SCENARIO=constant -e RATE=300 k6/mixed.js
import http from 'k6/http';
import { check, sleep } from 'k6';
import { SharedArray } from 'k6/data';
import exec from 'k6/execution';
import { api } from './lib/api.js';
import { pinBody } from './lib/bodies.js';
import { manifestPath, sharedLists } from './lib/manifest.js';
import { MIXED_WEIGHTS } from './lib/mix.js';
import { envNumber, scenarios, SUMMARY_TREND_STATS, thresholds } from './lib/options.js';
import { summaryOutputs } from './lib/summary.js';
import { nextCursor } from './lib/paging.js';
import { between, intBetween, pick, weighted } from './lib/random.js';
import { targets } from './lib/targets.js';

const PATH = manifestPath(__ENV);
const data = sharedLists(SharedArray, () => open(PATH),
  ['users', 'heavy', 'light', 'heavyBoards', 'lightBoards', 'boards', 'pins', 'interests'], ['users', 'boards', 'pins']);
const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const THINK = envNumber(__ENV, 'THINK', 1); // multiplies the think time (0.2-1 s); 0 for none

export const options = {
  scenarios: scenarios(__ENV, { vus: 50, rate: 100, maxVUs: 300 }),
  thresholds: thresholds(__ENV, Object.keys(MIXED_WEIGHTS), [250, 600]),
  summaryTrendStats: SUMMARY_TREND_STATS,
};

const client = api({ http, check }, BASE_URL);
const action = weighted(MIXED_WEIGHTS);
const pickTarget = targets(data);
let session = null; // this VU's {user, left, cursor}

function feed(user, cursor) {
  const page = client.homeFeed(user, 25, cursor);
  session.cursor = nextCursor(page);
}

export default function () {
  const rnd = Math.random;
  if (!session || session.left <= 0) {
    session = { user: data.users[exec.scenario.iterationInTest % data.users.length], left: intBetween(rnd, 5, 15), cursor: null };
  }
  session.left--;
  const { user } = session;
  const name = action(rnd);
  switch (name) {
    case 'home-feed-first': feed(user, null); break;
    case 'home-feed-next': feed(user, session.cursor); break;
    case 'pin-get': client.getPin(pick(rnd, data.pins)); break;
    case 'board-get': client.getBoard(pick(rnd, data.boards)); break;
    case 'board-pins': client.boardPins(pick(rnd, data.boards), 25); break;
    case 'user-get': {
      const id = pickTarget.user(rnd, undefined);
      if (id) client.getUser(id);
      break;
    }
    case 'follow-check-user': {
      const b = pickTarget.user(rnd, user.id);
      if (b) client.followCheckUser(user.id, b);
      break;
    }
    case 'follow-which-users': {
      const ids = pickTarget.users(rnd, user.id, 25);
      if (ids.length > 0) client.which(user, 'users', ids);
      break;
    }
    case 'pin-create':
      if (user.boards.length > 0) client.createPin(user, pinBody(rnd, pick(rnd, user.boards), data.interests, `${exec.vu.idInTest}-${exec.scenario.iterationInTest}`));
      else client.getPin(pick(rnd, data.pins));
      break;
    case 'pin-like': client.like(user, pick(rnd, data.pins), true); break;
    case 'pin-unlike': client.like(user, pick(rnd, data.pins), false); break;
    case 'pin-save':
      if (user.boards.length > 0) client.savePin(user, pick(rnd, data.pins), pick(rnd, user.boards));
      else client.getPin(pick(rnd, data.pins));
      break;
    case 'follow-user':
    case 'unfollow-user': {
      const b = pickTarget.user(rnd, user.id);
      if (b) client.follow(user, 'users', b, name === 'follow-user');
      break;
    }
    case 'follow-board': {
      const x = pickTarget.board(rnd, user.boards);
      if (x) client.follow(user, 'boards', x, true);
      break;
    }
    default:
      throw new Error(`unknown action ${name}`);
  }
  sleep(THINK * between(rnd, 0.2, 1));
}

/** The summary as text on stdout and as JSON in $SUMMARY_DIR (lib/summary.js). */
export function handleSummary(data) {
  return summaryOutputs(data, 'mixed', __ENV);
}
