// A small line chart on a canvas: x = keys inserted, y = false-positive rate on a log scale;
// theoretical curves as lines, measured values as dots (zero measurements as hollow marks on
// the bottom axis).

import { fitCanvas, fitText } from './ui.js';

const PAD = { left: 80, right: 16, top: 20, bottom: 48 };   // left: tick labels clear of the axis title

function niceTicks(max, count = 6) {
  if (!(max > 0)) return [0];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((s) => s * mag).find((s) => s >= raw);
  const ticks = [];
  for (let v = 0; v <= max + step * 1e-9; v += step) ticks.push(v);
  return ticks;
}

const fmtCount = (v) => (v >= 1000 ? `${+(v / 1000).toFixed(1)}k` : String(+v.toFixed(0)));
const fmtRate = (p) => (p >= 0.01 ? `${+(p * 100).toFixed(0)} %` : `${+(p * 100).toPrecision(1)} %`).replace('e', 'e');

/**
 * The grid, tick labels, axes and axis titles of a chart whose plot is `pad` inside W × H.
 * Ticks: { at (px), label } (label '' for a grid line without one); an x label near the right
 * edge is kept inside the canvas.
 */
export function drawFrame(ctx, { W, H, pad, xTicks, yTicks, xTitle, yTitle }) {
  const plotW = W - pad.left - pad.right;
  const plotH = H - pad.top - pad.bottom;
  ctx.strokeStyle = '#e5e7eb';
  ctx.fillStyle = '#4b5563';
  ctx.lineWidth = 1;
  ctx.font = '12px system-ui, sans-serif';
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const { at, label } of yTicks) {
    ctx.beginPath(); ctx.moveTo(pad.left, at); ctx.lineTo(pad.left + plotW, at); ctx.stroke();
    if (label) ctx.fillText(label, pad.left - 6, at);
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const { at, label } of xTicks) {
    ctx.beginPath(); ctx.moveTo(at, pad.top); ctx.lineTo(at, pad.top + plotH); ctx.stroke();
    if (label) ctx.fillText(label, Math.min(at, W - ctx.measureText(label).width / 2 - 2), pad.top + plotH + 6);
  }
  ctx.strokeStyle = '#374151';
  ctx.beginPath();
  ctx.moveTo(pad.left, pad.top); ctx.lineTo(pad.left, pad.top + plotH); ctx.lineTo(pad.left + plotW, pad.top + plotH);
  ctx.stroke();
  ctx.fillStyle = '#111827';
  ctx.font = '13px system-ui, sans-serif';
  ctx.textBaseline = 'alphabetic';
  ctx.fillText(xTitle, pad.left + plotW / 2, H - 10);
  ctx.save();
  ctx.translate(13, pad.top + plotH / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = 'middle';
  ctx.fillText(yTitle, 0, 0);
  ctx.restore();
}

/**
 * A series' theory curve. Below the floor (10^lo) the line is not drawn (it would look like zero);
 * where it comes back it enters from the axis, at the point where the line between the two
 * points crosses the floor in log space.
 */
function drawTheory(ctx, s, xOf, yOf, lo) {
  ctx.strokeStyle = s.color;
  ctx.lineWidth = 2;
  ctx.beginPath();
  let started = false;
  let prev = null;
  for (const p of s.points) {
    const x = xOf(p.x);
    if (!(p.theory >= 10 ** lo)) { prev = p; started = false; continue; }
    if (started) {
      ctx.lineTo(x, yOf(p.theory));
    } else if (prev && prev.theory > 0) {
      const a = Math.log10(prev.theory);
      const b = Math.log10(p.theory);
      const f = (lo - a) / (b - a);
      ctx.moveTo(xOf(prev.x + f * (p.x - prev.x)), yOf(10 ** lo));
      ctx.lineTo(x, yOf(p.theory));
    } else {
      ctx.moveTo(x, yOf(p.theory));
    }
    started = true;
    prev = p;
  }
  ctx.stroke();
}

/**
 * A series' measured values: a dot each, a zero as a hollow mark on the bottom axis (at `zeroY`).
 * Returns where each was drawn, [x, y].
 */
function drawMeasured(ctx, s, xOf, yOf, zeroY) {
  return s.points.map((p) => {
    const x = xOf(p.x);
    if (p.lo !== undefined && p.hi > 0) {   // the 95 % interval of the measured rate (Wilson)
      ctx.strokeStyle = s.color;
      ctx.lineWidth = 1.25;
      ctx.beginPath();
      ctx.moveTo(x, yOf(p.lo > 0 ? p.lo : 0)); ctx.lineTo(x, yOf(p.hi));
      ctx.moveTo(x - 2.5, yOf(p.hi)); ctx.lineTo(x + 2.5, yOf(p.hi));
      if (p.lo > 0) { ctx.moveTo(x - 2.5, yOf(p.lo)); ctx.lineTo(x + 2.5, yOf(p.lo)); }
      ctx.stroke();
    }
    ctx.beginPath();
    if (p.measured > 0) {
      ctx.fillStyle = s.color;
      ctx.arc(x, yOf(p.measured), 3.5, 0, Math.PI * 2);
      ctx.fill();
      return [x, yOf(p.measured)];
    }
    ctx.strokeStyle = s.color;
    ctx.lineWidth = 1.5;
    ctx.arc(x, zeroY, 3, 0, Math.PI * 2);
    ctx.stroke();
    return [x, zeroY];
  });
}

/**
 * The legend under the x axis title, from `top`: one line per series, then what lines and dots
 * mean; every line cut to the canvas's width. Returns its left edge.
 */
function drawLegend(ctx, series, W, top) {
  ctx.font = '12px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  const lx = Math.min(PAD.left, 24);
  const fit = (text) => fitText(ctx, text, W - lx - 52);
  let ly = top;
  for (const s of series) {
    ctx.strokeStyle = s.color;
    ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(lx, ly); ctx.lineTo(lx + 24, ly); ctx.stroke();
    ctx.fillStyle = s.color;
    ctx.beginPath(); ctx.arc(lx + 34, ly, 3.5, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = '#111827';
    ctx.fillText(fit(s.label), lx + 44, ly);
    ly += 20;
  }
  if (series.length) {
    ctx.fillStyle = '#4b5563';
    ctx.fillText(fit('line = theory, dots = measured, bars = their 95 % intervals'), lx + 44, ly);
    ly += 20;
    ctx.strokeStyle = '#6b7280';
    ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.arc(lx + 34, ly, 3, 0, Math.PI * 2); ctx.stroke();
    ctx.fillStyle = '#4b5563';
    ctx.fillText(fit('on the x axis: no false positive measured'), lx + 44, ly);
  }
  return lx;
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {{ xMax: number, yFloor: number, series: Array<{ label: string, color: string,
 *           points: Array<{ x: number, measured: number, theory: number, lo?: number, hi?: number }> }> }} data
 *   (lo, hi: the measured rate's 95 % interval, drawn as a bar)
 */
export function drawFprChart(canvas, data) {
  const { xMax, yFloor, series } = data;
  canvas.chartData = data;   // for a redraw at another width
  // the legend goes under the chart, never over the curves (on a phone it covered one)
  const legendH = series.length ? (series.length + 2) * 20 + 6 : 0;
  const { ctx, W, H: full } = fitCanvas(canvas, 0.5 + legendH / 720, 360 + legendH, 220 + legendH);
  const H = full - legendH;
  ctx.clearRect(0, 0, W, full);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, full);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;

  let yMaxVal = yFloor * 10;
  for (const s of series) for (const p of s.points) yMaxVal = Math.max(yMaxVal, p.measured, p.theory, p.hi ?? 0);   // the bars fit too
  const lo = Math.floor(Math.log10(yFloor));
  const hi = Math.min(0, Math.ceil(Math.log10(yMaxVal)));
  const xOf = (x) => PAD.left + (x / xMax) * plotW;
  const yOf = (p) => PAD.top + plotH - ((Math.log10(Math.max(p, 10 ** lo)) - lo) / (hi - lo || 1)) * plotH;

  drawFrame(ctx, {
    W, H, pad: PAD,
    yTicks: Array.from({ length: hi - lo + 1 }, (_, i) => ({ at: yOf(10 ** (lo + i)), label: fmtRate(10 ** (lo + i)) })),
    xTicks: niceTicks(xMax).map((v) => ({ at: xOf(v), label: fmtCount(v) })),
    xTitle: 'keys inserted', yTitle: 'false-positive rate (log scale)',
  });
  const dots = series.flatMap((s) => {
    drawTheory(ctx, s, xOf, yOf, lo);
    return drawMeasured(ctx, s, xOf, yOf, PAD.top + plotH - 4);
  });
  const lx = drawLegend(ctx, series, W, H + 10);
  // for the e2e test: the plot, the legend's box and every dot, in CSS px
  const r = Math.round;
  canvas.dataset.plot = [PAD.left, PAD.top, plotW, plotH].map(r).join(' ');
  canvas.dataset.legendBox = series.length ? [lx, H, W - lx, legendH].map(r).join(' ') : '';
  canvas.dataset.dots = dots.map(([x, y]) => `${r(x)} ${r(y)}`).join(';');
}
