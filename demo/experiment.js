// "Two filters, one memory" (#experiment): the false-positive experiment. Two filters of the same
// memory; insert n random keys in steps, probe m never-inserted keys after each step, chart
// measured vs theoretical FPR.
import { drawFprChart } from './chart.js';
import { wilson } from './fill.js';
import { pageKinds, statsOf } from './filters.js';
import { $, bytes, enterClicks, guard, int, ms, onWidthChange, pct, randomHex, showError, yieldToBrowser } from './ui.js';

const COLORS = { left: '#2563eb', right: '#dc2626' };
const EXPERIMENT_KINDS = ['bloom', 'blocked', 'counting', 'cuckoo'];
let running = false;

function integerField(id, name, min, max) {
  const raw = $(id).value.trim();
  const v = Number(raw);
  if (!Number.isSafeInteger(v) || v < min || v > max) {
    throw new RangeError(`${name} must be an integer from ${int(min)} to ${int(max)}, got "${raw}"`);
  }
  return v;
}

/**
 * A filter of kind `spec` that uses at most `budget` bytes, shaped for `n` keys.
 * Cuckoo: power-of-two buckets of 4, fixed size (expansion 0); the fingerprint width (8/12/16)
 * with the lowest predicted FPR at n keys and a load ≤ 0.9.
 */
function fitToMemory(spec, budget, n) {
  const optimalK = (m) => Math.min(64, Math.max(1, Math.round((m / n) * Math.LN2)));
  switch (spec.kind) {
    case 'bloom': {
      const bits = Math.floor(budget / 8) * 64;
      return new spec.Class({ bits, hashes: optimalK(bits) });
    }
    case 'blocked':
      return new spec.Class({ blocks: Math.floor(budget / 32) });
    case 'counting': {
      const counters = Math.floor(budget / 8) * 16;
      return new spec.Class({ counters, hashes: optimalK(counters) });
    }
    case 'cuckoo': {
      const b = 4;
      let best = null;
      for (const f of [8, 12, 16]) {
        const buckets = 2 ** Math.floor(Math.log2((budget * 8) / (b * f)));
        if (buckets < 1) continue;
        const load = n / (buckets * b);
        const fpr = (2 * b * Math.min(load, 1)) / 2 ** f;
        const ok = load <= 0.9;
        if (!best || (ok && (!best.ok || fpr < best.fpr)) || (!ok && !best.ok && buckets * b > best.buckets * b)) {
          best = { f, buckets, fpr, ok };
        }
      }
      if (!best) throw new RangeError(`memory of ${budget} bytes is too small for a cuckoo filter`);
      // the first sub-filter gets the smallest power of two with capacity ≤ buckets·b·target load
      // (target ≥ 0.6 for b = 4), so half the slots maps to exactly `buckets` buckets
      const filter = new spec.Class({ capacity: Math.max(1, Math.floor((best.buckets * b) / 2)), fingerprintBits: best.f, bucketSize: b, expansion: 0 });
      return filter;
    }
    default:
      throw new Error(`${spec.label} filters are not part of the experiment`);
  }
}

function renderRow(side, spec, filter, keysIn, probes, fp, theory, failed) {
  const tbody = $('exp-results').tBodies[0];
  let row = document.getElementById(`exp-row-${side}`);
  if (!row) {
    row = tbody.insertRow();
    row.id = `exp-row-${side}`;
    for (let i = 0; i < 11; i++) row.insertCell();
  }
  const st = statsOf(spec, filter);
  const ci = wilson(fp, probes);
  const bitsPerKey = keysIn > 0 ? (8 * filter.byteLength) / keysIn : NaN;
  const cells = [
    [`<span class="swatch" style="background:${COLORS[side]}"></span>${side}`],
    [`${spec.label}${filter.info().fingerprintBits ? ` (f = ${filter.info().fingerprintBits})` : ''}${filter.info().hashes ? ` (k = ${filter.info().hashes})` : ''}`, `exp-${side}-kind`, spec.kind],
    [bytes(filter.byteLength), `exp-${side}-bytes`, filter.byteLength],
    [Number.isFinite(bitsPerKey) ? bitsPerKey.toFixed(2) : '—', `exp-${side}-bpk`, bitsPerKey],
    [Number.isFinite(st.fill) ? `${(st.fill * 100).toFixed(1)} % <small class="muted">${st.fillLabel.replace(/ \(.*\)$/, '')}</small>` : '—', `exp-${side}-fill`, st.fill],
    [`${int(keysIn)}${failed ? ` (${int(failed)} rejected: full)` : ''}`, `exp-${side}-keys`, keysIn],
    [int(probes), `exp-${side}-probes`, probes],
    [int(fp), `exp-${side}-fp`, fp],
    [pct(fp / probes), `exp-${side}-measured`, fp / probes],
    [`${pct(ci.lo)} – ${pct(ci.hi)}`, `exp-${side}-interval`, `${ci.lo} ${ci.hi}`],
    [pct(theory), `exp-${side}-theory`, theory],
  ];
  cells.forEach(([html, id, value], i) => {
    const cell = row.cells[i];
    cell.innerHTML = html;
    if (id) { cell.id = id; cell.dataset.value = String(value); }
  });
}

/**
 * Where a cuckoo filter overtakes an optimal Bloom filter as bits per key grow, at the cuckoo side's
 * load α and bucket size b: f-bit fingerprints cost f/α bits per key for a rate 2bα/2^f; a Bloom
 * filter of f/α bits per key has (1/2)^(ln 2 · f/α). The smallest f where the cuckoo rate is lower.
 */
function crossover(sides) {
  const ck = sides.find((sd) => sd.spec.kind === 'cuckoo');
  const bl = sides.find((sd) => sd.spec.kind === 'bloom');
  if (!ck || !bl) return null;
  const b = ck.filter.info().bucketSize;
  const load = ck.filter.loadFactor;
  const cuckooAt = (f) => (2 * b * load) / 2 ** f;
  const bloomAt = (bpk) => 0.5 ** (Math.LN2 * bpk);
  let f = 4;
  while (f <= 32 && cuckooAt(f) >= bloomAt(f / load)) f++;
  const bits = f / load;
  const here = (8 * bl.filter.byteLength) / bl.keysIn;
  const winner = ck.theory < bl.theory ? 'cuckoo' : 'Bloom';
  const where = f > 32
    ? `At a load this low the table is mostly empty slots, and no fingerprint width up to 32 bits puts the cuckoo filter ahead; at 90–95 % load it is ahead from about 14–12 bits per key (f = 13–11). `
    : `The cuckoo filter is ahead from f = ${f}: ${bits.toFixed(1)} bits per key, rates below ${pct(cuckooAt(f))}; below that Bloom wins. `;
  return {
    f, load, bits,
    text: `Who wins depends on bits per key. At the cuckoo table's ${(100 * load).toFixed(0)} % load, f-bit fingerprints cost f / ${load.toFixed(2)} bits per key `
      + `for a rate of 2·${b}·${load.toFixed(2)}/2^f, while a Bloom filter of the same bits per key has (1/2)^(ln 2 · bits per key). `
      + where
      + `Here, at ${here.toFixed(1)} bits per key, ${winner} is ahead in theory (${pct(bl.theory)} Bloom, ${pct(ck.theory)} cuckoo). `
      + 'The README\'s measurements at 10⁶ keys agree: a 12-bit cuckoo filter at 95 % load has 0.186 % at 12.63 bits per key, where a Bloom '
      + 'filter of 12.63 bits per key would have about 0.23 %.',
  };
}

async function run() {
  if (running) return;
  running = true;
  $('exp-run').disabled = true;
  const filters = [];
  try {
    const n = integerField('exp-n', 'n keys', 100, 2_000_000);
    const m = integerField('exp-m', 'm probes', 100, 1_000_000);
    const budget = integerField('exp-bytes', 'memory', 64, 64 * 1024 * 1024);
    const steps = integerField('exp-steps', 'steps', 1, 100);
    const kinds = pageKinds();
    const sides = ['left', 'right'].map((side) => {
      const spec = kinds.find((k) => k.kind === $(`exp-${side}`).value);
      if (!spec) throw new Error(`choose a filter for the ${side} side`);
      const filter = fitToMemory(spec, budget, n);
      filters.push(filter);
      return { side, spec, filter, points: [], failed: 0, fp: 0, theory: NaN, keysIn: 0 };
    });
    // Equal memory for real: a cuckoo table is a power of two of buckets, so it may fit less than
    // the budget; then every side gets what the smallest got.
    const common = Math.min(...sides.map((sd) => sd.filter.byteLength));
    for (const sd of sides) {
      if (sd.filter.byteLength > common) {
        sd.filter.free();
        sd.filter = fitToMemory(sd.spec, common, n);
        filters.push(sd.filter);
      }
    }
    const used = sides.map((sd) => sd.filter.byteLength);
    const note = $('exp-memory-note');
    note.textContent = common < budget
      ? `Cuckoo tables come in powers of two: ${bytes(common)} is the most one fits in ${bytes(budget)}, so both filters get ${used.map(bytes).join(' and ')}.`
      : `Both filters get ${used.map(bytes).join(' and ')}.`;
    note.dataset.bytes = used.join(' ');
    $('exp-results').tBodies[0].replaceChildren();
    $('exp-crossover').textContent = '';
    const run = randomHex(10);
    const probes = Array.from({ length: m }, (_, j) => `exp-${run}-out-${j}`);
    const started = performance.now();
    let inserted = 0;
    for (let s = 1; s <= steps; s++) {
      const upTo = Math.round((n * s) / steps);
      const batch = [];
      for (let i = inserted; i < upTo; i++) batch.push(`exp-${run}-in-${i}`);
      inserted = upTo;
      for (const side of sides) {
        const added = side.filter.addAll(batch);
        if (side.spec.kind === 'cuckoo') side.failed += batch.length - added;
        side.keysIn = inserted - side.failed;
        const answers = side.filter.hasAll(probes);
        let fp = 0;
        for (let j = 0; j < answers.length; j++) fp += answers[j];
        side.fp = fp;
        side.theory = statsOf(side.spec, side.filter).theoreticalFpr;
        side.points.push({ x: inserted, measured: fp / m, theory: side.theory, ...wilson(fp, m) });
      }
      drawFprChart($('exp-chart'), {
        xMax: n, yFloor: Math.min(0.5 / m, 1e-4),
        series: sides.map((sd) => ({ label: `${sd.side}: ${sd.spec.label}, ${bytes(sd.filter.byteLength)}`, color: COLORS[sd.side], points: sd.points })),
      });
      for (const sd of sides) renderRow(sd.side, sd.spec, sd.filter, sd.keysIn, m, sd.fp, sd.theory, sd.failed);
      $('exp-chart').setAttribute('aria-label', `False-positive rate as keys go in, ${int(inserted)} of ${int(n)} keys so far: `
        + sides.map((sd) => `${sd.side} ${sd.spec.label}, measured ${pct(sd.fp / m)} (${int(sd.fp)} of ${int(m)} probes), theory ${pct(sd.theory)}`).join('; ') + '.');
      $('exp-progress').value = s / steps;
      $('exp-status').textContent = `step ${s} of ${steps}: ${int(inserted)} keys inserted`;
      await yieldToBrowser();
    }
    $('exp-status').textContent = `done: ${int(n)} keys, ${int(m)} probes per step, ${steps} steps in ${ms(performance.now() - started)}`;
    $('exp-status').dataset.state = 'done';
    // why a cuckoo filter can lose to Bloom at the same memory: its rate is set by the fingerprint
    // width and the load, not by the memory alone
    const why = sides.filter((sd) => sd.spec.kind === 'cuckoo').map((sd) => {
      const i = sd.filter.info();
      const load = sd.filter.loadFactor;
      return `${sd.side} Cuckoo: a check compares the key's ${i.fingerprintBits}-bit fingerprint with 2 × ${i.bucketSize} slots at `
        + `${(load * 100).toFixed(0)} % load, each matching by chance 1 in ${int(2 ** i.fingerprintBits - 1)}: ≈ 2·${i.bucketSize}·${load.toFixed(2)}/${int(2 ** i.fingerprintBits - 1)} = ${pct(sd.theory)}. `
        + 'In the same memory, wider fingerprints mean fewer slots (a higher load), so the fingerprint width that fits the keys sets the rate.';
    });
    $('exp-memory-note').textContent += why.length ? ` ${why.join(' ')}` : '';
    const cross = crossover(sides);
    $('exp-crossover').textContent = cross?.text ?? '';
    if (cross) Object.assign($('exp-crossover').dataset, { bits: String(cross.bits), f: String(cross.f), load: String(cross.load) });
    const full = sides.filter((sd) => sd.failed > 0);
    if (full.length) {
      showError($('exp-error'), { code: 'FULL', message: full.map((sd) => `the ${sd.side} ${sd.spec.label} filter filled up: ${int(sd.failed)} keys rejected (give it more memory or fewer keys)`).join('; ') });
    }
  } finally {
    for (const f of filters) f.free();
    running = false;
    $('exp-run').disabled = false;
  }
}

export function setupExperiment() {
  const kinds = pageKinds().filter((k) => EXPERIMENT_KINDS.includes(k.kind));
  for (const side of ['left', 'right']) {
    const sel = $(`exp-${side}`);
    for (const k of kinds) sel.append(new Option(k.label, k.kind));
  }
  // default pair: Bloom vs Cuckoo, else Bloom vs Blocked, else whatever exists
  const has = (k) => kinds.some((x) => x.kind === k);
  $('exp-left').value = kinds[0]?.kind ?? '';
  $('exp-right').value = has('cuckoo') ? 'cuckoo' : has('blocked') ? 'blocked' : (kinds[1] ?? kinds[0])?.kind ?? '';
  enterClicks($('exp-n').closest('.row'), $('exp-run'));
  $('exp-run').addEventListener('click', () => {
    $('exp-status').dataset.state = 'running';
    guard($('exp-error'), run).then(() => {
      if ($('exp-status').dataset.state !== 'done') {
        // nothing of an earlier run stays on show next to the message
        $('exp-status').dataset.state = 'failed';
        $('exp-status').textContent = 'not run: see the message below';
        $('exp-results').tBodies[0].replaceChildren();
        $('exp-memory-note').textContent = '';
        $('exp-crossover').textContent = '';
        delete $('exp-memory-note').dataset.bytes;
        $('exp-progress').value = 0;
        drawFprChart($('exp-chart'), { xMax: 20000, yFloor: 1e-4, series: [] });
      }
    });
  });
  drawFprChart($('exp-chart'), { xMax: 20000, yFloor: 1e-4, series: [] });
  onWidthChange($('exp-chart'), () => drawFprChart($('exp-chart'), $('exp-chart').chartData));
}
