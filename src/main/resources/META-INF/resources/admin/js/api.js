// Calls to the Pinion API with the session's bearer token, and the session itself (sessionStorage: it ends with
// the tab). Every failure becomes an ApiError carrying the API's error shape {error, message}.

const TOKEN = 'pinion.admin.token';
const USERNAME = 'pinion.admin.username';
const REFUSED = 'pinion.admin.refused';

/** A failed call: the HTTP status (0 when the service did not answer), the API's error code and message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const session = {
  get token() {
    return sessionStorage.getItem(TOKEN);
  },
  get username() {
    return sessionStorage.getItem(USERNAME);
  },
  save(token, username) {
    sessionStorage.setItem(TOKEN, token);
    sessionStorage.setItem(USERNAME, username);
  },
  clear() {
    sessionStorage.removeItem(TOKEN);
    sessionStorage.removeItem(USERNAME);
    sessionStorage.removeItem(REFUSED);
  },
  /**
   * Whether the token names the admin role and no admin API refused it (a role revoked after the token was
   * issued). Only for what the page shows: the admin APIs check the role themselves.
   */
  isAdmin() {
    if (sessionStorage.getItem(REFUSED) === this.token) return false;
    try {
      const payload = this.token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
      return (JSON.parse(atob(payload)).groups || []).includes('admin');
    } catch {
      return false;
    }
  },
};

/**
 * Calls the API and answers the parsed JSON body (null for 204). On a call made with the token, a 401 also fires
 * 'pinion:unauthorized' on window and a 403 'forbidden' fires 'pinion:forbidden', so the page can log out or say
 * why it shows nothing.
 */
export async function call(path, { method = 'GET', body } = {}) {
  const token = session.token;
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'unreachable', 'the service did not answer');
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    if (token && response.status === 401) {
      window.dispatchEvent(new Event('pinion:unauthorized'));
    } else if (token && response.status === 403 && data?.error === 'forbidden') {
      sessionStorage.setItem(REFUSED, token);
      window.dispatchEvent(new Event('pinion:forbidden'));
    }
    throw new ApiError(response.status, data?.error ?? `http_${response.status}`,
      data?.message ?? `request failed with status ${response.status}`);
  }
  return data;
}

/** The API paths the dashboard reads and writes. */
export const api = {
  login: (username, password) => call('/v1/sessions', { method: 'POST', body: { username, password } }),
  overview: () => call('/v1/admin/overview'),
  clusterOverview: () => call('/v1/admin/overview/cluster'),
  backends: () => call('/v1/admin/backends'),
  standbyLag: () => call('/v1/admin/feed/standby-lag'),
  brokers: () => call('/v1/admin/brokers'),
  queues: () => call('/v1/queues'),
  queue: (name) => call(`/v1/queues/${encodeURIComponent(name)}`),
  queueStats: (name) => call(`/v1/queues/${encodeURIComponent(name)}/stats`),
  failedJobs: (name) => call(`/v1/queues/${encodeURIComponent(name)}/jobs?state=FAILED&limit=25`),
  retryJob: (id) => call(`/v1/jobs/${encodeURIComponent(id)}/retry`, { method: 'POST' }),
  deleteJob: (id) => call(`/v1/jobs/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  entityFunnel: (kind, id, from, to, step) => call(`/v1/admin/feed/funnel?${new URLSearchParams({ [kind]: id, from, to, step })}`),
  reach: (pin) => call(`/v1/me/pins/${encodeURIComponent(pin)}/reach`),
  explain: (user, pin) =>
    call(`/v1/admin/feed/explain?user=${encodeURIComponent(user)}&pin=${encodeURIComponent(pin)}`),
};
