// Shared by the e2e modules: the library, the page's kinds and their classes, screenshots, the
// page-level helpers every section uses, and a few geometry checks.
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as lib from '../../js/main/index.js';
import { KINDS as KIND_TABLE } from '../../js/main/kinds.js';
import { readCuckooTables } from '../../demo/cuckoo-model.js';
import { assert } from './browser.mjs';

export { lib };
export const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(shots, { recursive: true });

// the kinds the page offers (builder.mjs checks it offers exactly these), each with its class from
// the kind table
export const KINDS = ['bloom', 'blocked', 'counting', 'scalable', 'cuckoo', 'fuse'];
export const CLASS_OF = Object.fromEntries(KIND_TABLE.filter(([, name]) => KINDS.includes(name)).map(([, name, Cls]) => [name, Cls]));
export const REMOVABLE = new Set(['counting', 'cuckoo']);
// the class the blacklist's uploaded list is built into (and the worker then holds)
export const UPLOAD_KIND = 'cuckoo';

export function shotOf(page, name, selector) {
  return selector
    ? page.locator(selector).screenshot({ path: `${shots}${name}.png` })
    : page.screenshot({ path: `${shots}${name}.png`, fullPage: true });
}


/** Bucket counts of a cuckoo filter's sub-filters, read from its bytes (docs/FORMAT.md, kind 5). */
export function subFilterBuckets(bytes) {
  const v = new DataView(bytes, 20);
  const out = [];
  for (let s = v.getUint32(48, true), at = 52; s > 0; s--) {
    out.push(Number(v.getBigUint64(at, true)));
    at += 16 + Number(v.getBigUint64(at + 8, true));
  }
  return out;
}

/**
 * Inputs on `page` whose placeholder does not fit: the placeholder's width in the input's own font
 * against the input's content box. Returns "id: text (needs N px, has M px)" for each.
 */
export function placeholdersCut(page) {
  return page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d');
    const out = [];
    for (const el of document.querySelectorAll('input[placeholder]')) {
      if (!el.placeholder || el.offsetParent === null) continue;
      const cs = getComputedStyle(el);
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const need = ctx.measureText(el.placeholder).width;
      const has = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      if (need > has + 0.5) out.push(`${el.id}: "${el.placeholder}" (needs ${need.toFixed(0)} px, has ${has.toFixed(0)} px)`);
    }
    return out;
  });
}

/**
 * The space chart on `page`: the labels of the two theoretical curves must overlap no marker (by
 * the chart's own geometry, and by its pixels: no marker colour inside a label's box), each other,
 * or the plot's edges. Returns what is wrong, as text.
 */
export async function spaceLabelTrouble(page) {
  return page.$eval('#space-chart', (c) => {
    const parse = (s) => (s ? s.split(';').map((t) => t.split(' ').map(Number)) : []);
    const boxes = parse(c.dataset.labelBoxes);
    const markers = parse(c.dataset.markers);
    const [px, py, pw, ph] = c.dataset.plot.split(' ').map(Number);
    const out = [];
    if (boxes.length !== 2) out.push(`${boxes.length} label boxes`);
    const dpr = c.width / c.getBoundingClientRect().width;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    boxes.forEach(([x, y, w, h], i) => {
      if (x < px - 0.5 || y < py - 0.5 || x + w > px + pw + 0.5 || y + h > py + ph + 0.5) out.push(`label ${i} [${x} ${y} ${w} ${h}] leaves the plot [${px} ${py} ${pw} ${ph}]`);
      for (const [mx, my, r] of markers) {
        if (mx + r > x && mx - r < x + w && my + r > y && my - r < y + h) out.push(`label ${i} [${x} ${y} ${w} ${h}] covers the marker at ${mx},${my}`);
      }
      boxes.forEach(([x2, y2, w2, h2], j) => {
        if (j > i && x2 < x + w && x2 + w2 > x && y2 < y + h && y2 + h2 > y) out.push(`labels ${i} and ${j} overlap`);
      });
      // pixels: a saturated colour (a marker) inside the box
      let coloured = 0;
      for (let yy = Math.ceil(y * dpr); yy < Math.floor((y + h) * dpr); yy++) {
        for (let xx = Math.ceil(x * dpr); xx < Math.floor((x + w) * dpr); xx++) {
          const k = (yy * c.width + xx) * 4;
          if (Math.max(d[k], d[k + 1], d[k + 2]) - Math.min(d[k], d[k + 1], d[k + 2]) > 90) coloured++;
        }
      }
      if (coloured > 0) out.push(`label ${i}: ${coloured} marker-coloured pixels inside its box`);
    });
    return out;
  });
}

/** What the page holds in a figure of cuckoo slots (data-shown): the same text from a real filter. */
export const tableText = (filter) => readCuckooTables(filter).subs.map((s) => s.slots.join(',')).join('|');

/** Focuses `from`, then presses Tab once per id of `ids`, asserting the focus lands on each in turn. */
export async function tabThrough(page, from, ids) {
  await page.focus(`#${from}`);
  for (const id of ids) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => document.activeElement.id);
    assert(at === id, `Tab from ${from}: the focus is on "${at}", not ${id}`);
  }
}

/** The helpers every section uses on the main page. */
export function pageHelpers(page) {
  const text = (id) => page.textContent(`#${id}`);
  const data = (id, key) => page.$eval(`#${id}`, (el, k) => el.dataset[k] ?? '', key);
  const value = async (id) => {
    const v = await data(id, 'value');
    assert(v !== '', `#${id} has no value (shows "${await text(id)}")`);
    return Number(v);
  };
  // page.fill types multi-line text slowly (seconds for 1000 lines): set the value and fire input
  const setText = (id, value) => page.$eval(`#${id}`, (el, v) => {
    el.value = v;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
  const visibleError = (id) => page.$eval(`#${id}`, (el) => (el.hidden ? '' : el.textContent));
  const visibleText = visibleError;
  const shot = (name, selector) => shotOf(page, name, selector);

  async function selectKind(kind) {
    await page.selectOption('#filter-kind', kind);
    await page.waitForFunction(() => document.getElementById('key-result').dataset.state === 'created');
  }
  async function createWith(kind, options) {
    if (await page.inputValue('#filter-kind') !== kind) await selectKind(kind);
    for (const [k, v] of Object.entries(options)) {
      if (await page.$eval(`#opt-${k}`, (el) => el.tagName) === 'SELECT') await page.selectOption(`#opt-${k}`, v);
      else await page.fill(`#opt-${k}`, v);
    }
    await page.click('#filter-create');
  }
  async function keyOp(op, key) {
    await page.fill('#key-input', key);
    await page.click(`#key-${op}`);
    return data('key-result', 'state');
  }
  async function fillRandom(n) {
    await page.fill('#fill-count', String(n));
    await page.click('#fill-btn');
    // the add runs in chunks (a fuse filter is solved in a worker): wait until it is done
    await page.waitForFunction(() => !document.getElementById('fill-btn').disabled && document.getElementById('fill-progress').hidden, null, { timeout: 120000 });
  }
  async function download() {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-btn')]);
    assert(await dl.failure() === null, 'download failed');
    return { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
  }
  async function importBytes(name, buffer) {
    await page.evaluate(() => { const s = document.getElementById('import-status'); s.textContent = ''; delete s.dataset.items; });
    await page.setInputFiles('#import-file', { name, mimeType: 'application/octet-stream', buffer });
    await page.waitForFunction(() => document.getElementById('import-status').dataset.items !== undefined
      || !document.getElementById('import-error').hidden);
  }
  async function compareWith(source, keys) {
    await setText('import-compare-keys', keys.join('\n'));
    await page.selectOption('#import-compare-source', source);
    await page.click('#import-compare');
    return { same: Number(await data('import-compare-result', 'same')), total: Number(await data('import-compare-result', 'total')), present: Number(await data('import-compare-result', 'present')) };
  }
  return { page, text, data, value, setText, visibleError, visibleText, shot, selectKind, createWith, keyOp, fillRandom, download, importBytes, compareWith };
}
