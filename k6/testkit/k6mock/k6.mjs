import { state } from './state.mjs';

export function check(value, sets, tags) {
  let all = true;
  for (const [name, fn] of Object.entries(sets)) {
    let ok;
    try {
      ok = typeof fn === 'function' ? Boolean(fn(value)) : Boolean(fn);
    } catch (e) {
      ok = false;
    }
    state.checks.push({ name, ok, tags });
    all = all && ok;
  }
  return all;
}

export function sleep(seconds) {
  if (typeof seconds !== 'number' || Number.isNaN(seconds) || seconds < 0) throw new Error(`sleep(${seconds})`);
  state.slept += seconds;
}

export function fail(message) {
  throw new Error(message);
}

export default { check, sleep, fail };
