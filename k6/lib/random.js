// Random choices. Every function takes `rnd`, a function returning a number in [0, 1): the scripts pass
// Math.random, the tests a seeded generator.

/** A seeded generator (mulberry32): the same seed gives the same sequence. */
export function seeded(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max], both included. */
export function intBetween(rnd, min, max) {
  return min + Math.floor(rnd() * (max - min + 1));
}

/** A number in [min, max). */
export function between(rnd, min, max) {
  return min + rnd() * (max - min);
}

/** One element of an array (or array-like, such as a k6 SharedArray); undefined when it is empty. */
export function pick(rnd, list) {
  return list.length === 0 ? undefined : list[Math.floor(rnd() * list.length)];
}

/**
 * A picker over named weights, e.g. {read: 80, write: 20} or [['read', 80], ['write', 20]]: returns
 * function(rnd) -> name, each name with probability weight / sum. Zero weights are never picked.
 */
export function weighted(weights) {
  const entries = Array.isArray(weights) ? weights : Object.entries(weights);
  const names = [];
  const bounds = [];
  let total = 0;
  for (const [name, weight] of entries) {
    if (typeof weight !== 'number' || !(weight >= 0) || !Number.isFinite(weight)) {
      throw new Error(`weight of '${name}' must be a number >= 0, got ${weight}`);
    }
    if (weight === 0) continue;
    total += weight;
    names.push(name);
    bounds.push(total);
  }
  if (total === 0) throw new Error('at least one weight must be above 0');
  const picker = (rnd) => {
    const x = rnd() * total;
    let lo = 0;
    let hi = bounds.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (x < bounds[mid]) hi = mid;
      else lo = mid + 1;
    }
    return names[lo];
  };
  picker.total = total;
  picker.names = names;
  return picker;
}

/**
 * Zipf over ranks: returns function(rnd) -> index in [0, n), index i with probability proportional to
 * 1 / (i + 1)^s. Rank 0 is the most popular.
 */
export function zipf(n, s = 1) {
  if (!(n >= 1)) throw new Error('zipf needs n >= 1');
  const cdf = new Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += 1 / Math.pow(i + 1, s);
    cdf[i] = sum;
  }
  return (rnd) => {
    const x = rnd() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (x < cdf[mid]) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

/**
 * Up to `count` distinct values from next(), which may return undefined or repeat; gives up after
 * count * 4 + 20 draws, so a small pool yields fewer values instead of looping.
 */
export function distinct(next, count) {
  const seen = new Set();
  for (let tries = count * 4 + 20; tries > 0 && seen.size < count; tries--) {
    const value = next();
    if (value !== undefined && value !== null) seen.add(value);
  }
  return [...seen];
}
