// Playwright Test's configuration of the flows e2e-mcp exported: each dev server as a
// webServer (PORT, else 3100), headless Chromium (the one at CHROMIUM, else Playwright's).
import { defineConfig } from '@playwright/test';

const port = Number(process.env.PORT) || 3100;

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  expect: { timeout: 5_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    headless: true,
    actionTimeout: 5_000,
    navigationTimeout: 30_000,
    launchOptions: { executablePath: process.env.CHROMIUM || undefined },
  },
  webServer: {
    command: 'python3 app.py $PORT',
    cwd: '../../../bench/runnerapp',
    url: `http://localhost:${port}` + '/',
    env: { PORT: String(port) },
    reuseExistingServer: !process.env.CI,
  },
});
