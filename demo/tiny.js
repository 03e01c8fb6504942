// The first figure: a 64-bit Bloom filter (k = 3) and an 8 × 4 cuckoo filter side by side, holding
// the same named keys. Add and Check animate key → hash → cells; a miss shows the clear bit (or
// the two buckets without the fingerprint) that proves the key absent. Bits are read from the
// filter (fillMap with one cell per bit, positions), slots from its bytes: what is drawn is what
// the filter holds.
import { BloomFilter, murmur3 } from './lib.js';
import { CuckooPlay } from './cuckoo-play.js';
import { animate, drawTinyBloom, KEY_COLOURS } from './tiny-draw.js';
import { $, guard, onWidthChange, q, showFigureVerdict } from './ui.js';

export const TINY_SEED_KEYS = ['alice', 'bob', 'carol', 'dave'];
export const TINY_BLOOM = { bits: 64, hashes: 3 };
export const TINY_CUCKOO = { capacity: 20, fingerprintBits: 8, bucketSize: 4, expansion: 0 };   // 8 buckets of 4

let bloom = null;
let bloomKeys = [];
let bloomView = null;
let cuckoo = null;
let bitCursor = null;   // the bit inspected from the keyboard (null: none yet)

const bitsOf = (f) => Array.from(f.fillMap(f.info().bits), (x) => (x > 0 ? 1 : 0));
/** A key's colour on both figures: by the order keys were added (after six, the colours repeat). */
const colourOf = (key) => {
  const i = [...new Set(bloomKeys)].indexOf(key);
  return i < 0 ? null : KEY_COLOURS[i % KEY_COLOURS.length];
};
/** For each bit, the colours of the added keys whose positions include it. */
function settersOf() {
  const out = Array.from({ length: TINY_BLOOM.bits }, () => []);
  for (const k of new Set(bloomKeys)) for (const p of new Set(bloom.positions(k))) out[p].push(colourOf(k));
  return out;
}
const list = (xs) => xs.join(', ');

function drawBloom(view, p = 1) {
  bloomView = view;
  const canvas = $('tiny-bloom');
  drawTinyBloom(canvas, { ...view, setters: view.op === 'add' && p < 0.6 ? view.settersBefore : settersOf(), cursor: document.activeElement === canvas ? bitCursor : null }, p);
  const shown = view.op === 'add' && p >= 0.6 ? view.after : view.bits;
  canvas.dataset.bits = shown.join('');
  const set = shown.flatMap((x, i) => (x ? [i] : []));
  showRate(set.length, shown.length);
  canvas.setAttribute('aria-label', `Bloom filter of ${shown.length} bits, k = 3. Bits set (${set.length}): ${list(set) || 'none'}.`
    + `${view.key ? ` Last key ${q(view.key)}: bits ${list(view.positions)}.` : ''}`);
}

/**
 * The live line under the Bloom figure: a key never added lands on k bits picked by its hash, each
 * set with the chance x/64 of the figure as it stands, so it reads maybe present with (x/64)^k.
 */
function showRate(x, m) {
  const k = TINY_BLOOM.hashes;
  const y = 100 * (x / m) ** k;
  const el = $('tiny-fpr');
  const text = `${x} of ${m} bits set → (${x}/${m})^${k} ≈ ${y < 10 ? y.toFixed(2) : y.toFixed(1)} %`;
  if (el.dataset.x === String(x)) return;   // announced once per change, not once per frame
  const span = (cls, t) => Object.assign(document.createElement('span'), { className: cls, textContent: t });
  el.replaceChildren(Object.assign(document.createElement('strong'), { textContent: text }),
    span('why', `: the chance that a key never added finds all ${k} of its bits set (a false positive).`),
    span('why-short', ' false positives'));
  Object.assign(el.dataset, { x: String(x), rate: String(y / 100) });
}

function bloomVerdict(text, state, proof = null) {
  const el = $('tiny-bloom-verdict');
  showFigureVerdict(el, text, state);
  if (proof === null) delete el.dataset.proof; else el.dataset.proof = String(proof);
}

function resetBloom() {
  bloom?.free();
  bloom = new BloomFilter(TINY_BLOOM);
  bloomKeys = [];
  for (const k of TINY_SEED_KEYS) { bloom.add(k); bloomKeys.push(k); }
  const bits = bitsOf(bloom);
  drawBloom({ bits, after: bits });
  bloomVerdict('', '');
  $('tiny-bloom-how').textContent = '';
}

/** What the Bloom filter does with `key`: positions from the filter, the hash shown for the story. */
function bloomHash(key) {
  const positions = Array.from(bloom.positions(key));
  const h = murmur3.x64_128(key, bloom.info().seed);
  const hex = (a, b) => Array.from(h.slice(a, b).reverse(), (x) => x.toString(16).padStart(2, '0')).join('');
  $('tiny-bloom-how').textContent = `MurmurHash3 of ${q(key)} gives h1 = ${hex(0, 8)}, h2 = ${hex(8, 16)} (hex); `
    + `bit i = (h1 + i·h2 + (i³ − i)/6) scaled to 0…63, for i = 0, 1, 2: ${list(positions)}.`;
  return positions;
}

function bloomAdd(key) {
  const positions = bloomHash(key);
  const bits = bitsOf(bloom);
  bloom.add(key);
  bloomKeys.push(key);
  const after = bitsOf(bloom);
  const settersBefore = settersOf().map((c, i) => (bits[i] ? c.filter((x) => x !== colourOf(key)) : []));
  const already = positions.filter((p) => bits[p]);
  bloomVerdict(`${q(key)} sets bits ${list(positions)}${already.length ? ` (${list(already)} ${already.length === 1 ? 'was' : 'were'} already 1)` : ''}.`, 'added');
  return animate($('tiny-bloom'), 900, (p) => drawBloom({ bits, after, key, hashText: `bits ${list(positions)}`, positions, op: 'add', settersBefore }, p));
}

function bloomCheck(key) {
  const positions = bloomHash(key);
  const bits = bitsOf(bloom);
  const yes = bloom.has(key);
  const clear = positions.filter((p) => !bits[p]);
  if (!yes) {
    const which = clear.length === 1 ? `bit ${clear[0]} is 0` : `bit ${clear[0]} is 0 (and ${list(clear.slice(1))}; one would do)`;
    bloomVerdict(`${q(key)}: ${which}, and every added key set all of its bits, so ${q(key)} was never added: certainly absent.`, 'absent', clear[0]);
  } else if (bloomKeys.includes(key)) {
    bloomVerdict(`${q(key)}: bits ${list(positions)} are all 1: maybe present (it was added).`, 'present');
  } else {
    const setters = bloomKeys.filter((k) => Array.from(bloom.positions(k)).some((p) => positions.includes(p)));
    bloomVerdict(`${q(key)}: bits ${list(positions)} are all 1, set by ${list([...new Set(setters)].map((k) => `${q(k)}`))}: maybe present, `
      + `but ${q(key)} was never added: a false positive.`, 'false-positive');
  }
  return animate($('tiny-bloom'), 700, (p) => drawBloom({ bits, after: bits, key, hashText: `bits ${list(positions)}`, positions, op: 'check' }, p));
}

function holds() {
  const el = $('tiny-holds');
  const names = bloomKeys.map((k) => `${q(k)}`);
  const swatches = [...new Set(bloomKeys)].slice(0, 12).map((k) => {
    const sw = Object.assign(document.createElement('span'), { className: 'swatch' });
    sw.style.background = colourOf(k);
    const item = Object.assign(document.createElement('span'), { className: 'key-chip' });
    item.append(sw, q(k));
    return item;
  });
  el.replaceChildren('Both hold, one colour per key (a strip on each bit it set, on its slot): ', ...swatches.flatMap((x, i) => (i ? [' ', x] : [x])),
    `${names.length > 12 ? ` and ${names.length - 12} more` : ''}${cuckoo.keys.length !== bloomKeys.length ? ` (the cuckoo filter ${cuckoo.keys.length} of them)` : ''}.`);
  el.dataset.keys = bloomKeys.join(' ');
}

function readKey() {
  const k = $('tiny-key').value;
  if (k === '') throw new Error('Type a key first.');
  return k;
}

/** The bit under a pointer on the Bloom figure (from the grid it was drawn on), or -1. */
function bitAt(canvas, e) {
  const [x0, top, cell, cols] = (canvas.dataset.grid ?? '').split(' ').map(Number);
  const r = canvas.getBoundingClientRect();
  const col = Math.floor((e.clientX - r.left - x0) / cell);
  const row = Math.floor((e.clientY - r.top - top) / cell);
  const i = row * cols + col;
  return col >= 0 && col < cols && row >= 0 && i < bitsOf(bloom).length ? i : -1;
}

/** Hover or tap a bit: which of the keys added set it (a false positive borrows bits set by others). */
function explainBit(i) {
  const el = $('tiny-bloom-cell');
  if (i < 0) return;
  const setters = bloomKeys.filter((k, n) => bloomKeys.indexOf(k) === n && bloom.positions(k).includes(i));
  el.classList.remove('idle');
  el.textContent = setters.length ? `Bit ${i} is 1, set by ${list(setters.map((k) => q(k)))}.` : `Bit ${i} is 0: no key added so far hashes to it.`;
  el.dataset.bit = String(i);
  el.dataset.setters = setters.join(' ');
}

export function setupTiny() {
  const els = { canvas: $('tiny-cuckoo'), verdict: $('tiny-cuckoo-verdict'), how: $('tiny-cuckoo-how'), cell: $('tiny-cuckoo-cell') };
  cuckoo = new CuckooPlay(els, {
    options: TINY_CUCKOO, seedKeys: TINY_SEED_KEYS, delay: () => 500,
    rowHeight: () => (matchMedia('(max-width: 600px)').matches ? 28 : 34),   // a phone: both figures on the first screen
    colourOf,
    onStatus: (text, state) => {
      const el = $('tiny-cuckoo-status');
      if (text !== null) el.textContent = text;
      el.dataset.state = state;
    },
  });
  resetBloom();
  cuckoo.redraw();   // now with the keys' colours (they come from the Bloom side's keys)
  holds();
  const run = (op) => guard($('tiny-error'), () => {
    const key = readKey();
    const done = op === 'add' ? [bloomAdd(key), cuckoo.add(key)] : [bloomCheck(key), cuckoo.check(key)];
    holds();
    return Promise.all(done);
  });
  // Enter in the key field submits the form: Check (the first button), which changes nothing
  $('tiny-form').addEventListener('submit', (e) => {
    e.preventDefault();
    run(e.submitter?.id === 'tiny-add' ? 'add' : 'check');
  });
  $('tiny-reset').addEventListener('click', () => guard($('tiny-error'), () => {
    resetBloom();
    cuckoo.reset();
    holds();
  }));
  for (const chip of document.querySelectorAll('#tiny .chip')) {
    chip.addEventListener('click', () => { $('tiny-key').value = chip.textContent; run('check'); });
  }
  onWidthChange($('tiny-bloom'), () => drawBloom(bloomView));
  // from the keyboard: the figure takes the focus, arrows move between bits (8 to a row), Home / End
  const fig = $('tiny-bloom');
  fig.tabIndex = 0;
  fig.addEventListener('focus', () => { if (bitCursor === null) bitCursor = 0; explainBit(bitCursor); drawBloom(bloomView); });
  fig.addEventListener('blur', () => drawBloom(bloomView));
  fig.addEventListener('keydown', (e) => {
    const cols = Number((fig.dataset.grid ?? '').split(' ')[3]) || 8;   // 8 to a row, 16 on a phone
    const last = bitsOf(bloom).length - 1;
    const at = bitCursor ?? 0;
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, ArrowDown: at + cols, ArrowUp: at - cols, Home: 0, End: last }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    bitCursor = Math.max(0, Math.min(last, next));
    explainBit(bitCursor);
    drawBloom(bloomView);
  });
  for (const type of ['pointermove', 'click']) $('tiny-bloom').addEventListener(type, (e) => explainBit(bitAt($('tiny-bloom'), e)));
  onWidthChange(els.canvas, () => cuckoo.redraw());
}
