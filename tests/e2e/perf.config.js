// The performance benchmark (not a test): `npx playwright test --config perf.config.js`.
// The site is served cross-origin isolated (see serve_isolated.py) so that frame timestamps
// are precise to 5 µs instead of 100 µs with jitter.
const base = require('./playwright.config.js');
const sites = require('./sites');

module.exports = {
  ...base,
  testMatch: /perf\.bench\.js/,
  timeout: 120_000,
  webServer: {
    ...base.webServer[0],
    command: `python3 serve_isolated.py ${sites.port} "${sites.site}"`,
  },
};
