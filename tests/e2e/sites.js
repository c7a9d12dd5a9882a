// Where the end-to-end tests find what .ci/test.sh prepared, shared by the configs and specs.
// Every path can be moved with an environment variable (relative to the repository root, or
// absolute), so two checkouts sharing one target directory do not overwrite each other.
const path = require('path');

const repo = path.resolve(__dirname, '../..');
const at = (name, fallback) => path.resolve(repo, process.env[name] || fallback);

const port = Number(process.env.E2E_PORT || 8765);
const subpathPort = Number(process.env.E2E_SUBPATH_PORT || port + 1);

/** The sub-path the second server serves the build under, as a course site would. */
const SUB_PATH = '/course/abs-playground/';

module.exports = {
  port,
  subpathPort,
  SUB_PATH,
  /** The build at the root of the main server. */
  site: at('E2E_SITE', 'target/e2e-site'),
  /** The sub-path server's root: nothing in it but SUB_PATH, so a root-relative URL 404s. */
  subpathSite: at('E2E_SUBPATH_SITE', 'target/e2e-subpath'),
  subpathUrl: `http://127.0.0.1:${subpathPort}${SUB_PATH}`,
  screenshots: at('E2E_SCREENSHOTS', 'target/screenshots'),
  results: at('E2E_RESULTS', 'target/e2e-results'),
  /** The release `abs-sim`, the engine's own account of a run (built by .ci/test.sh). */
  absSim: process.env.ABS_SIM
    ? path.resolve(repo, process.env.ABS_SIM)
    : path.join(path.resolve(repo, process.env.CARGO_TARGET_DIR || 'target'), 'release', 'abs-sim'),
};
