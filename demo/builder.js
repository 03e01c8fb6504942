// "Build your own filter" (#builder): pick a filter class and its options, add / check / remove
// keys, live stats, and the canvas of the whole filter with what the last key touched.
import { drawFilterMap } from './canvas.js';
import { BPK_MIN_KEYS, createFilter, cuckooSubFilterBuckets, kindByName, pageKinds, parseOptions, statsOf, touchedBy } from './filters.js';
import { deserialize } from './lib.js';
import { solveFuseInWorker } from './fuse-worker.js';
import { dropFilter, getEntry, setFilter, touch } from './store.js';
import { $, bitsPerKeyText, bytes, clip, describeError, enterClicks, guard, int, pct, q, randomHex, showError, yieldToBrowser } from './ui.js';

let spec = null;          // the selected kind
let staged = new Set();   // keys of a static (fuse) filter, rebuilt after each change
// ... and its random batches ({ prefix, n }: keys prefix + 0 … prefix + n − 1), made again when the
// filter is solved rather than kept: a million strings held here made the collector pause the page
let stagedBatches = [];
const stagedCount = () => staged.size + stagedBatches.reduce((a, b) => a + b.n, 0);
/** Every staged key (typed ones, then the batches'), as an iterable that knows its size. */
const stagedKeys = () => ({
  size: stagedCount(),
  *[Symbol.iterator]() {
    yield* staged;
    for (const b of stagedBatches) for (let i = 0; i < b.n; i++) yield b.prefix + i;
  },
});
const clearStaged = () => { staged = new Set(); stagedBatches = []; };
let lastTouched = null;   // what the last key touched, for the canvas
let grew = null;          // a cuckoo filter's growth during the last operation: { from, to, bytesFrom, bytesTo }
// The keys this page added to the current filter (typed ones with their counts, random batches by
// prefix), so removing a key never added can be shown for what it is.
let typed = new Map();
let batches = [];
let filling = false;   // "Add random" is adding its chunks
let removed = new Map();   // removals of added keys, by key
const forgetKeys = () => { typed = new Map(); batches = []; removed = new Map(); };
function inBatch(k) {
  const b = batches.find((x) => k.startsWith(x.prefix));
  if (!b) return false;
  const i = Number(k.slice(b.prefix.length));
  return Number.isSafeInteger(i) && i >= 0 && i < b.n;
}
/** Whether this page added `k` (more often than it removed it). */
function wasAdded(k) {
  return (typed.get(k) ?? 0) + (inBatch(k) ? 1 : 0) - (removed.get(k) ?? 0) > 0;
}
/** Added keys (typed ones, then up to 100,000 of the random ones) that the filter reports present. */
function presentAddedKeys(f) {
  const keys = [...typed.keys()].filter(wasAdded);
  for (const b of batches) {
    for (let i = 0; i < b.n && keys.length < 100_000; i++) {
      const k = b.prefix + i;
      if (!removed.has(k) || wasAdded(k)) keys.push(k);
    }
  }
  const answers = f.hasAll(keys);
  return keys.filter((_, i) => answers[i] === 1);
}
const errorEl = () => $('builder-error');

const current = () => getEntry('builder')?.filter ?? null;

function setResult(text, state = '') {
  const el = $('key-result');
  el.textContent = text;
  el.dataset.state = state;
  delete el.dataset.broken;
  delete el.dataset.wouldBreak;
}

function renderFields() {
  const form = $('filter-options');
  form.replaceChildren();
  for (const f of spec.fields) {
    const label = document.createElement('label');
    label.append(`${f.label} `);
    let input;
    if (f.type === 'bool') {
      input = document.createElement('select');
      input.append(new Option('false', 'false'), new Option('true', 'true'));
      input.value = f.def;
    } else {
      input = document.createElement('input');
      input.value = f.def;
      input.size = 9;
      input.placeholder = f.hint || '';
      // a hint longer than the field widens it (a placeholder cut off is no hint)
      if (f.hint && f.hint.length > 9) input.style.width = `calc(${f.hint.length}ch + 14px)`;
      input.inputMode = 'decimal';
    }
    input.id = `opt-${f.key}`;
    input.name = f.key;
    label.append(input);
    form.append(label);
  }
  $('filter-blurb').textContent = spec.blurb;
  $('filter-explain').textContent = spec.explain ?? '';
  $('key-remove').disabled = !spec.removable;
  $('key-remove').title = spec.removable ? '' : `${spec.label} filters cannot remove keys`;
  $('key-note').textContent = spec.staticNote ?? '';
  $('key-note').hidden = !spec.staticNote;
}

function readFields() {
  const values = {};
  for (const f of spec.fields) values[f.key] = $(`opt-${f.key}`).value;
  return values;
}

/**
 * Creates the filter from the form (a static one from the keys added so far). Bad options show in
 * the page; the previous filter of the same kind is then kept, and the stats say so, while one of
 * another kind is dropped (its numbers would sit next to the wrong form).
 */
function create() {
  showError(errorEl(), null);
  confirmRemove(null);
  grew = null;
  const old = getEntry('builder');
  try {
    const options = parseOptions(spec, readFields());
    const filter = createFilter(spec, options, [...stagedKeys()]);
    setFilter('builder', filter, spec);
    forgetKeys();
    clearTouched();
    setResult(spec.static && stagedCount() ? `created from the ${int(stagedCount())} keys added so far` : 'created', 'created');
    $('stats-note').hidden = true;
  } catch (err) {
    showError(errorEl(), err);
    if (old && !old.filter.freed && old.spec.kind === spec.kind) {
      setResult(`not created: the previous ${old.spec.label} filter (${int(old.filter.size)} keys) is kept, and its numbers are shown`, 'error');
      $('stats-note').textContent = `These are the previous filter's numbers: the new options were refused (see the message above).`;
      $('stats-note').hidden = false;
    } else {
      if (old) dropFilter('builder');
      clearTouched();
      setResult('not created: there is no filter (see the message above)', 'error');
      $('stats-note').hidden = true;
    }
  }
  refresh();
}

function clearTouched(note = '—') {
  lastTouched = null;
  $('key-touched').textContent = note;
}

/** Rebuilds a static filter from the staged keys with the current options. */
function rebuildStatic() {
  const options = parseOptions(spec, readFields());
  const filter = createFilter(spec, options, [...stagedKeys()]);
  setFilter('builder', filter, spec);
}

/** The same, solved in a Web Worker (fuse-worker.js): a million keys never hold the page. */
async function rebuildStaticInWorker() {
  const options = parseOptions(spec, readFields());
  const bytes = await solveFuseInWorker(stagedKeys(), options, (sent, total) => {
    fillProgress(sent === 'solving' ? total : sent, total);
    $('fill-progress-text').textContent = sent === 'solving' ? `solving the fuse filter of ${int(total)} keys in a worker (peeling)…`
      : `${int(sent)} of ${int(total)} keys sent to the worker…`;
  });
  setFilter('builder', deserialize(bytes), spec);
}

function requireFilter() {
  const f = current();
  if (!f) throw new Error('Create a filter first (see the message above if it failed).');
  return f;
}

function key() {
  const k = $('key-input').value;
  if (k === '') throw new Error('Type a key first.');
  return k;
}

function showTouched(filter, k) {
  const t = filter ? touchedBy(spec, filter, k) : null;
  lastTouched = t;
  if (t) $('key-touched').textContent = t.text;
  else if (spec.static) $('key-touched').textContent = 'a fuse filter reads 3 fingerprint slots per key (not exposed)';
  else if (spec.probe) $('key-touched').textContent = `— (${spec.probe}() is not in this build of the library)`;
  else $('key-touched').textContent = `— (${spec.label} filters do not expose where a key lands)`;
}

/** "3 KiB", "192 B", "1.5 KiB": a size in the words of the growth announcement. */
const kib = (n) => (n < 1024 ? `${n} B` : `${+(n / 1024).toFixed(n % 1024 ? 1 : 0)} KiB`);

/** Runs `fn` (an add) and notes whether the cuckoo filter grew a sub-filter meanwhile. */
function watchGrowth(f, fn) {
  if (spec.kind !== 'cuckoo') return fn();
  const from = f.info().filters;
  const bytesFrom = f.byteLength;
  try {
    return fn();
  } finally {
    const to = f.info().filters;
    if (to > from) grew = { from, to, bytesFrom, bytesTo: f.byteLength };
  }
}

function showGrowth() {
  const el = $('key-grew');
  el.hidden = !grew;
  if (!grew) { el.textContent = ''; return; }
  const n = grew.to - grew.from;
  const buckets = cuckooSubFilterBuckets(current().info());
  el.textContent = `grew: ${n === 1 ? `new sub-filter ${grew.to - 1} of ${buckets[grew.to - 1].toLocaleString('en-US')} buckets`
    : `${n} new sub-filters (${grew.from} → ${grew.to})`}, ${kib(grew.bytesFrom)} → ${kib(grew.bytesTo)}. `
    + 'Stored keys stay where they are; a new key takes a free slot of its two buckets in the oldest sub-filter that has one, and a check reads every sub-filter.';
  Object.assign(el.dataset, { from: String(grew.from), to: String(grew.to), bytesFrom: String(grew.bytesFrom), bytesTo: String(grew.bytesTo) });
}

function fullMessage(added, wanted) {
  const info = current().info();
  return `FULL: the cuckoo filter is full and may not grow (expansion ${info.expansion}): ${int(added)} of ${int(wanted)} `
    + `key${wanted === 1 ? '' : 's'} added, the rest rejected after ${info.maxIterations} kicks; nothing already stored was lost.`;
}

const STATIC_IN_WORKER = 100_000;   // from this many staged keys a fuse filter is solved in the worker (~0.1 s and up)

async function add() {
  const k = key();
  if (spec.static) {
    const had = staged.has(k);
    staged.add(k);
    if (stagedCount() < STATIC_IN_WORKER) rebuildStatic();
    else {
      setFilling(true);
      try {
        await rebuildStaticInWorker();
      } catch (err) {
        if (!had) staged.delete(k);
        throw err;
      } finally {
        setFilling(false);
        fillProgress(null);
      }
    }
    setResult(`added; filter rebuilt from ${int(stagedCount())} keys`, 'added');
  } else {
    const f = requireFilter();
    const changed = watchGrowth(f, () => f.add(k));
    if (changed || spec.kind === 'bloom' || spec.kind === 'blocked' || spec.kind === 'counting') typed.set(k, (typed.get(k) ?? 0) + 1);
    if (spec.kind === 'cuckoo' && !changed) {
      setResult('not added: filter full', 'full');
      showError(errorEl(), { code: 'FULL', message: fullMessage(0, 1).replace(/^FULL: /, '') });
    } else if (spec.kind === 'scalable' && !changed) {
      setResult('not added: it may already be present', 'added');
    } else if ((spec.kind === 'bloom' || spec.kind === 'blocked') && !changed) {
      setResult('added, but no bit changed: it may already have been present', 'added');
    } else {
      setResult('added', 'added');
    }
    touch('builder');
  }
  showTouched(current(), k);
}

function check() {
  const k = key();
  const f = requireFilter();
  const yes = f.has(k);
  if (!yes && wasAdded(k)) {
    // only a removal of a key never added (or a FULL add) can lose a key this page added
    setResult('certainly absent, yet this page added it: a false negative (a removal took what it had stored)', 'false-negative');
  } else {
    setResult(yes ? 'maybe present' : 'certainly absent', yes ? 'present' : 'absent');
  }
  showTouched(f, k);
}

/** "“a”, “b” and 3 more" */
function someKeys(keys, n = 5) {
  const shown = keys.slice(0, n).map((x) => `${q(x)}`).join(', ');
  return keys.length > n ? `${shown} and ${int(keys.length - n)} more` : shown;
}

/** Removes `k` from `f`: { ok, broken }, broken = the added keys that read present before and absent after. */
function removeAndDiff(f, k) {
  const before = presentAddedKeys(f);
  const ok = f.remove(k);
  const after = new Set(presentAddedKeys(f));
  return { ok, broken: before.filter((x) => !after.has(x)) };
}

/** The added keys that would read absent after removing `k`: asked of a copy. */
function wouldBreak(f, k) {
  const copy = deserialize(f.serialize());
  try {
    return removeAndDiff(copy, k).broken;
  } finally {
    copy.free();
  }
}

/** A removal of a key never added, waiting for "Remove anyway" (or null), and the filter it is for. */
let pending = null;
function confirmRemove(p) {
  pending = p;
  $('key-confirm').hidden = !p;
  if (p) $('key-remove-anyway').textContent = `Remove “${p.key.length > 24 ? `${p.key.slice(0, 23)}…` : p.key}” anyway`;
}

/**
 * Remove: a key this page added is removed at once. A key never added is checked first:
 * certainly absent, nothing is removed (and the page says why); maybe present (a false positive),
 * the page warns that remove() would take another key's fingerprint or counters, names the added
 * keys that would then read absent (the library's answer on a copy), and waits for "Remove anyway".
 */
function remove() {
  const k = key();
  if (!spec.removable) throw new Error(`${spec.label} filters cannot remove keys.`);
  const f = requireFilter();
  if (wasAdded(k)) {
    const ok = f.remove(k);
    if (ok) removed.set(k, (removed.get(k) ?? 0) + 1);
    setResult(ok ? 'removed' : 'not found: nothing removed', ok ? 'removed' : 'not-found');
    touch('builder');
  } else if (!f.has(k)) {
    setResult(`not found: ${q(k)} reads certainly absent, so there is nothing to remove; nothing removed (it was never added)`, 'not-found');
  } else {
    const lost = wouldBreak(f, k);
    const what = spec.kind === 'cuckoo' ? 'the matching fingerprint, which belongs to another key' : 'its counters, which other keys set too';
    setResult(`Careful: ${q(k)} was never added by this page, yet it reads maybe present (a false positive). remove() cannot tell and would take away ${what}: `
      + (lost.length ? `${someKeys(lost)} would then read as certainly absent, a false negative.`
        : 'this time every key this page added would still read present, but that is luck.')
      + ' Nothing is removed unless you choose Remove anyway.', 'warn');
    $('key-result').dataset.wouldBreak = lost.join(' ');
    confirmRemove({ key: k, filter: f });
  }
  showTouched(current(), k);
}

/** "Remove anyway": the lesson, shown for what it is: the added keys it broke read absent now. */
function removeAnyway() {
  const p = pending;
  confirmRemove(null);
  const f = requireFilter();
  if (!p || p.filter !== f) throw new Error('The filter changed since the warning: press Remove again.');
  const k = p.key;
  const { ok, broken } = removeAndDiff(f, k);
  if (!ok) {
    setResult(`not found: nothing removed (${q(k)} was never added)`, 'not-found');
  } else {
    setResult(`${q(k)} was never added, yet something matched and was removed: `
      + (broken.length ? `${someKeys(broken)} ${broken.length === 1 ? 'now reads' : 'now read'} as certainly absent, a false negative. Remove only keys you added.`
        : 'no key this page added was hit this time, but it could have been. Remove only keys you added.'), 'removed-unknown');
    $('key-result').dataset.broken = broken.join(' ');
  }
  touch('builder');
  showTouched(current(), k);
}

function keepIt() {
  const p = pending;
  confirmRemove(null);
  if (!p) return;
  setResult(`kept: nothing removed; ${q(p.key)} still reads maybe present`, 'kept');
}

const randomKeys = (n) => `${int(n)} random key${n === 1 ? '' : 's'}`;

const FILL_CHUNK = 50_000;   // keys per addAll call of "Add random": ~10-30 ms, then the page paints

const CHUNK_MS = 40;   // the time one addAll call of "Add random" aims at

/**
 * The next chunk of "Add random": at most FILL_CHUNK keys, about CHUNK_MS at the last chunk's pace,
 * and for a cuckoo filter at most half its free slots (and at least 256): the chunk that fills a
 * table must not be 50,000 keys of up to maxIterations kicks each (that held the page ~1 s).
 */
function nextChunk(f, size, spent) {
  let next = spent > 0 ? Math.floor((size * CHUNK_MS) / spent) : FILL_CHUNK;
  if (spec.kind === 'cuckoo') {
    const info = f.info();
    next = Math.min(next, Math.ceil((info.buckets * info.bucketSize - f.size) / 2));
  }
  return Math.max(256, Math.min(FILL_CHUNK, next));
}

/** Progress of "Add random": `done` of `n` keys (null hides it). */
function fillProgress(done, n) {
  const bar = $('fill-progress');
  const text = $('fill-progress-text');
  bar.hidden = done === null;
  text.textContent = done === null ? '' : `${int(done)} of ${int(n)} keys added…`;
  if (done !== null) { bar.max = n; bar.value = done; }
}

/**
 * Adds `n` random keys in chunks (nextChunk) with a progress bar, yielding to the browser between
 * chunks, so 2,000,000 keys never freeze the page. A fuse filter (one build call: it cannot be
 * built in parts) is solved in a worker from every key staged, this batch sent in chunks.
 */
async function fillRandom() {
  const n = Number($('fill-count').value);
  if (!Number.isSafeInteger(n) || n < 1 || n > 5_000_000) throw new RangeError(`random key count must be an integer from 1 to 5,000,000, got "${clip($('fill-count').value)}"`);
  const prefix = `rnd-${randomHex(8)}-`;
  const chunkOf = (from, size) => Array.from({ length: Math.min(size, n - from) }, (_, i) => prefix + (from + i));
  // the marks show where one key landed: after a batch they would point at a key of the past
  clearTouched(`— (${randomKeys(n)} added; the marks show one key: add or check one)`);
  const f = spec.static ? null : requireFilter();
  const from = spec.kind === 'cuckoo' ? { filters: f.info().filters, bytes: f.byteLength } : null;
  let added = 0;
  let tried = 0;
  let chunk = FILL_CHUNK;
  setFilling(true);
  try {
    if (f === null) {   // a fuse filter: the batch is staged as its prefix, the worker makes and solves the keys
      stagedBatches.push({ prefix, n });
      try {
        await rebuildStaticInWorker();
      } catch (err) {
        stagedBatches.pop();
        throw err;
      }
      added = tried = n;
    }
    while (tried < n) {
      const keys = chunkOf(tried, chunk);
      const t0 = performance.now();
      const got = f.addAll(keys);
      const spent = performance.now() - t0;   // the add alone: the stats' redraw below costs the same whatever the chunk
      added += got;
      tried += keys.length;
      fillProgress(tried, n);
      refresh();   // the stats (estimated FPR, fill) move as the keys go in
      if (spec.kind === 'cuckoo' && got < keys.length) break;   // full: the rest would be rejected too
      chunk = nextChunk(f, keys.length, spent);
      if (tried < n) await yieldToBrowser();
    }
  } finally {
    if (f !== null) batches.push({ prefix, n: tried });
    if (from && f.info().filters > from.filters) grew = { from: from.filters, to: f.info().filters, bytesFrom: from.bytes, bytesTo: f.byteLength };
    setFilling(false);
    fillProgress(null);
  }
  if (spec.static) {
    setResult(`${randomKeys(n)} added; rebuilt from ${int(stagedCount())} key${stagedCount() === 1 ? '' : 's'} (solved in a worker)`, 'added');
    return;
  }
  touch('builder');
  if (spec.kind === 'cuckoo' && added < n) {
    setResult(`${int(added)} of ${randomKeys(n)} added: filter full`, 'full');
    showError(errorEl(), { code: 'FULL', message: fullMessage(added, n).replace(/^FULL: /, '') });
  } else if (spec.kind === 'scalable' && added < n) {
    setResult(`${int(added)} of ${randomKeys(n)} added: ${int(n - added)} looked present already (false positives of the `
      + 'layers so far), and a scalable filter adds a key only when it is not maybe-present', 'added');
  } else {
    setResult(`${randomKeys(n)} added`, 'added');
  }
}

/** While random keys go in, the builder's other operations wait (they would change the filter under it). */
function setFilling(on) {
  filling = on;
  for (const id of ['fill-btn', 'filter-create', 'filter-clear', 'key-add', 'key-check', 'key-remove', 'filter-kind']) $(id).disabled = on;
}

function clearFilter() {
  if (spec.static) {
    clearStaged();
    rebuildStatic();
  } else {
    requireFilter().clear();
    forgetKeys();
    touch('builder');
  }
  clearTouched();
  setResult('cleared', 'cleared');
}

function setStat(id, text, value) {
  const el = $(id);
  el.textContent = text;
  if (value === undefined || Number.isNaN(value)) el.removeAttribute('data-value');
  else el.dataset.value = String(value);
}

/** Redraws stats and canvas from the current filter. */
export function refresh() {
  const f = current();
  if (!f || f.freed) {
    for (const id of ['stat-kind', 'stat-items', 'stat-capacity', 'stat-bytes', 'stat-bpk', 'stat-fill', 'stat-est-fpr', 'stat-theory-fpr']) setStat(id, '—');
    $('stat-bpk-how').textContent = '';
    $('stats').classList.remove('over');
    $('key-grew').hidden = true;
    $('stat-info').textContent = '';
    const r = drawFilterMap($('filter-canvas'), { filter: null, units: 0, unitName: spec?.unit ?? 'bit' });
    $('canvas-legend').textContent = r.note;
    $('filter-summary').textContent = spec?.static ? 'static filter: add keys and it is built from them' : '';
    return;
  }
  const entrySpec = getEntry('builder').spec;
  const s = statsOf(entrySpec, f);
  setStat('stat-kind', `${entrySpec.label} (${s.info.kind})`);
  setStat('stat-items', int(s.items), s.items);
  // The capacity the filter was sized for; past it a fixed-size filter's false-positive rate
  // climbs far above the target (a Bloom filter tends to 100%): say so, in colour.
  const capacity = s.info.capacity;
  const fixed = !['scalable', 'cuckoo', 'fuse'].includes(s.info.kind) || (s.info.kind === 'cuckoo' && s.info.expansion === 0);
  const past = Number.isFinite(capacity) && capacity > 0 && fixed && s.items > capacity;
  // A fixed cuckoo filter's table is rounded up to a power of two buckets, so it can hold keys past
  // the capacity asked for while its rate (which grows with load) is still within the target:
  // flagged only once the estimate is above the target.
  const within = s.info.kind === 'cuckoo' && s.estimatedFpr <= s.info.errorRate;
  const over = past && !within;
  setStat('stat-capacity', !Number.isFinite(capacity) || capacity <= 0 ? '—'
    : over ? `${int(capacity)}: over capacity by ${int(s.items - capacity)} keys; the false-positive rate has left its target`
      : past ? `${int(capacity)}: ${int(s.items - capacity)} keys past it, in a table of ${int(s.info.buckets * s.info.bucketSize)} slots; `
        + `the estimated rate ${pct(s.estimatedFpr)} is still within the ${pct(s.info.errorRate)} target and grows with load`
        : int(capacity), capacity);
  $('stats').classList.toggle('over', over);
  setStat('stat-bytes', bytes(s.bytes), s.bytes);
  if (s.items > 0 && s.items >= s.bitsPerKeyFrom) setStat('stat-bpk', bitsPerKeyText(s.bitsPerKey), s.bitsPerKey);
  else setStat('stat-bpk', `— until ${int(s.bitsPerKeyFrom)} key${s.bitsPerKeyFrom === 1 ? '' : 's'}`);
  $('stat-bpk-how').textContent = entrySpec.static ? 'built for these keys'
    : Number.isFinite(s.bitsAtCapacity) ? `${bitsPerKeyText(s.bitsAtCapacity)} at capacity (${int(Math.round(s.sizedFor))} keys)`
      : `shown from ${BPK_MIN_KEYS} keys`;
  $('stat-fill-label').textContent = s.fillLabel;
  setStat('stat-fill', Number.isFinite(s.fill) ? `${(s.fill * 100).toFixed(2)} %` : '—', s.fill);
  setStat('stat-est-fpr', pct(s.estimatedFpr), s.estimatedFpr);
  $('stat-est-how').textContent = s.estimateHow ?? '';
  setStat('stat-theory-fpr', pct(s.theoreticalFpr), s.theoreticalFpr);
  $('stat-theory-how').textContent = s.theoryFormula ?? '';
  $('stat-info').textContent = JSON.stringify(s.info, (_k, v) => (typeof v === 'bigint' ? String(v) : v), 1);
  const units = entrySpec.units(s.info);
  const cuckoo = entrySpec.kind === 'cuckoo';
  const subs = cuckoo ? cuckooSubFilterBuckets(s.info) : [];
  const r = drawFilterMap($('filter-canvas'), {
    filter: f, units, unitName: entrySpec.unit,
    group: cuckoo ? s.info.bucketSize : 1,
    touched: lastTouched,
    noMap: entrySpec.noMap,
    regions: cuckoo ? subs.map((n) => n * s.info.bucketSize) : null,
    fresh: grew ? grew.to - 1 : -1,
  });
  showGrowth();
  const legend = $('canvas-legend');
  legend.textContent = r.note;
  legend.dataset.mode = r.mode;
  legend.dataset.cells = String(r.cells);
  legend.dataset.setUnits = String(r.setUnits);
  legend.dataset.units = String(units);
  legend.dataset.marks = String(r.marks);
  legend.dataset.mapBottom = String(r.mapBottom);
  legend.dataset.subfilters = subs.join(' ');
  legend.dataset.regionTops = r.regionTops.join(' ');
  if (r.labelBox) legend.dataset.labelBox = [r.labelBox.x, r.labelBox.y, r.labelBox.w, r.labelBox.h].join(' ');
  else delete legend.dataset.labelBox;
  $('filter-summary').textContent = `${entrySpec.label}: ${bytes(s.bytes)} of storage`;
  $('filter-canvas').setAttribute('aria-label', `${entrySpec.label} filter, ${int(s.items)} keys in ${bytes(s.bytes)}: ${r.note}`);
}

function selectKind(kindName) {
  spec = kindByName(kindName);
  clearStaged();
  renderFields();
  create();
}

/**
 * Wraps a button handler: errors go to the section's message element, "Last:" says the operation
 * failed (FULL included), then refresh.
 */
function action(fn, keepPending = false) {
  return () => (filling ? undefined : guard(errorEl(), async () => {
    grew = null;
    if (!keepPending) confirmRemove(null);
    try {
      return await fn();
    } catch (err) {
      if (err?.code === 'FULL') setResult('not added: the filter is FULL (see the message above)', 'full');
      else setResult(`failed: ${err?.code ?? err?.name ?? 'error'} (see the message above)`, 'error');
      throw err;
    }
  }).finally(refresh));
}

export function setupBuilder() {
  const kinds = pageKinds();
  const sel = $('filter-kind');
  for (const k of kinds) sel.append(new Option(k.label, k.kind));
  sel.addEventListener('change', () => selectKind(sel.value));
  $('filter-create').addEventListener('click', () => create());
  $('key-add').addEventListener('click', action(add));
  $('key-check').addEventListener('click', action(check));
  $('key-remove').addEventListener('click', action(remove));
  $('fill-btn').addEventListener('click', action(fillRandom));
  $('filter-clear').addEventListener('click', action(clearFilter));
  $('key-remove-anyway').addEventListener('click', action(removeAnyway, true));
  $('key-keep').addEventListener('click', action(keepIt, true));
  // the warning is about one key: editing it withdraws the choice
  $('key-input').addEventListener('input', () => { if (pending) confirmRemove(null); });
  $('key-input').addEventListener('keydown', (e) => { if (e.key === 'Enter') $('key-add').click(); });
  // Enter in an option field creates the filter (the form has no submit button, so the browser
  // would not submit it), Enter in the count adds the random keys
  enterClicks($('filter-options'), $('filter-create'));
  $('filter-options').addEventListener('submit', (e) => { e.preventDefault(); create(); });
  enterClicks($('fill-count'), $('fill-btn'));
  selectKind(kinds[0].kind);
}

export { describeError };
