// End-to-end tests against the release build (dist/), served on loopback by .ci/e2e-site.sh.
const { defineConfig } = require('@playwright/test');

const port = Number(process.env.E2E_PORT || 8765);

module.exports = defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.js/,
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  outputDir: '../../target/e2e-results',
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-dev-shm-usage',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    // The site root holds the build twice: at / and under a sub-path, as a course site would.
    command: `python3 -m http.server ${port} --bind 127.0.0.1 --directory ../../target/e2e-site`,
    url: `http://127.0.0.1:${port}/index.html`,
    reuseExistingServer: false,
    // python's http.server logs every request on stderr: noise in the test output. A server
    // that fails to start still shows as the webServer's timeout.
    stdout: 'ignore',
    stderr: 'ignore',
    timeout: 30_000,
  },
});
