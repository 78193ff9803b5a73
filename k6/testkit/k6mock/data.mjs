import { state } from './state.mjs';

// Like k6's SharedArray: the function runs once per name, its array must survive JSON, and reads get copies.
export class SharedArray {
  constructor(name, fn) {
    if (!state.shared.has(name)) {
      const made = fn();
      if (!Array.isArray(made)) throw new Error(`SharedArray ${name}: the function must return an array`);
      state.shared.set(name, JSON.parse(JSON.stringify(made)));
    }
    return Object.freeze(JSON.parse(JSON.stringify(state.shared.get(name))));
  }
}
