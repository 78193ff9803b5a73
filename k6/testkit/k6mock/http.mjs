import { state } from './state.mjs';

function request(method, url, body, params = {}) {
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Error(`not an absolute URL: ${url}`);
  if (body !== null && body !== undefined && typeof body !== 'string') throw new Error('body must be a string or null');
  const answer = state.server(method, url, body, params);
  const res = {
    status: answer.status,
    body: answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body),
    timings: { duration: 1 },
    request: { method, url, body },
    json() { return JSON.parse(this.body); },
  };
  state.requests.push({ method, url, body, params, status: res.status });
  return res;
}

const http = {
  request,
  get: (url, params) => request('GET', url, null, params),
  post: (url, body, params) => request('POST', url, body, params),
  put: (url, body, params) => request('PUT', url, body, params),
  del: (url, body, params) => request('DELETE', url, body, params),
  expectedStatuses: (...codes) => ({ expectedStatuses: codes }),
};

export default http;
