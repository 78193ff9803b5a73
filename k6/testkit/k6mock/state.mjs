// What the k6 stand-ins record, shared by them and the tests.
export const state = {
  checks: [], // {name, ok, tags}
  requests: [], // {method, url, body, params, status}
  metrics: {}, // name -> [values]
  shared: new Map(), // SharedArray name -> array
  opened: [], // paths given to open()
  slept: 0,
  vu: 1,
  iterationInTest: 0,
  iterationInInstance: 0,
  server: null, // (method, url, body, params) -> {status, body}
};

export function reset() {
  state.checks = [];
  state.requests = [];
  state.metrics = {};
  state.shared = new Map();
  state.opened = [];
  state.slept = 0;
  state.vu = 1;
  state.iterationInTest = 0;
  state.iterationInInstance = 0;
}
