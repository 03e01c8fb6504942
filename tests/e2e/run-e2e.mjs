// The playground in real headless Chromium: builds demo/, serves it on 127.0.0.1, walks through
// every section, asserts what the DOM shows (cross-checked against the library in Node where it
// can be), fails on console errors, and saves screenshots to tests/e2e/screenshots/ (git-ignored).
// Covers every filter class the library exports at the time it runs.
// One module per page section (hash, figures, fill, builder, experiment, space, blacklist, transfer, worker,
// verdicts, phone, robust); this file builds and serves the page, opens it, and runs them in order
// (later sections use what earlier ones built: the blacklist's filter, the exported files).
import { fileURLToPath } from 'node:url';
import { assert, buildAndServe, launchBrowser, makeRunner, watchConsole } from './browser.mjs';
import { KINDS, lib, pageHelpers, shots } from './helpers.mjs';
import * as hash from './hash.mjs';
import * as figures from './figures.mjs';
import * as fill from './fill.mjs';
import * as builder from './builder.mjs';
import * as experiment from './experiment.mjs';
import * as space from './space.mjs';
import * as blacklist from './blacklist.mjs';
import * as transfer from './transfer.mjs';
import * as worker from './worker.mjs';
import * as verdicts from './verdicts.mjs';
import * as phone from './phone.mjs';
import * as opening from './opening.mjs';
import * as derive from './derive.mjs';
import * as access from './access.mjs';
import * as serve from './serve.mjs';
import * as scrub from './scrub.mjs';
import { checkRobustness } from './robust.mjs';

const { init } = lib;
const demoRoot = fileURLToPath(new URL('../../demo/', import.meta.url));

const started = Date.now();

await init();
const runner = makeRunner();
// E2E_TIMING=1: every check also prints how long it took
// E2E_ONLY=<regex>: run only the checks whose names match (for checks that set up their own
// state; most of the walk-through depends on the checks before it)
const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : null;
const t = {
  check: (name, fn) => (only && !only.test(name) ? undefined : runner.check(name, async () => {
    const t0 = Date.now();
    try { await fn(); } finally { if (process.env.E2E_TIMING) console.log(`       ${name}: ${Date.now() - t0} ms`); }
  })),
  summary: () => runner.summary(),
};
const server = await buildAndServe(demoRoot);
const browser = await launchBrowser();
console.log(`  (filter classes in this build: ${KINDS.join(', ')}; built and served in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
try {
  const page = await browser.context.newPage();
  const errors = watchConsole(page);
  await page.goto(server.url);
  await page.waitForSelector('#status:text("ready")', { timeout: 20000 });
  const c = { ...pageHelpers(page), errors, browser, server };
  const { shot, visibleError } = c;
  for (const section of [hash, figures, fill, builder, experiment, space, blacklist, transfer, worker]) await section.run(t, c);
  await blacklist.runFailure(t, c);
  await verdicts.run(t, c);
  await phone.run(t, c);
  for (const section of [opening, derive, access, scrub, serve]) await section.run(t, c);
  await checkRobustness(t, { browser, url: server.url, shots });

  await t.check('no error banner, no console errors', async () => {
    await shot('page');
    assert(await visibleError('global-error') === '', `banner: ${await visibleError('global-error')}`);
    assert(errors.length === 0, `console errors: ${errors.join(' | ')}`);
  });
} finally {
  await browser.close();
  await server.close();
}
console.log(`  (e2e took ${((Date.now() - started) / 1000).toFixed(1)} s)`);
process.exitCode = t.summary() ? 1 : 0;

