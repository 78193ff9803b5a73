import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envNumber, LIMITS, scenarios, seconds, thresholds } from '../lib/options.js';

test('seconds reads k6 durations', () => {
  assert.equal(seconds('30s'), 30);
  assert.equal(seconds('1m30s'), 90);
  assert.equal(seconds('2h'), 7200);
  assert.equal(seconds('500ms'), 0.5);
  assert.equal(seconds('1.5m'), 90);
  for (const bad of ['', '30', 'abc', '1x', 's30', '30s ', '1m 30s']) {
    if (bad === '30s ') continue; // trimmed
    assert.throws(() => seconds(bad), /not a duration/, bad);
  }
});

test('envNumber checks its input', () => {
  assert.equal(envNumber({}, 'RATE', 5), 5);
  assert.equal(envNumber({ RATE: '' }, 'RATE', 5), 5);
  assert.equal(envNumber({ RATE: '12.5' }, 'RATE', 5), 12.5);
  assert.throws(() => envNumber({ RATE: 'fast' }, 'RATE', 5), /RATE must be a number/);
  assert.throws(() => envNumber({ RATE: '-1' }, 'RATE', 5), /RATE must be a number/);
});

test('SCENARIO=all runs the ramp, then the constant rate after it', () => {
  const s = scenarios({}, { vus: 40, rate: 30 });
  assert.deepEqual(Object.keys(s), ['ramp', 'constant']);
  assert.equal(s.ramp.executor, 'ramping-vus');
  assert.deepEqual(s.ramp.stages.map((x) => x.target), [40, 40, 0]);
  assert.equal(s.constant.executor, 'constant-arrival-rate');
  assert.equal(s.constant.rate, 30);
  assert.equal(s.constant.timeUnit, '1s');
  // 30 s ramp + 1 min hold + 15 s down + 10 s
  assert.equal(s.constant.startTime, '115s');
  assert.ok(s.constant.preAllocatedVUs <= s.constant.maxVUs);
});

test('SCENARIO picks one, and the environment sets the load', () => {
  const ramp = scenarios({ SCENARIO: 'ramp', VUS: '7', RAMP: '10s', DURATION: '2m' });
  assert.deepEqual(Object.keys(ramp), ['ramp']);
  assert.deepEqual(ramp.ramp.stages, [{ duration: '10s', target: 7 }, { duration: '2m', target: 7 }, { duration: '15s', target: 0 }]);
  const constant = scenarios({ SCENARIO: 'constant', RATE: '250', MAX_VUS: '100', DURATION: '45s' });
  assert.deepEqual(Object.keys(constant), ['constant']);
  assert.equal(constant.constant.startTime, undefined);
  assert.equal(constant.constant.rate, 250);
  assert.equal(constant.constant.maxVUs, 100);
  assert.equal(constant.constant.preAllocatedVUs, 100);
  assert.equal(constant.constant.duration, '45s');
  assert.throws(() => scenarios({ SCENARIO: 'soak' }), /SCENARIO must be/);
  assert.throws(() => scenarios({ DURATION: 'long' }), /not a duration/);
});

test('thresholds: overall and per name, scaled by LATENCY_SCALE', () => {
  const t = thresholds({}, ['home-feed-first'], [400, 800], { jobs_acked_ok: ['rate>0.99'] });
  assert.deepEqual(t.http_req_failed, ['rate<0.01']);
  assert.deepEqual(t.checks, ['rate>0.99']);
  assert.deepEqual(t.http_req_duration, ['p(95)<400', 'p(99)<800']);
  assert.deepEqual(t['http_req_duration{name:home-feed-first}'], ['p(95)<400', 'p(99)<800']);
  assert.deepEqual(t['http_req_failed{name:home-feed-first}'], ['rate<0.01']);
  assert.deepEqual(t.jobs_acked_ok, ['rate>0.99']);
  const slow = thresholds({ LATENCY_SCALE: '2.5' }, ['pin-get'], [100, 200]);
  assert.deepEqual(slow['http_req_duration{name:pin-get}'], [`p(95)<${LIMITS['pin-get'][0] * 2.5}`, `p(99)<${LIMITS['pin-get'][1] * 2.5}`]);
  assert.throws(() => thresholds({}, ['nope'], [1, 2]), /no latency limits/);
  for (const [p95, p99] of Object.values(LIMITS)) assert.ok(p95 < p99);
});
