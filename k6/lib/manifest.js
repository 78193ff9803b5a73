// The data manifest written by bin/seed ($SEED_DIR/manifest.json): where to find it, checking it, and the
// flat lists the scripts share between VUs.

const DEFAULT_PATH = '../.stack/seed/manifest.json'; // k6's open() resolves this against the script's directory
const ID = /^[0-9]{1,20}$/;

/**
 * The manifest's path: MANIFEST, else SEED_DIR/manifest.json, else ../.stack/seed/manifest.json next to the
 * scripts. k6's open() resolves a relative path against the script's directory, so a relative MANIFEST or
 * SEED_DIR is taken against the shell's directory (PWD) when the environment has it.
 */
export function manifestPath(env = {}) {
  let path;
  if (env.MANIFEST) path = env.MANIFEST;
  else if (env.SEED_DIR) path = env.SEED_DIR.replace(/\/+$/, '') + '/manifest.json';
  else return DEFAULT_PATH;
  if (!path.startsWith('/') && env.PWD) path = env.PWD.replace(/\/+$/, '') + '/' + path.replace(/^\.\//, '');
  return path;
}

function fail(problems) {
  throw new Error('manifest: ' + problems.join('; '));
}

function checkIds(problems, where, list) {
  if (!Array.isArray(list)) {
    problems.push(`${where} is not an array`);
    return;
  }
  const bad = list.findIndex((id) => typeof id !== 'string' || !ID.test(id));
  if (bad >= 0) problems.push(`${where}[${bad}] is not a decimal id string`);
}

function checkAccounts(problems, where, list, withToken) {
  if (!Array.isArray(list)) {
    problems.push(`${where} is not an array`);
    return;
  }
  list.forEach((account, i) => {
    if (!account || typeof account.id !== 'string' || !ID.test(account.id)) problems.push(`${where}[${i}].id is not a decimal id string`);
    else if (withToken && (typeof account.token !== 'string' || account.token.length === 0)) problems.push(`${where}[${i}].token is missing`);
    else if (account.boards !== undefined) checkIds(problems, `${where}[${i}].boards`, account.boards);
  });
}

/**
 * Parses and checks the manifest text. `need` names what a script cannot run without: lists (users,
 * heavyAuthors, lightAuthors, boards, pins, interests) present and non-empty, worker, or userBoards (a user
 * with a board); when it needs tokens, they must not have expired (tokenExpiresAt) by `now`. Absent optional
 * lists become []. Throws an Error naming every problem.
 */
export function parseManifest(text, need = [], now = Date.now()) {
  let m;
  try {
    m = JSON.parse(text);
  } catch (e) {
    fail([`not JSON (${e.message})`]);
  }
  if (!m || typeof m !== 'object' || Array.isArray(m)) fail(['not a JSON object']);
  const problems = [];
  if (m.version !== 1) problems.push(`version is ${JSON.stringify(m.version)}, these scripts read version 1`);
  for (const key of ['users', 'heavyAuthors', 'lightAuthors', 'boards', 'pins', 'interests']) {
    if (m[key] === undefined || m[key] === null) m[key] = [];
  }
  checkAccounts(problems, 'users', m.users, true);
  checkAccounts(problems, 'heavyAuthors', m.heavyAuthors, false);
  checkAccounts(problems, 'lightAuthors', m.lightAuthors, false);
  checkIds(problems, 'boards', m.boards);
  checkIds(problems, 'pins', m.pins);
  if (!Array.isArray(m.interests) || m.interests.some((i) => typeof i !== 'string')) problems.push('interests is not an array of strings');
  if (m.worker !== undefined && m.worker !== null) checkAccounts(problems, 'worker', [m.worker], true);
  for (const key of need) {
    if (key === 'worker') {
      if (!m.worker) problems.push('worker is missing');
    } else if (key === 'userBoards') {
      if (!Array.isArray(m.users) || !m.users.some((u) => u && Array.isArray(u.boards) && u.boards.length > 0)) problems.push('no user in users has a board');
    } else if (!Array.isArray(m[key]) || m[key].length === 0) {
      problems.push(`${key} is empty or missing`);
    }
  }
  const expires = Date.parse(m.tokenExpiresAt);
  if (need.some((k) => ['users', 'userBoards', 'worker'].includes(k)) && !Number.isNaN(expires) && expires < now) {
    problems.push(`its tokens expired at ${m.tokenExpiresAt}: run bin/seed again`);
  }
  if (problems.length > 0) fail(problems);
  return m;
}

/**
 * The flat lists the scripts read (each becomes one k6 SharedArray):
 * users [{id, token, boards}], usersWithBoards (those with at least one board), heavy (heavy authors' ids, most
 * followed first), light (light authors' ids), heavyBoards / lightBoards (their boards' ids), boards, pins,
 * interests (names a pin may carry), worker ([{id, token}] or []).
 */
export function lists(m) {
  const valid = /^[A-Za-z0-9][A-Za-z0-9 _-]{0,39}$/;
  const users = m.users.map((u) => ({ id: u.id, token: u.token, boards: Array.isArray(u.boards) ? u.boards : [] }));
  const heavy = [...m.heavyAuthors].sort((a, b) => (b.followers || 0) - (a.followers || 0));
  return {
    users,
    usersWithBoards: users.filter((u) => u.boards.length > 0),
    heavy: heavy.map((a) => a.id),
    light: m.lightAuthors.map((a) => a.id),
    heavyBoards: heavy.flatMap((a) => a.boards || []),
    lightBoards: m.lightAuthors.flatMap((a) => a.boards || []),
    boards: m.boards,
    pins: m.pins,
    interests: m.interests.map((i) => i.trim()).filter((i) => valid.test(i)),
    worker: m.worker ? [{ id: m.worker.id, token: m.worker.token }] : [],
  };
}

/**
 * Shares the named lists between VUs: `Shared` is k6's SharedArray (passed in so this module needs no k6), `load`
 * returns the manifest text. The text is read and parsed once, by whichever list is built first.
 */
export function sharedLists(Shared, load, names, need = []) {
  let cache;
  const all = () => {
    if (!cache) cache = lists(parseManifest(load(), need));
    return cache;
  };
  const out = {};
  for (const name of names) out[name] = new Shared(name, () => all()[name]);
  return out;
}
