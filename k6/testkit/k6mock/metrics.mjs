import { state } from './state.mjs';

class Metric {
  constructor(name) {
    if (!/^[a-zA-Z_][a-zA-Z0-9_]{0,127}$/.test(name)) throw new Error(`bad metric name ${name}`);
    this.name = name;
    state.metrics[name] = state.metrics[name] || [];
  }

  add(value) {
    if (typeof value !== 'number' && typeof value !== 'boolean') throw new Error(`${this.name}.add(${value})`);
    state.metrics[this.name].push(Number(value));
  }
}

export class Counter extends Metric {}
export class Trend extends Metric {}
export class Rate extends Metric {}
export class Gauge extends Metric {}
