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
const PAD = { left: 78, right: 16, top: 14, bottom: 44 };   // left: tick labels clear of the axis title
const nextFrame = () => new Promise((r) => requestAnimationFrame(r));

/** A cleared chart canvas at its on-screen size, and its plot's width and height inside PAD. */
function startChart(canvas) {
  const { ctx, W, H } = fitCanvas(canvas, 0.42, 300, 220);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  return { ctx, W, H, plotW: W - PAD.left - PAD.right, plotH: H - PAD.top - PAD.bottom };
}

/** The n slider's step v: round(2^(v/2)) keys, so every two steps double n (20: 1,024). */
export const nOfStep = (v) => Math.round(2 ** (v / 2));

/** The sliders' values, each its own: m bits, k hashes, n keys (more bits at the same keys: a lower rate). */
function shape() {
  const m = M_STEPS[Number($('fill-m').value)];
  const k = Number($('fill-k').value);
  const n = nOfStep(Number($('fill-n').value));
  return { m, k, n };
}

/**
 * The Wilson score interval (95 %, z = 1.96) of `hits` out of `trials`: where the true rate lies,
 * given what was measured (it stays inside 0…1 and is not empty at 0 hits, unlike p ± 1.96·σ).
 */
export function wilson(hits, trials, z = 1.959964) {
  const p = hits / trials;
  const den = 1 + (z * z) / trials;
  const mid = (p + (z * z) / (2 * trials)) / den;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / den;
  return { lo: Math.max(0, mid - half), hi: Math.min(1, mid + half) };
}

let measured = [];   // [{ n, rate, fp, probes, lo, hi }] of the last fill, drawn as dots while its shape is kept
let measuredShape = '';
let running = 0;     // a fill in progress (its token)
let scrubAt = null;  // the timeline: show the fill as it was after this many chunks (null: all)

/** The Bloom chart: the formula's curve for n from 0 to the slider's n, and the dots measured. */
function drawBloomChart() {
  const { m, k, n } = shape();
  const canvas = $('fill-bloom-chart');
  const { ctx, W, H, plotW, plotH } = startChart(canvas);
  const xMax = Math.max(1, n);
  const xOf = (x) => PAD.left + (x / xMax) * plotW;
  // linear, from 0 to a round rate above the curve's end and the dots: the climb is the point
  const dots = measuredShape === `${m} ${k}` ? measured.slice(0, scrubAt ?? measured.length).filter((d) => d.n <= xMax) : [];
  const top = Math.max(bloomFpr(xMax, m, k), ...dots.map((d) => d.hi)) * 1.1;
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
  // each measured rate with its 95 % interval (Wilson): 2,000 probes pin a rate down only so far
  ctx.strokeStyle = '#a84a00';
  ctx.fillStyle = '#a84a00';
  ctx.lineWidth = 1.5;
  for (const d of dots) {
    const x = xOf(d.n);
    ctx.beginPath();
    ctx.moveTo(x, yOf(d.lo)); ctx.lineTo(x, yOf(d.hi));
    ctx.moveTo(x - 3, yOf(d.lo)); ctx.lineTo(x + 3, yOf(d.lo));
    ctx.moveTo(x - 3, yOf(d.hi)); ctx.lineTo(x + 3, yOf(d.hi));
    ctx.stroke();
    ctx.beginPath(); ctx.arc(x, yOf(d.rate), 3.5, 0, Math.PI * 2); ctx.fill();
  }
  const atN = bloomFpr(n, m, k);
  Object.assign(canvas.dataset, { m: String(m), k: String(k), n: String(n), theoryAtN: String(atN), dots: String(dots.length),
    intervals: JSON.stringify(dots.map(({ n: at, fp, probes, lo, hi }) => ({ n: at, fp, probes, lo, hi }))) });
  canvas.setAttribute('aria-label', `Bloom filter of ${m} bits, k = ${k}: the formula's false-positive rate climbs to ${pct(atN)} at ${int(n)} keys.`
    + (dots.length ? ` ${dots.length} measured points, the last ${pct(dots.at(-1).rate)}.` : ''));
  $('fill-shape').textContent = `m = ${int(m)} bits, k = ${k}, n = ${int(n)} keys (${(m / Math.max(1, n)).toFixed(1)} bits per key): `
    + `the formula (1 − e^(−kn/m))^k gives ${pct(atN)}. Double m and the same keys set half as many of the bits: the rate drops.`;
  drawKChart(m, n, k);
}

/**
 * The rate against k at the sliders' m and n: a U. Few hashes: a stranger needs to hit only a few
 * set bits. Many: every key sets more bits, the filter fills up. The bottom is at k = (m/n)·ln 2,
 * where half the bits are set, which gives the 1.44 factor of bits per key.
 */
function drawKChart(m, n, kNow) {
  const canvas = $('fill-k-chart');
  const { ctx, W, H } = fitCanvas(canvas, 0.42, 240, 200);
  const pad = PAD;
  const plotW = W - pad.left - pad.right;
  const plotH = H - pad.top - pad.bottom;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  const K = 16;
  const curve = Array.from({ length: K }, (_, i) => bloomFpr(n, m, i + 1));
  const best = curve.indexOf(Math.min(...curve)) + 1;
  const lo = Math.max(1e-9, Math.min(...curve));
  const hi = Math.max(...curve);
  // a log scale: the bottom of the U is orders of magnitude below its arms when m/n is large
  const [a, b] = [Math.floor(Math.log10(lo)), Math.max(Math.floor(Math.log10(lo)) + 1, Math.ceil(Math.log10(hi)))];
  const xOf = (k) => pad.left + ((k - 1) / (K - 1)) * plotW;
  const yOf = (p) => pad.top + plotH - ((Math.log10(Math.max(p, 1e-12)) - a) / (b - a)) * plotH;
  drawFrame(ctx, {
    W, H, pad,
    xTicks: [1, 2, 4, 6, 8, 10, 12, 14, 16].map((k) => ({ at: xOf(k), label: String(k) })),
    yTicks: Array.from({ length: b - a + 1 }, (_, i) => ({ at: yOf(10 ** (a + i)), label: `${+(100 * 10 ** (a + i)).toPrecision(2)} %` })),
    xTitle: 'k, hashes per key', yTitle: 'false-positive rate',
  });
  ctx.strokeStyle = '#2563eb';
  ctx.lineWidth = 2.5;
  ctx.beginPath();
  curve.forEach((p, i) => (i ? ctx.lineTo(xOf(i + 1), yOf(p)) : ctx.moveTo(xOf(1), yOf(p))));
  ctx.stroke();
  const kStar = (m / n) * Math.LN2;
  if (kStar >= 1 && kStar <= K) {   // the optimum (m/n)·ln 2, dashed
    ctx.strokeStyle = '#0a7a3d';
    ctx.setLineDash([5, 4]);
    ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.moveTo(xOf(kStar), pad.top); ctx.lineTo(xOf(kStar), pad.top + plotH); ctx.stroke();
    ctx.setLineDash([]);
  }
  for (let k = 1; k <= K; k++) {
    ctx.fillStyle = k === kNow ? '#a84a00' : k === best ? '#0a7a3d' : '#2563eb';
    ctx.beginPath(); ctx.arc(xOf(k), yOf(curve[k - 1]), k === kNow ? 6 : 3.5, 0, Math.PI * 2); ctx.fill();
  }
  Object.assign(canvas.dataset, { bestK: String(best), curve: curve.join(' '), k: String(kNow) });
  canvas.setAttribute('aria-label', `False-positive rate against k at m = ${m} bits, n = ${n} keys: ${curve.map((p, i) => `k ${i + 1}: ${pct(p)}`).join(', ')}. Lowest at k = ${best}.`);
  const bpk = m / n;
  const half = (1 - Math.exp((-best * n) / m));
  $('fill-k-why').innerHTML = '';
  $('fill-k-why').append(
    `At ${bpk.toFixed(1)} bits per key the rate is lowest at k = ${best} (${pct(curve[best - 1])}); you have k = ${kNow} (${pct(curve[kNow - 1])}). `
    + 'Too few hashes: a key never added has to find only a few set bits. Too many: every key sets more bits, so more of them are 1. '
    + `The bottom is at k = (m/n)·ln 2 = ${bpk.toFixed(2)} × 0.693 = ${kStar.toFixed(2)} (dashed), where half the bits are set `
    + `(here ${(100 * half).toFixed(0)} %), and the rate is (1/2)^k = 0.6185^(m/n). `
    + 'Turned round: a rate ε needs m/n = log2(1/ε) / ln 2 = 1.44 · log2(1/ε) bits per key, 1.44 times the lower bound log2(1/ε) that no filter beats (section 6).',
  );
}

/** Adds the slider's n keys to a real Bloom filter in chunks, probing FILL_PROBES others after each. */
async function fillBloom() {
  const token = ++running;
  const { m, k, n } = shape();
  const f = new BloomFilter({ bits: m, hashes: k });
  scrubAt = null;
  $('fill-scrub-row').hidden = true;
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
      const { lo, hi } = wilson(fp, FILL_PROBES);
      measured.push({ n: at, rate: fp / FILL_PROBES, fp, probes: FILL_PROBES, lo, hi });
      live.textContent = `${int(at)} keys in: ${int(fp)} of ${int(FILL_PROBES)} keys never added answer “maybe present”, ${pct(fp / FILL_PROBES)} `
        + `(95 % interval ${pct(lo)} to ${pct(hi)}: the bar on each dot); the formula: ${pct(bloomFpr(at, m, k))}.`;
      Object.assign(live.dataset, { keys: String(at), fp: String(fp) });
      drawBloomChart();
      await nextFrame();
    }
    if (token === running) {   // done: the timeline drags back and forth through the fill
      const scrub = $('fill-scrub');
      scrub.max = String(measured.length);
      scrub.value = String(measured.length);
      $('fill-scrub-row').hidden = false;
    }
  } finally {
    f.free();
  }
}

/** The fill's timeline: the chart and the live line as they were after `i` chunks. */
function scrubFill(i) {
  scrubAt = i;
  const d = measured[i - 1];
  if (!d) return;
  const { m, k } = shape();
  const live = $('fill-live');
  live.textContent = `${int(d.n)} keys in: ${int(d.fp)} of ${int(d.probes)} keys never added answer “maybe present”, ${pct(d.rate)} `
    + `(95 % interval ${pct(d.lo)} to ${pct(d.hi)}); the formula: ${pct(bloomFpr(d.n, m, k))}.`;
  Object.assign(live.dataset, { keys: String(d.n), fp: String(d.fp) });
  $('fill-scrub').setAttribute('aria-valuetext', `${d.n} keys`);
  drawBloomChart();
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

let cuckooRun = null;   // the last fill to the brim: { points, slots }, for its timeline

/** The brim fill's timeline: the chart as it was after `i` inserts, the last one described. */
function scrubCuckoo(i) {
  if (!cuckooRun) return;
  const { points, slots } = cuckooRun;
  const n = Math.max(1, Math.min(points.length, i));
  drawCuckooChart(points.slice(0, n), slots);
  const p = points[n - 1];
  const el = $('fill-cuckoo-scrub-text');
  el.textContent = p.failed ? `insert ${int(n)}: no free slot after ${int(p.kicks)} moves, full at ${pct(p.load)} load`
    : `insert ${int(n)}: ${int(p.kicks)} kick${p.kicks === 1 ? '' : 's'} at ${pct(p.load)} load`;
  el.dataset.insert = String(n);
  el.dataset.kicks = String(p.kicks);
  $('fill-cuckoo-scrub').setAttribute('aria-valuetext', el.textContent);
}

/** Fills a cuckoo filter one key at a time until an insert fails, plotting each insert's kicks. */
async function fillCuckoo() {
  const token = ++running;
  const f = new CuckooFilter({ ...CUCKOO_FILL, fingerprintBits: Number($('fill-fp').value) });
  const slots = f.info().buckets * f.info().bucketSize;
  const points = [];
  const status = $('fill-cuckoo-status');
  status.dataset.state = 'running';
  $('fill-cuckoo-scrub-row').hidden = true;
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
        cuckooRun = { points, slots };
        const scrub = $('fill-cuckoo-scrub');
        scrub.max = String(points.length);
        scrub.value = String(points.length);
        $('fill-cuckoo-scrub-row').hidden = false;
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
    $(id).addEventListener('input', () => guard(err, () => { running++; scrubAt = null; $('fill-scrub-row').hidden = true; showSliders(); drawBloomChart(); }));
  }
  $('fill-bloom-run').addEventListener('click', () => guard(err, fillBloom));
  $('fill-scrub').addEventListener('input', () => guard(err, () => scrubFill(Number($('fill-scrub').value))));
  $('fill-cuckoo-run').addEventListener('click', () => guard(err, fillCuckoo));
  $('fill-cuckoo-scrub').addEventListener('input', () => guard(err, () => scrubCuckoo(Number($('fill-cuckoo-scrub').value))));
  showSliders();
  drawBloomChart();
  drawCuckooChart([], 0);
  onWidthChange($('fill-bloom-chart'), drawBloomChart);
  onWidthChange($('fill-k-chart'), drawBloomChart);
}

function showSliders() {
  const { m, k, n } = shape();
  $('fill-m-text').textContent = `${int(m)} bits`;
  $('fill-k-text').textContent = String(k);
  $('fill-n-text').textContent = `${int(n)} keys`;
  $('fill-m').setAttribute('aria-valuetext', `${m} bits`);
  $('fill-n').setAttribute('aria-valuetext', `${n} keys`);
  $('fill-k').setAttribute('aria-valuetext', `${k} hashes`);
}
