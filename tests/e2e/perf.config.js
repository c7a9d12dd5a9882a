// The performance benchmark (not a test): `npx playwright test --config perf.config.js`.
// The site is served cross-origin isolated (see serve_isolated.py) so that frame timestamps
// are precise to 5 µs instead of 100 µs with jitter.
const base = require('./playwright.config.js');

const port = Number(process.env.E2E_PORT || 8765);

module.exports = {
  ...base,
  testMatch: /perf\.bench\.js/,
  timeout: 120_000,
  webServer: {
    ...base.webServer,
    command: `python3 serve_isolated.py ${port} ../../target/e2e-site`,
  },
};
