// Pin writes as sample users: create a pin on one of the user's boards, save a pin to one of them, like and
// unlike pins (weights in lib/mix.js). Every write starts fan-out jobs in the service (the pin into its
// followers' feed pools, related pins after likes and saves), which this load drives too.
//
//   k6 run k6/write-pins.js
//   k6 run -e SCENARIO=constant -e RATE=50 k6/write-pins.js
import http from 'k6/http';
import { check, sleep } from 'k6';
import { SharedArray } from 'k6/data';
import exec from 'k6/execution';
import { api } from './lib/api.js';
import { pinBody } from './lib/bodies.js';
import { manifestPath, sharedLists } from './lib/manifest.js';
import { WRITE_WEIGHTS } from './lib/mix.js';
import { envNumber, scenarios, SUMMARY_TREND_STATS, thresholds } from './lib/options.js';
import { summaryOutputs } from './lib/summary.js';
import { between, pick, weighted } from './lib/random.js';

const PATH = manifestPath(__ENV);
const data = sharedLists(SharedArray, () => open(PATH), ['usersWithBoards', 'pins', 'interests'], ['userBoards', 'pins']);
const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const THINK = envNumber(__ENV, 'THINK', 1); // multiplies the think time (0.2-1 s); 0 for none

export const options = {
  scenarios: scenarios(__ENV, { vus: 20, rate: 50, maxVUs: 200 }),
  thresholds: thresholds(__ENV, Object.keys(WRITE_WEIGHTS), [250, 600]),
  summaryTrendStats: SUMMARY_TREND_STATS,
};

const client = api({ http, check }, BASE_URL);
const action = weighted(WRITE_WEIGHTS);
const liked = []; // [{user, pin}] this VU liked, unliked later by the same user

export default function () {
  const rnd = Math.random;
  const users = data.usersWithBoards;
  const n = exec.scenario.iterationInTest;
  const user = users[n % users.length];
  const board = pick(rnd, user.boards);
  switch (action(rnd)) {
    case 'pin-create':
      client.createPin(user, pinBody(rnd, board, data.interests, `${exec.vu.idInTest}-${n}`));
      break;
    case 'pin-save':
      client.savePin(user, pick(rnd, data.pins), board);
      break;
    case 'pin-like': {
      const pin = pick(rnd, data.pins);
      if (client.like(user, pin, true) && liked.length < 1000) liked.push({ user, pin });
      break;
    }
    case 'pin-unlike': {
      const done = liked.length > 0 ? liked.splice(Math.floor(rnd() * liked.length), 1)[0] : { user, pin: pick(rnd, data.pins) };
      client.like(done.user, done.pin, false);
      break;
    }
  }
  sleep(THINK * between(rnd, 0.2, 1));
}

/** The summary as text on stdout and as JSON in $SUMMARY_DIR (lib/summary.js). */
export function handleSummary(data) {
  return summaryOutputs(data, 'write-pins', __ENV);
}
