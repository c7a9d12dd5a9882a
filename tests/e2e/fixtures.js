// The `test` every spec uses: Playwright's, plus a fixture that fails the test when any page
// of it throws an uncaught error or logs with console.error. Nothing is allowed: a page that
// works logs no errors, and an expected one would have to be justified here, in a comment.
const base = require('@playwright/test');

const test = base.test.extend({
  pageErrors: [
    async ({ context }, use) => {
      const errors = [];
      // Context-wide, so every page of the test is covered, not only the first one.
      context.on('weberror', (e) => errors.push(`uncaught: ${e.error().message}`));
      context.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console.error: ${m.text()} (${m.location().url})`);
      });
      await use(errors);
      base.expect(errors, 'the page threw or logged errors').toEqual([]);
    },
    { auto: true },
  ],
});

module.exports = { test, expect: base.expect };
