// Shared by the e2e tests and the npm-pack smoke test: Debian's Chromium driven by
// playwright-core, a Vite preview server on 127.0.0.1, and a tiny assertion counter.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser() {
  const profile = mkdtempSync(join(tmpdir(), 'bloomcuckoo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Builds the Vite app at `root` and serves it on 127.0.0.1 (a free port). `warnings` (optional)
 * collects what Vite warns about while building.
 */
export async function buildAndServe(root, warnings = null) {
  const customLogger = warnings && {
    info() {}, clearScreen() {}, hasErrorLogged: () => false, hasWarned: false,
    warn(msg) { warnings.push(msg); }, warnOnce(msg) { warnings.push(msg); }, error(msg) { warnings.push(msg); },
  };
  await build({ root, configFile: join(root, 'vite.config.js'), logLevel: 'warn', ...(customLogger ? { customLogger } : {}) });
  const server = await preview({ root, configFile: join(root, 'vite.config.js'), preview: { host: '127.0.0.1', port: 0 } });
  const url = server.resolvedUrls.local[0];
  return { url, close: () => new Promise((resolve) => server.httpServer.close(resolve)) };
}

/** Collects console errors and page errors of a page. */
export function watchConsole(page) {
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  return errors;
}

/**
 * A fresh page of the app at `url`, of `size` ({ width, height }; null: the context's 1280 x 900),
 * once the page says it is ready. `errors` collects its console and page errors (watchConsole).
 */
export async function openReadyPage(browser, url, size = null) {
  const page = await browser.context.newPage();
  const errors = watchConsole(page);
  try {
    if (size) await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto(url);
    await page.waitForSelector('#status:text("ready")', { timeout: 20000 });
    return { page, errors };
  } catch (err) {
    await page.close();
    throw err;
  }
}

/** `fn(page)` on a fresh ready page (openReadyPage), closed after; a console error fails it. */
export async function onReadyPage(browser, url, size, fn) {
  const { page, errors } = await openReadyPage(browser, url, size);
  try {
    await fn(page);
    assert(errors.length === 0, `console errors: ${errors.join(' | ').slice(0, 500)}`);
  } finally {
    await page.close();
  }
}

/** A minimal test runner: named checks, printed as they go, and a final summary line. */
export function makeRunner() {
  let passed = 0;
  let failed = 0;
  return {
    async check(name, fn) {
      try {
        await fn();
        passed++;
        console.log(`  ok   ${name}`);
      } catch (err) {
        failed++;
        console.log(`  FAIL ${name}: ${err?.stack ?? err}`);
      }
    },
    summary() {
      console.log(`${passed} passed, ${failed} failed`);
      return failed;
    },
  };
}

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}
