import { defineConfig, devices } from '@playwright/test';
import { consentGiven, THIRD_PARTY } from './e2e/fixtures.ts';

const PORT = Number(process.env.E2E_PORT ?? 3211);
const baseURL = `http://localhost:${PORT}`;

/** Debian's Chromium: browsers are never downloaded. Flags keep it off the (closed) network. */
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  // One browser at a time: on a 2-core machine two Chromiums and the server starve each other, and a
  // starved page misses its timeouts. Measured with the 115 tests on such a machine, also loaded by
  // other jobs (load 6–11): two workers took 9.3 min, one 10.6 min; a 12% gain, not worth the risk of
  // pages starved into their timeouts.
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }]],
  use: {
    baseURL,
    // The app formats dates and times in the browser's locale (src/web/lib/date-time-format.ts); the
    // specs read them as British English writes them ("Thu 3 Dec, 09:00").
    locale: 'en-GB',
    // A failed test keeps its trace (DOM snapshots of every step) and its screenshot; the trace's
    // screencast is left out: recording it in every test took a third of the suite's CPU (dashboard.spec:
    // 39 s of CPU with it, 29 s without).
    trace: { mode: 'retain-on-failure', screenshots: false, sources: false },
    // Most tests are not about the cookie banner; those that are start from an empty state.
    storageState: consentGiven,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: chromiumArgs,
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } },
  ],
  webServer: {
    command: 'node src/server/main.ts',
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      APP_URL: baseURL,
      PGLITE_DATA_DIR: 'memory://',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      ANALYTICS_SCRIPT_URL: THIRD_PARTY.analytics,
      CHAT_WIDGET_SCRIPT_URL: THIRD_PARTY.chat,
    },
  },
});
