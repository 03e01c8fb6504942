// "Space against error" (#space). Every filter class, several settings each, built on the same n
// keys and probed with the same m other keys; measured bits per key against the measured
// false-positive rate on one chart, next to 1.44·log2(1/ε) and log2(1/ε). The work is cut into
// slices of about 25 ms (adds and checks in chunks of 4,096 keys), so the page keeps painting
// and answering while it runs; the longest slice is reported.
import { pageKinds } from './filters.js';
import { CURVES, drawSpaceChart } from './space-chart.js';
import { $, bytes, enterClicks, guard, int, ms, onWidthChange, pct, yieldToBrowser } from './ui.js';

const CHUNK = 4096;
const SLICE_MS = 25;
const TARGETS = [0.1, 0.03, 0.01, 0.003, 0.001, 0.0003];
const STYLE = {
  bloom: ['#2563eb', 'circle', '●'], blocked: ['#7c3aed', 'square', '■'], counting: ['#6b7280', 'triangle', '▲'],
  scalable: ['#0891b2', 'diamond', '◆'], cuckoo: ['#dc2626', 'cross', '✚'], fuse: ['#16a34a', 'down', '▼'],
};
let running = false;
let results = [];   // { spec, setting, bytes, bitsPerKey, fp, probes, fpr, load }

/** The settings each class is measured at: error-rate targets, or the fingerprint widths. */
function settingsOf(spec) {
  if (spec.kind === 'cuckoo') return [8, 12, 16].map((f) => ({ label: `f = ${f}`, options: { fingerprintBits: f } }));
  if (spec.kind === 'fuse') return [8, 16].map((f) => ({ label: `f = ${f}`, options: { fingerprintBits: f } }));
  return TARGETS.map((e) => ({ label: `ε = ${pct(e)}`, options: { errorRate: e } }));
}

/** Keys `${prefix}${i}` for i < n, made in chunks (a generator step per chunk). */
function* makeKeys(prefix, n, out) {
  for (let i = 0; i < n; i += CHUNK) {
    for (let j = i; j < Math.min(n, i + CHUNK); j++) out.push(prefix + j);
    yield;
  }
}

/** Builds one filter from `keys`, probes it with `probes`: a generator step per chunk. */
function* measure(spec, setting, keys, probes, out) {
  const n = keys.length;
  let f;
  if (spec.static) {
    f = spec.Class.build(keys, setting.options);   // one call: under ~50 ms up to 200,000 keys
    yield;
  } else {
    f = new spec.Class({ capacity: n, ...setting.options });
    for (let i = 0; i < n; i += CHUNK) { f.addAll(keys.slice(i, i + CHUNK)); yield; }
  }
  try {
    let fp = 0;
    for (let j = 0; j < probes.length; j += CHUNK) {
      const answers = f.hasAll(probes.slice(j, j + CHUNK));
      for (let a = 0; a < answers.length; a++) fp += answers[a];
      yield;
    }
    const info = f.info();
    out.push({ spec, setting: setting.label, bytes: f.byteLength, bitsPerKey: (8 * f.byteLength) / n, fp, probes: probes.length,
      fpr: fp / probes.length, load: spec.kind === 'cuckoo' ? info.loadFactor : null });
  } finally {
    f.free();
  }
}

/** Runs generator steps in slices of about SLICE_MS, yielding to the browser between slices. */
async function runSliced(steps, onSlice) {
  let longest = 0;
  let t0 = performance.now();
  for (const _ of steps) {
    const now = performance.now();
    if (now - t0 >= SLICE_MS) {
      longest = Math.max(longest, now - t0);
      onSlice();
      await yieldToBrowser();
      t0 = performance.now();
    }
  }
  return Math.max(longest, performance.now() - t0);
}

function integerField(id, name, min, max) {
  const raw = $(id).value.trim();
  const v = Number(raw);
  if (!Number.isSafeInteger(v) || v < min || v > max) throw new RangeError(`${name} must be an integer from ${int(min)} to ${int(max)}, got "${raw}"`);
  return v;
}

const shownKinds = () => new Set([...document.querySelectorAll('#space-legend input:checked')].map((c) => c.value));

function draw(probes) {
  const kinds = shownKinds();
  const series = [];
  for (const r of results) {
    if (!kinds.has(r.spec.kind)) continue;
    let s = series.find((x) => x.kind === r.spec.kind);
    if (!s) {
      const [color, shape] = STYLE[r.spec.kind];
      s = { kind: r.spec.kind, label: r.spec.label, color, shape, points: [] };
      series.push(s);
    }
    s.points.push({ fpr: r.fpr, bitsPerKey: r.bitsPerKey });
  }
  drawSpaceChart($('space-chart'), { floor: 1 / (probes || 1e5), series });
  $('space-chart').setAttribute('aria-label', results.length
    ? `Chart of bits per key against measured false-positive rate for ${series.map((s) => s.label).join(', ')}, with the curves ${CURVES.map((c) => c.label).join(' and ')}. The table below lists every point.`
    : 'Empty chart: run the measurement to fill it.');
}

function renderTable() {
  const tbody = $('space-results').tBodies[0];
  tbody.replaceChildren();
  for (const r of results) {
    const row = tbody.insertRow();
    row.dataset.kind = r.spec.kind;
    row.dataset.setting = r.setting;
    row.dataset.bytes = String(r.bytes);
    row.dataset.fp = String(r.fp);
    row.dataset.probes = String(r.probes);
    const [color, , glyph] = STYLE[r.spec.kind];
    const bound = r.fp > 0 ? r.bitsPerKey / Math.log2(1 / r.fpr) : NaN;
    const cells = [`<span style="color:${color}">${glyph}</span> ${r.spec.label}`, r.setting, bytes(r.bytes), r.bitsPerKey.toFixed(2),
      r.load === null ? '—' : `${(r.load * 100).toFixed(0)} %`, int(r.fp), r.fp ? pct(r.fpr) : `< ${pct(1 / r.probes)}`,
      Number.isFinite(bound) ? `${bound.toFixed(2)}×` : '—'];
    for (const html of cells) row.insertCell().innerHTML = html;
  }
}

function clearOld(note) {
  results = [];
  renderTable();
  draw(0);
  $('space-status').textContent = note;
  $('space-progress').value = 0;
}

async function run() {
  if (running) return;
  running = true;
  $('space-run').disabled = true;
  const status = $('space-status');
  try {
    const n = integerField('space-n', 'n keys', 1000, 200_000);
    const m = integerField('space-m', 'm probes', 1000, 1_000_000);
    clearOld('making keys…');
    const kinds = pageKinds();
    const keys = [];
    const probes = [];
    const jobs = kinds.flatMap((spec) => settingsOf(spec).map((setting) => ({ spec, setting })));
    const started = performance.now();
    let done = 0;
    function* all() {
      yield* makeKeys('space-in-', n, keys);
      yield* makeKeys('space-out-', m, probes);
      for (const { spec, setting } of jobs) {
        status.textContent = `${spec.label}, ${setting.label}: ${done + 1} of ${jobs.length} filters`;
        yield* measure(spec, setting, keys, probes, results);
        done++;
      }
    }
    const longest = await runSliced(all(), () => {
      $('space-progress').value = done / jobs.length;
      if (results.length) { draw(m); renderTable(); }
    });
    $('space-progress').value = 1;
    draw(m);
    renderTable();
    status.textContent = `done: ${jobs.length} filters, ${int(n)} keys each, ${int(m)} probes each, in ${ms(performance.now() - started)}; `
      + `the longest stretch without a paint was ${ms(longest)}.`;
    status.dataset.state = 'done';
    status.dataset.longest = String(longest);
  } finally {
    running = false;
    $('space-run').disabled = false;
  }
}

export function setupSpace() {
  const legend = $('space-legend');
  for (const spec of pageKinds()) {
    const [color, , glyph] = STYLE[spec.kind] ?? ['#111', 'circle', '●'];
    const label = document.createElement('label');
    // counting Bloom (4-bit counters, four times a Bloom filter's bits) starts hidden: on the same
    // axis it squashed every other class into the bottom quarter; one tick shows it
    const on = spec.kind !== 'counting';
    label.innerHTML = `<input type="checkbox" value="${spec.kind}"${on ? ' checked' : ''}> <span style="color:${color}">${glyph}</span> ${spec.label}${on ? '' : ' (4× the bits: tick to show)'}`;
    legend.append(label);
  }
  legend.addEventListener('change', () => draw(results[0]?.probes ?? 0));
  enterClicks($('space-n').closest('.row'), $('space-run'));
  $('space-run').addEventListener('click', () => {
    $('space-status').dataset.state = 'running';
    guard($('space-error'), run).then(() => {
      const status = $('space-status');
      if (status.dataset.state !== 'done') {
        // a failed run leaves nothing of the previous one on show
        clearOld('not run: see the message below');
        status.dataset.state = 'failed';
      }
    });
  });
  draw(0);
  onWidthChange($('space-chart'), () => draw(results[0]?.probes ?? 0));
}

