// End-to-end tests against the release build (dist/), served on loopback as .ci/test.sh
// prepares it (sites.js says where).
const { defineConfig } = require('@playwright/test');
const sites = require('./sites');

// python's http.server logs every request on stderr: noise in the test output. A server that
// fails to start still shows as the webServer's timeout.
const server = (port, dir, probe) => ({
  command: `python3 -m http.server ${port} --bind 127.0.0.1 --directory "${dir}"`,
  url: `http://127.0.0.1:${port}${probe}`,
  reuseExistingServer: false,
  stdout: 'ignore',
  stderr: 'ignore',
  timeout: 30_000,
});

module.exports = defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.js/,
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  outputDir: sites.results,
  use: {
    baseURL: `http://127.0.0.1:${sites.port}/`,
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
  webServer: [
    // The build at the root.
    server(sites.port, sites.site, '/index.html'),
    // The same build under a sub-path, on a server whose root holds nothing else: an asset
    // URL that ignores the sub-path finds nothing there.
    server(sites.subpathPort, sites.subpathSite, `${sites.SUB_PATH}index.html`),
  ],
});
