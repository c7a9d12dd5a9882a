// A real xAPI Learning Record Store for the specs: ralph's LRS on loopback, started and stopped
// by .ci/lrs.sh (which says how, and which bugs of ralph's file-system backend it works around).
const { execFileSync } = require('child_process');
const path = require('path');
const sites = require('./sites');

const repo = path.resolve(__dirname, '../..');
const script = path.join(repo, '.ci', 'lrs.sh');

/** The origins the test pages are served from: the only ones whose pages may call the LRS
 *  (ralph's CORS setting names exact origins). */
const ORIGINS = [`http://127.0.0.1:${sites.port}`, `http://127.0.0.1:${sites.subpathPort}`];

/** Starts an LRS storing under `dir` (created if missing), callable from pages of `origins`.
 *  Returns `{endpoint, auth, pid}`: statements go to `endpoint + 'statements'`, `auth` is the
 *  Authorization header's value. The first start on a machine installs ralph (about 20 s). */
function start(dir, origins = ORIGINS) {
  const out = execFileSync(script, ['start', dir, ...origins], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'], // stderr: in the thrown error's message when it fails
    timeout: 300_000,
  });
  return JSON.parse(out.trim().split('\n').pop());
}

/** Stops the LRS started for `dir`; nothing happens if none runs. */
function stop(dir) {
  execFileSync(script, ['stop', dir], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The statements the LRS returns for an xAPI query (`{activity, verb, agent, registration,
 *  since, limit, …}`; `agent` as a JSON string), every page of them (its `more` links
 *  followed), in the store's order: ralph's file-system backend gives the oldest first. */
async function statements(lrs, query = {}) {
  const headers = { Authorization: lrs.auth, 'X-Experience-API-Version': '1.0.3' };
  const all = [];
  let url = new URL(`statements?${new URLSearchParams(query)}`, lrs.endpoint);
  for (;;) {
    const res = await fetch(url, { headers });
    if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
    const body = await res.json();
    all.push(...body.statements);
    // ralph's `more` is a path on the LRS's host. It offers one more page, empty, when the
    // last was full: an empty page ends the walk.
    if (!body.more || body.statements.length === 0) return all;
    url = new URL(body.more, lrs.endpoint);
  }
}

module.exports = { start, stop, statements, ORIGINS };
