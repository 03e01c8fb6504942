// "Watch them fill": a Bloom filter's false-positive rate as keys go in (sliders for m, k and n
// redraw the formula's curve while dragged; Fill adds real keys and measures the rate live), and a
// cuckoo filter filled to the brim, one key at a time, with the kicks each insert needed plotted
// against the load: nearly none until the table is about 90 % full, then a cliff.
import { BloomFilter, CuckooFilter } from './lib.js';
import { drawFrame } from './chart.js';
import { replayAdd } from './cuckoo-model.js';
import { bloomFpr } from './filters.js';
import { $, fitCanvas, guard, int, onWidthChange, pct } from './ui.js';

export const FILL_PROBES = 2000;   // keys never added, probed after every chunk
export const fillKey = (i) => `fill-${i}`;
export const probeKey = (j) => `probe-${j}`;
export const CUCKOO_FILL = { capacity: 1900, bucketSize: 4, expansion: 0, maxIterations: 500 };   // 512 buckets of 4

const M_STEPS = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];
const PAD = { left: 64, right: 16, top: 14, bottom: 44 };
const nextFrame = () => new Promise((r) => requestAnimationFrame(r));

/** A cleared chart canvas at its on-screen size, and its plot's width and height inside PAD. */
function startChart(canvas) {
  const { ctx, W, H } = fitCanvas(canvas, 0.42, 300, 220);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  return { ctx, W, H, plotW: W - PAD.left - PAD.right, plotH: H - PAD.top - PAD.bottom };
}

/** The sliders' values: m bits, k hashes, n keys. */
function shape() {
  const m = M_STEPS[Number($('fill-m').value)];
  const k = Number($('fill-k').value);
  const n = Math.round((Number($('fill-n').value) / 100) * m);
  return { m, k, n };
}

let measured = [];   // [{ n, rate }] of the last fill, drawn as dots while its shape is kept
let measuredShape = '';
let running = 0;     // a fill in progress (its token)

/** The Bloom chart: the formula's curve for n from 0 to the slider's n, and the dots measured. */
function drawBloomChart() {
  const { m, k, n } = shape();
  const canvas = $('fill-bloom-chart');
  const { ctx, W, H, plotW, plotH } = startChart(canvas);
  const xMax = Math.max(1, n);
  const xOf = (x) => PAD.left + (x / xMax) * plotW;
  // linear, from 0 to a round rate above the curve's end and the dots: the climb is the point
  const dots = measuredShape === `${m} ${k}` ? measured.filter((d) => d.n <= xMax) : [];
  const top = Math.max(bloomFpr(xMax, m, k), ...dots.map((d) => d.rate)) * 1.1;
  const yMax = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1].find((v) => v >= top) ?? 1;
  const yOf = (p) => PAD.top + plotH - Math.min(1, p / yMax) * plotH;
  drawFrame(ctx, {
    W, H, pad: PAD,
    xTicks: [0, 0.25, 0.5, 0.75, 1].map((f) => ({ at: xOf(f * xMax), label: int(Math.round(f * xMax)) })),
    yTicks: [0, 0.25, 0.5, 0.75, 1].map((f) => ({ at: yOf(f * yMax), label: `${+(f * yMax * 100).toPrecision(3)} %` })),
    xTitle: 'keys added', yTitle: 'false-positive rate',
  });
  ctx.strokeStyle = '#2563eb';
  ctx.lineWidth = 2.5;
  ctx.beginPath();
  const samples = Math.min(200, Math.max(2, n));
  for (let s = 0; s <= samples; s++) {
    const x = (s / samples) * xMax;
    const y = yOf(bloomFpr(x, m, k));
    if (s === 0) ctx.moveTo(xOf(x), y); else ctx.lineTo(xOf(x), y);
  }
  ctx.stroke();
  ctx.fillStyle = '#a84a00';
  for (const d of dots) { ctx.beginPath(); ctx.arc(xOf(d.n), yOf(d.rate), 3.5, 0, Math.PI * 2); ctx.fill(); }
  const atN = bloomFpr(n, m, k);
  Object.assign(canvas.dataset, { m: String(m), k: String(k), n: String(n), theoryAtN: String(atN), dots: String(dots.length) });
  canvas.setAttribute('aria-label', `Bloom filter of ${m} bits, k = ${k}: the formula's false-positive rate climbs to ${pct(atN)} at ${int(n)} keys.`
    + (dots.length ? ` ${dots.length} measured points, the last ${pct(dots.at(-1).rate)}.` : ''));
  $('fill-shape').textContent = `m = ${int(m)} bits, k = ${k}, n = ${int(n)} keys (${(m / Math.max(1, n)).toFixed(1)} bits per key): `
    + `the formula (1 − e^(−kn/m))^k gives ${pct(atN)}; the best k for this m/n is ${Math.max(1, Math.round((m / Math.max(1, n)) * Math.LN2))}.`;
}

/** Adds the slider's n keys to a real Bloom filter in chunks, probing FILL_PROBES others after each. */
async function fillBloom() {
  const token = ++running;
  const { m, k, n } = shape();
  const f = new BloomFilter({ bits: m, hashes: k });
  const probes = Array.from({ length: FILL_PROBES }, (_, j) => probeKey(j));
  measured = [];
  measuredShape = `${m} ${k}`;
  const live = $('fill-live');
  try {
    const chunk = Math.max(1, Math.ceil(n / 40));
    for (let i = 0; i < n && token === running; i += chunk) {
      const keys = Array.from({ length: Math.min(chunk, n - i) }, (_, j) => fillKey(i + j));
      f.addAll(keys);
      const fp = f.hasAll(probes).reduce((a, b) => a + b, 0);
      const at = i + keys.length;
      measured.push({ n: at, rate: fp / FILL_PROBES });
      live.textContent = `${int(at)} keys in: ${int(fp)} of ${int(FILL_PROBES)} keys never added answer “maybe present”, ${pct(fp / FILL_PROBES)} (the formula: ${pct(bloomFpr(at, m, k))}).`;
      Object.assign(live.dataset, { keys: String(at), fp: String(fp) });
      drawBloomChart();
      await nextFrame();
    }
  } finally {
    f.free();
  }
}

/** The cuckoo chart: kicks per insert against the load, one dot per key. */
function drawCuckooChart(points, capacity) {
  const canvas = $('fill-cuckoo-chart');
  const { ctx, W, H, plotW, plotH } = startChart(canvas);
  const yMax = Math.max(10, ...points.map((p) => p.kicks));
  const xOf = (load) => PAD.left + load * plotW;
  const yOf = (kicks) => PAD.top + plotH - (kicks / yMax) * plotH;
  const step = yMax > 200 ? 100 : yMax > 40 ? 20 : yMax > 20 ? 5 : 2;
  drawFrame(ctx, {
    W, H, pad: PAD,
    xTicks: [0, 0.2, 0.4, 0.6, 0.8, 1].map((l) => ({ at: xOf(l), label: `${l * 100} %` })),
    yTicks: Array.from({ length: Math.floor(yMax / step) + 1 }, (_, i) => ({ at: yOf(i * step), label: String(i * step) })),
    xTitle: 'load (slots taken)', yTitle: 'kicks for this insert',
  });
  for (const p of points) {
    ctx.fillStyle = p.failed ? '#dc2626' : '#a84a00';
    ctx.beginPath();
    ctx.arc(xOf(p.load), yOf(p.kicks), p.failed ? 5 : 2.5, 0, Math.PI * 2);
    ctx.fill();
  }
  canvas.dataset.points = String(points.length);
  canvas.dataset.capacity = String(capacity);
}

/** Fills a cuckoo filter one key at a time until an insert fails, plotting each insert's kicks. */
async function fillCuckoo() {
  const token = ++running;
  const f = new CuckooFilter({ ...CUCKOO_FILL, fingerprintBits: Number($('fill-fp').value) });
  const slots = f.info().buckets * f.info().bucketSize;
  const points = [];
  const status = $('fill-cuckoo-status');
  status.dataset.state = 'running';
  try {
    for (let i = 0; token === running; i++) {
      const key = fillKey(i);
      const r = replayAdd(f, key);   // the chain the add will play, move by move (cuckoo-model.js)
      const ok = f.add(key);
      points.push({ load: (f.size + (ok ? 0 : 1)) / slots, kicks: ok ? r.kicks : r.moves.length, failed: !ok });
      if (!ok || i % 48 === 47) {
        drawCuckooChart(points, slots);
        status.textContent = ok ? `${int(f.size)} keys, ${pct(f.size / slots)} of ${int(slots)} slots…`
          : `The ${int(i + 1)}th key found no free slot after ${int(CUCKOO_FILL.maxIterations)} kicks: the filter is full at ${pct(f.size / slots)} load`
            + ` (${int(f.size)} keys). Below ~90 % almost every key went straight in; the kicks pile up only near the end.`;
        await nextFrame();
      }
      if (!ok) {
        Object.assign(status.dataset, { state: 'full', keys: String(f.size), slots: String(slots) });
        const kicks = points.filter((p) => !p.failed);
        const mean = (ps) => ps.reduce((a, p) => a + p.kicks, 0) / Math.max(1, ps.length);
        status.dataset.meanBelowHalf = String(mean(kicks.filter((p) => p.load < 0.5)));
        status.dataset.meanAbove90 = String(mean(kicks.filter((p) => p.load >= 0.9)));
        return;
      }
    }
  } finally {
    f.free();
  }
}

export function setupFill() {
  const err = $('fill-error');
  for (const id of ['fill-m', 'fill-k', 'fill-n']) {
    // input fires on every step of a drag: the curve follows the thumb
    $(id).addEventListener('input', () => guard(err, () => { running++; showSliders(); drawBloomChart(); }));
  }
  $('fill-bloom-run').addEventListener('click', () => guard(err, fillBloom));
  $('fill-cuckoo-run').addEventListener('click', () => guard(err, fillCuckoo));
  showSliders();
  drawBloomChart();
  drawCuckooChart([], 0);
  onWidthChange($('fill-bloom-chart'), drawBloomChart);
}

function showSliders() {
  const { m, k, n } = shape();
  $('fill-m-text').textContent = `${int(m)} bits`;
  $('fill-k-text').textContent = String(k);
  $('fill-n-text').textContent = `${int(n)} keys`;
  $('fill-m').setAttribute('aria-valuetext', `${m} bits`);
  $('fill-n').setAttribute('aria-valuetext', `${n} keys`);
}
