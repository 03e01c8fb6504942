// The playground in real headless Chromium: builds demo/, serves it on 127.0.0.1, walks through
// it, asserts what the DOM shows, fails on console errors, saves screenshots to
// tests/e2e/screenshots/ (git-ignored).
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { init, murmur3 } from '../../js/index.js';
import { assert, buildAndServe, launchBrowser, makeRunner, watchConsole } from './browser.mjs';

const demoRoot = fileURLToPath(new URL('../../demo/', import.meta.url));
const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(shots, { recursive: true });

await init();
const t = makeRunner();
const server = await buildAndServe(demoRoot);
const browser = await launchBrowser();
try {
  const page = await browser.context.newPage();
  const errors = watchConsole(page);
  await page.goto(server.url);
  await page.waitForSelector('#status:text("ready")', { timeout: 20000 });

  await t.check('MurmurHash3 in the page matches the Node build', async () => {
    await page.fill('#hash-input', 'geeky ogre');
    await page.fill('#hash-seed', '42');
    const x86 = await page.textContent('#hash-x86');
    const x64 = await page.textContent('#hash-x64');
    const want64 = Array.from(murmur3.x64_128('geeky ogre', 42), (b) => b.toString(16).padStart(2, '0')).join('');
    assert(x86 === murmur3.x86_32('geeky ogre', 42).toString(16).padStart(8, '0'), `x86_32 shown ${x86}`);
    assert(x64 === want64, `x64_128 shown ${x64}`);
    await page.screenshot({ path: `${shots}hash.png`, fullPage: true });
  });

  await t.check('no console errors', async () => {
    assert(errors.length === 0, `console errors: ${errors.join(' | ')}`);
  });
} finally {
  await browser.close();
  await server.close();
}
process.exitCode = t.summary() ? 1 : 0;
