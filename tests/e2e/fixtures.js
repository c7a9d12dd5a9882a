// The `test` every spec uses: Playwright's, plus a fixture that fails the test when any page
// of it throws an uncaught error or logs with console.error. Nothing is allowed: a page that
// works logs no errors. A test that provokes one (thrown or logged) on purpose names it with
// `test.use({ expectedErrors: [/pattern/] })`, and says why there.
const base = require('@playwright/test');

const test = base.test.extend({
  expectedErrors: [[], { option: true }],
  pageErrors: [
    async ({ context, expectedErrors }, use) => {
      const errors = [];
      // Context-wide, so every page of the test is covered, not only the first one.
      context.on('weberror', (e) => {
        const text = `uncaught: ${e.error().message}`;
        if (!expectedErrors.some((x) => x.test(text))) errors.push(text);
      });
      context.on('console', (m) => {
        const text = `console.error: ${m.text()} (${m.location().url})`;
        if (m.type() === 'error' && !expectedErrors.some((e) => e.test(text))) errors.push(text);
      });
      await use(errors);
      base.expect(errors, 'the page threw or logged errors').toEqual([]);
    },
    { auto: true },
  ],
});

module.exports = { test, expect: base.expect };
