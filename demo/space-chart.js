// The space-against-error chart: measured false-positive rate (log scale, stricter to the right)
// against measured bits per key, one marker shape and colour per filter class, with the
// theoretical curves 1.44·log2(1/ε) (an optimal Bloom filter) and log2(1/ε) (the lower bound for
// any filter).
import { drawFrame } from './chart.js';
import { fitCanvas } from './ui.js';

const PAD = { left: 56, right: 18, top: 16, bottom: 52 };
const log2 = Math.log2;

export const CURVES = [
  { label: 'Bloom optimum 1.44·log2(1/ε)', bits: (e) => log2(1 / e) / Math.LN2, dash: [6, 4] },
  { label: 'lower bound log2(1/ε)', bits: (e) => log2(1 / e), dash: [2, 3] },
];

/** A marker of `shape` centred on (x, y). */
export function marker(ctx, shape, x, y, r, color, hollow = false) {
  ctx.beginPath();
  if (shape === 'square') ctx.rect(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
  else if (shape === 'triangle') { ctx.moveTo(x, y - r * 1.1); ctx.lineTo(x + r, y + r * 0.8); ctx.lineTo(x - r, y + r * 0.8); ctx.closePath(); }
  else if (shape === 'down') { ctx.moveTo(x, y + r * 1.1); ctx.lineTo(x + r, y - r * 0.8); ctx.lineTo(x - r, y - r * 0.8); ctx.closePath(); }
  else if (shape === 'diamond') { ctx.moveTo(x, y - r * 1.2); ctx.lineTo(x + r, y); ctx.lineTo(x, y + r * 1.2); ctx.lineTo(x - r, y); ctx.closePath(); }
  else if (shape === 'cross') { ctx.rect(x - r, y - r * 0.35, 2 * r, r * 0.7); ctx.rect(x - r * 0.35, y - r, r * 0.7, 2 * r); }
  else ctx.arc(x, y, r, 0, Math.PI * 2);
  if (hollow) { ctx.strokeStyle = color; ctx.lineWidth = 1.5; ctx.stroke(); } else { ctx.fillStyle = color; ctx.fill(); }
}

/**
 * @param canvas
 * @param {{ floor: number, series: Array<{ label, color, shape, points: Array<{ fpr, bitsPerKey }> }> }} data
 *   floor: the smallest rate the probes can measure (1 / probes); a point with no false positive is
 *   drawn hollow at the floor ("below 1 in m").
 */
export function drawSpaceChart(canvas, data) {
  canvas.chartData = data;
  const { ctx, W, H } = fitCanvas(canvas, 0.55, 380, 260);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const all = data.series.flatMap((s) => s.points);
  // from a little above the loosest rate measured to the decade below the strictest (the floor
  // 1/m only when some filter had no false positive at all)
  const rates = all.map((p) => (p.fpr > 0 ? p.fpr : data.floor));
  const lo = Math.floor(Math.log10(Math.min(rates.length ? Math.min(...rates) : data.floor, 1e-4)) - 0.15);
  const hi = Math.min(0, Math.log10(Math.max(0.1, ...rates)) + 0.12);
  const yMax = Math.max(24, Math.ceil((Math.max(...all.map((p) => p.bitsPerKey), CURVES[0].bits(10 ** lo)) + 2) / 8) * 8);
  // stricter (smaller ε) to the right
  const xOf = (e) => PAD.left + ((hi - Math.log10(Math.max(e, 10 ** lo))) / (hi - lo || 1)) * plotW;
  const yOf = (b) => PAD.top + plotH - (b / yMax) * plotH;

  const everyOther = plotW / (hi - lo) < 75;
  const xTicks = [];
  for (let e = Math.floor(hi); e >= lo; e--) {
    xTicks.push({ at: xOf(10 ** e), label: everyOther && (e - lo) % 2 !== 0 ? '' : `${+(100 * 10 ** e).toPrecision(1)} %` });
  }
  const step = yMax > 48 ? 16 : 8;
  drawFrame(ctx, {
    W, H, pad: PAD, xTicks,
    yTicks: Array.from({ length: Math.floor(yMax / step) + 1 }, (_, i) => ({ at: yOf(i * step), label: String(i * step) })),
    xTitle: plotW < 420 ? 'measured false-positive rate (log) →' : 'measured false-positive rate (log scale, stricter →)',
    yTitle: 'bits per key',
  });

  // the theoretical curves, labelled where they leave the plot on the right
  ctx.save();
  ctx.beginPath();
  ctx.rect(PAD.left, PAD.top, plotW, plotH);
  ctx.clip();
  for (const c of CURVES) {
    ctx.strokeStyle = '#374151';
    ctx.setLineDash(c.dash);
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (let i = 0; i <= 60; i++) {
      const e = 10 ** (hi - ((hi - lo) * i) / 60);
      if (i === 0) ctx.moveTo(xOf(e), yOf(c.bits(e))); else ctx.lineTo(xOf(e), yOf(c.bits(e)));
    }
    ctx.stroke();
  }
  ctx.setLineDash([]);
  ctx.restore();
  ctx.font = '11.5px system-ui, sans-serif';
  ctx.textAlign = 'right';
  const end = 10 ** lo;
  const tag = (text, y) => {
    const w = ctx.measureText(text).width;
    ctx.fillStyle = 'rgba(255,255,255,0.9)';
    ctx.fillRect(PAD.left + plotW - w - 8, y - 8, w + 6, 15);
    ctx.fillStyle = '#374151';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, PAD.left + plotW - 4, y);
  };
  tag(CURVES[0].label, yOf(CURVES[0].bits(end)) - 12);
  tag(CURVES[1].label, yOf(CURVES[1].bits(end)) + 12);

  for (const s of data.series) {
    for (const p of s.points) marker(ctx, s.shape, xOf(p.fpr > 0 ? p.fpr : data.floor), yOf(p.bitsPerKey), 4.5, s.color, !(p.fpr > 0));
  }
}
