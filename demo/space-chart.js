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

const LABEL_H = 15;
const overlaps = (a, b) => a.x < b.x + b.w && a.x + a.w > b.x && a.y < b.y + b.h && a.y + a.h > b.y;

/**
 * Draws the labels of the two curves where they cover no marker, no other label and do not leave
 * the plot: the first curve's label above its curve, the second's below it, as close to the curve
 * as that allows and then as far right (sliding left along the curve); else on the other side of
 * its curve (where it must not cross the other curve); else at the right-hand end. Each label
 * starts with a sample of its curve's line, so it names its curve wherever it sits. Returns the
 * boxes drawn, in CSS px.
 */
function placeCurveLabels(ctx, { plot, yOf, lo, hi, markers }) {
  ctx.font = '11.5px system-ui, sans-serif';
  const SAMPLE = 18;
  const eOf = (x) => 10 ** (hi - ((x - plot.x) / plot.w) * (hi - lo));
  const curveY = (c, x) => yOf(c.bits(eOf(x)));
  // the curve's highest and lowest y (CSS px) over [x0, x1]: both curves are monotonic in x
  const span = (c, x0, x1) => [Math.min(curveY(c, x0), curveY(c, x1)), Math.max(curveY(c, x0), curveY(c, x1))];
  const inside = (b) => b.x >= plot.x + 2 && b.x + b.w <= plot.x + plot.w - 2 && b.y >= plot.y + 1 && b.y + b.h <= plot.y + plot.h - 1;
  const free = (b, placed) => inside(b) && !placed.some((p) => overlaps(b, p))
    && !markers.some((m) => overlaps(b, { x: m.x - m.r - 1, y: m.y - m.r - 1, w: 2 * m.r + 2, h: 2 * m.r + 2 }));
  const placed = [];
  CURVES.forEach((c, i) => {
    const w = Math.ceil(ctx.measureText(c.label).width) + SAMPLE + 12;
    const other = CURVES[1 - i];
    const at = (x1, above, dy) => {
      const x0 = x1 - w;
      const [top, bottom] = span(c, x0, x1);
      const b = { x: x0, y: above ? top - dy - LABEL_H : bottom + dy, w, h: LABEL_H };
      // on the side of the other curve, the box must stay clear of it too
      const [oTop, oBottom] = span(other, x0, x1);
      if (b.y < oBottom + 2 && b.y + b.h > oTop - 2) return null;
      return b;
    };
    let box = null;
    for (const above of [i === 0, i !== 0]) {
      for (const dy of [3, 6, 10, 15, 21, 28, 36, 45, 56]) {
        for (let x1 = plot.x + plot.w - 4; x1 - w >= plot.x + 4 && !box; x1 -= 4) {
          const b = at(x1, above, dy);
          if (b && free(b, placed)) box = b;
        }
        if (box) break;
      }
      if (box) break;
    }
    box ??= at(plot.x + plot.w - 4, i === 0, 3) ?? { x: plot.x + plot.w - 4 - w, y: plot.y + 2 + i * (LABEL_H + 2), w, h: LABEL_H };
    placed.push(box);
    const mid = box.y + LABEL_H / 2;
    ctx.fillStyle = 'rgba(255,255,255,0.9)';
    ctx.fillRect(box.x, box.y, box.w, box.h);
    ctx.strokeStyle = '#374151';
    ctx.lineWidth = 1.5;
    ctx.setLineDash(c.dash);
    ctx.beginPath();
    ctx.moveTo(box.x + 3, mid);
    ctx.lineTo(box.x + 3 + SAMPLE, mid);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = '#374151';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(c.label, box.x + SAMPLE + 7, mid + 0.5);
  });
  return placed;
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

  // the theoretical curves, labelled (placeCurveLabels) where the labels hide no marker
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
  const markers = [];
  for (const s of data.series) {
    for (const p of s.points) {
      const x = xOf(p.fpr > 0 ? p.fpr : data.floor);
      const y = yOf(p.bitsPerKey);
      markers.push({ x, y, r: 4.5 * 1.2, draw: () => marker(ctx, s.shape, x, y, 4.5, s.color, !(p.fpr > 0)) });
    }
  }
  const boxes = placeCurveLabels(ctx, { plot: { x: PAD.left, y: PAD.top, w: plotW, h: plotH }, xOf, yOf, lo, hi, markers });
  for (const m of markers) m.draw();
  // where the curve labels and the markers are, in CSS px (for tests)
  const r = (v) => Math.round(v * 10) / 10;
  canvas.dataset.labelBoxes = boxes.map((b) => [b.x, b.y, b.w, b.h].map(r).join(' ')).join(';');
  canvas.dataset.markers = markers.map((m) => [m.x, m.y, m.r].map(r).join(' ')).join(';');
  canvas.dataset.plot = [PAD.left, PAD.top, plotW, plotH].map(r).join(' ');
}
