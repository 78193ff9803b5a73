import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FOLLOW_WEIGHTS, MIXED_WEIGHTS, READS, WRITE_WEIGHTS, readShare } from '../lib/mix.js';
import { LIMITS } from '../lib/options.js';

test('weights are percentages with the documented read shares', () => {
  for (const w of [FOLLOW_WEIGHTS, WRITE_WEIGHTS, MIXED_WEIGHTS]) {
    assert.equal(Object.values(w).reduce((a, b) => a + b, 0), 100);
    for (const name of Object.keys(w)) assert.ok(LIMITS[name], `no latency limits for ${name}`);
  }
  assert.equal(readShare(FOLLOW_WEIGHTS), 80);
  assert.equal(readShare(WRITE_WEIGHTS), 0);
  assert.equal(readShare(MIXED_WEIGHTS), 85);
  assert.ok(READS.has('home-feed-next'));
});

test('mixed.js documents the weights it runs', () => {
  const text = readFileSync(new URL('../mixed.js', import.meta.url), 'utf8');
  const documented = {};
  for (const m of text.matchAll(/^\/\/ {3}([a-z-]+) +(\d+) {3}/gm)) documented[m[1]] = Number(m[2]);
  assert.deepEqual(documented, MIXED_WEIGHTS);
});

test('the wrk scripts run the same weights', () => {
  const weightsOf = (file) => {
    const text = readFileSync(new URL(`../wrk/${file}`, import.meta.url), 'utf8');
    const block = text.match(/^local WEIGHTS = \{([\s\S]*?)^\}/m);
    assert.ok(block, `no WEIGHTS table in ${file}`);
    const out = {};
    for (const m of block[1].matchAll(/\{ *"([a-z-]+)", *(\d+) *\}/g)) out[m[1]] = Number(m[2]);
    return out;
  };
  assert.deepEqual(weightsOf('mixed.lua'), MIXED_WEIGHTS);
  assert.deepEqual(weightsOf('follow.lua'), FOLLOW_WEIGHTS);
  assert.deepEqual(weightsOf('write-pins.lua'), WRITE_WEIGHTS);
});
