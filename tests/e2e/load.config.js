// The load benchmark (not a test): `npx playwright test --config load.config.js`. Served as
// the page is in production (plain static files), from the release build in target/e2e-site.
const base = require('./playwright.config.js');

module.exports = {
  ...base,
  testMatch: /load\.bench\.js/,
  timeout: 600_000,
  workers: 1,
};
