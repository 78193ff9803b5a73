// k6 options from the environment: which scenarios run, at what load, and the thresholds.

/** Seconds in a k6 duration such as '90s', '1m30s', '2h', '500ms'. */
export function seconds(text) {
  const s = String(text).trim();
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  let match;
  while ((match = re.exec(s)) !== null) {
    if (match.index !== consumed) break;
    consumed += match[0].length;
    total += Number(match[1]) * { ms: 0.001, s: 1, m: 60, h: 3600 }[match[2]];
  }
  if (consumed === 0 || consumed !== s.length) throw new Error(`not a duration: '${text}' (e.g. 30s, 1m30s, 2h)`);
  return total;
}

/** A positive number from the environment, or the default. */
export function envNumber(env, name, fallback) {
  if (env[name] === undefined || env[name] === '') return fallback;
  const value = Number(env[name]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0, got '${env[name]}'`);
  return value;
}

/** A duration from the environment (checked), or the default. */
export function envDuration(env, name, fallback) {
  const value = env[name] === undefined || env[name] === '' ? fallback : env[name];
  seconds(value);
  return value;
}

const RAMP_DOWN = '15s';

/**
 * The scenarios, chosen by SCENARIO:
 *  - ramp: ramping-vus from 0 to VUS over RAMP, held for DURATION, down to 0 over 15 s;
 *  - constant: constant-arrival-rate of RATE iterations per second for DURATION, on up to MAX_VUS VUs;
 *  - all (default): ramp, then constant once ramp is over.
 * `defaults` gives the script's {vus, rate, maxVUs, duration, ramp}.
 */
export function scenarios(env, defaults = {}) {
  const which = env.SCENARIO || 'all';
  if (!['ramp', 'constant', 'all'].includes(which)) throw new Error(`SCENARIO must be ramp, constant or all, got '${which}'`);
  const vus = Math.max(1, Math.round(envNumber(env, 'VUS', defaults.vus || 20)));
  const rate = envNumber(env, 'RATE', defaults.rate || 20);
  const maxVUs = Math.max(1, Math.round(envNumber(env, 'MAX_VUS', defaults.maxVUs || Math.max(50, Math.ceil(rate * 10)))));
  const duration = envDuration(env, 'DURATION', defaults.duration || '1m');
  const ramp = envDuration(env, 'RAMP', defaults.ramp || '30s');
  const out = {};
  if (which !== 'constant') {
    out.ramp = {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: ramp, target: vus },
        { duration, target: vus },
        { duration: RAMP_DOWN, target: 0 },
      ],
      gracefulRampDown: '10s',
    };
  }
  if (which !== 'ramp') {
    out.constant = {
      executor: 'constant-arrival-rate',
      rate,
      timeUnit: '1s',
      duration,
      preAllocatedVUs: Math.min(maxVUs, Math.max(1, Math.ceil(rate))),
      maxVUs,
      gracefulStop: '30s',
    };
    if (which === 'all') {
      // after the ramp and its graceful ramp-down
      out.constant.startTime = `${seconds(ramp) + seconds(duration) + seconds(RAMP_DOWN) + 10}s`;
    }
  }
  return out;
}

/**
 * Latency limits in ms, [p95, p99] per request name tag. Set from the published wrk figures (docs/benchmarks.md),
 * measured at saturation on 2 shared cores, with headroom: these scenarios run below saturation.
 */
export const LIMITS = {
  'home-feed-first': [400, 800],
  'home-feed-next': [100, 250],
  'pin-get': [50, 150],
  'board-get': [50, 150],
  'user-get': [50, 150],
  'board-pins': [80, 200],
  'follow-check-user': [25, 60],
  'follow-check-board': [25, 60],
  'follow-which-users': [40, 100],
  'follow-which-boards': [40, 100],
  'follow-user': [150, 400],
  'unfollow-user': [150, 400],
  'follow-board': [150, 400],
  'unfollow-board': [150, 400],
  'pin-create': [250, 600],
  'pin-save': [250, 600],
  'pin-like': [100, 300],
  'pin-unlike': [100, 300],
  'jobs-enqueue': [50, 150],
  'jobs-dequeue': [250, 500],
  'jobs-ack': [50, 150],
};

/**
 * Thresholds: http_req_failed rate < 1% and checks rate > 99% overall; p95/p99 of http_req_duration overall
 * (`overall`, [p95, p99] ms) and per name tag (LIMITS), plus http_req_failed < 1% per name. LATENCY_SCALE
 * multiplies every latency limit (e.g. 2 on a slower machine).
 */
export function thresholds(env, names, overall, extra = {}) {
  const scale = envNumber(env, 'LATENCY_SCALE', 1);
  const ms = (v) => Math.round(v * scale);
  const latency = ([p95, p99]) => [`p(95)<${ms(p95)}`, `p(99)<${ms(p99)}`];
  const out = {
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
    http_req_duration: latency(overall),
  };
  for (const name of names) {
    if (!LIMITS[name]) throw new Error(`no latency limits for '${name}'`);
    out[`http_req_duration{name:${name}}`] = latency(LIMITS[name]);
    out[`http_req_failed{name:${name}}`] = ['rate<0.01'];
  }
  return Object.assign(out, extra);
}

export const SUMMARY_TREND_STATS = ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'max'];
