// The performance benchmark (not a test): `npx playwright test --config perf.config.js`.
const base = require('./playwright.config.js');

module.exports = {
  ...base,
  testMatch: /perf\.bench\.js/,
  timeout: 120_000,
};
