// The end-of-test summary: the text names every metric and the thresholds' verdict; the JSON file holds k6's data
// unchanged, in SUMMARY_DIR, and none is written with SUMMARY_DIR=none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summaryOutputs, textSummary } from '../lib/summary.js';

const data = {
  metrics: {
    http_req_duration: {
      type: 'trend',
      values: { avg: 12.5, med: 9, 'p(95)': 30.25, 'p(99)': 44.5, max: 120 },
      thresholds: { 'p(99)<400': { ok: true } },
    },
    'http_req_duration{name:home-feed-next}': {
      type: 'trend',
      values: { avg: 20, med: 15, 'p(95)': 60, 'p(99)': 900, max: 1200 },
      thresholds: { 'p(99)<800': { ok: false } },
    },
    http_req_failed: { type: 'rate', values: { rate: 0.001, passes: 1, fails: 999 } },
    iterations: { type: 'counter', values: { count: 1200, rate: 20 } },
    vus: { type: 'gauge', values: { value: 3, min: 1, max: 7 } },
  },
};

test('the text names each metric with its figures and the thresholds it crossed', () => {
  const text = textSummary(data, 'read-feed');
  assert.match(text, /^read-feed: summary/);
  assert.match(text, /http_req_duration: avg=12\.50 med=9 p\(95\)=30\.25 p\(99\)=44\.50 max=120 {2}\[ok p\(99\)<400\]/);
  assert.match(text, /http_req_duration\{name:home-feed-next\}: .*\[CROSSED p\(99\)<800\]/);
  assert.match(text, /http_req_failed: 0\.10% \(1 of 1000\)/);
  assert.match(text, /iterations: 1200 \(20\/s\)/);
  assert.match(text, /vus: 3 \(min 1, max 7\)/);
  assert.match(text, /thresholds: 1 crossed\n$/);
  assert.match(textSummary({ metrics: { iterations: data.metrics.iterations } }, 'jobs'), /thresholds: all passed/);
});

test('the JSON is k6\'s data unchanged, in SUMMARY_DIR, or not written at all', () => {
  const out = summaryOutputs(data, 'jobs', { SUMMARY_DIR: '/tmp/results/' });
  assert.deepEqual(Object.keys(out).sort(), ['/tmp/results/jobs-summary.json', 'stdout']);
  assert.deepEqual(JSON.parse(out['/tmp/results/jobs-summary.json']), data);
  assert.deepEqual(Object.keys(summaryOutputs(data, 'jobs', {})).sort(), ['./jobs-summary.json', 'stdout']);
  assert.deepEqual(Object.keys(summaryOutputs(data, 'jobs', { SUMMARY_DIR: 'none' })), ['stdout']);
});
