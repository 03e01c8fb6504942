// Draws a whole filter on a canvas: one cell per bit / counter / slot when they fit, otherwise a
// density map (each cell the fraction of set units in an equal slice of the storage, from
// fillMap). The units the last key touched are outlined in orange.
import { fitCanvas } from './ui.js';

const EMPTY = [238, 241, 246];
const FULL = [35, 57, 93];
const MARK = '#d96800';   // 3.5:1 on white, 3.3:1 on the navy of a set unit
const MARK_TEXT = '#a84a00';   // orange that carries text: 5.8:1 on white, white on it 5.8:1

function shade(f) {
  const c = EMPTY.map((e, i) => Math.round(e + (FULL[i] - e) * Math.min(1, Math.max(0, f))));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {{ filter, units: number, unitName: string, group?: number,
 *           touched?: { groups: number[][] } | null, regions?: number[], fresh?: number }} what
 *   units: bits / counters / slots in the filter; group: units per bucket (cuckoo), drawn
 *   with a gap between groups when cells are large enough; regions: the units of each
 *   sub-filter in storage order (a grown cuckoo filter), each drawn from a new row under its
 *   label; fresh: the region a growth just added (labelled "new").
 * @returns {{ mode: 'exact'|'density'|'none', cells: number, perCell: number, setUnits: number,
 *            marks: number, note: string, regionTops: number[] }} setUnits: set units the map
 *   shows; marks: touched groups drawn; regionTops: y of each drawn region's first row
 */
export function drawFilterMap(canvas, { filter, units, unitName, group = 1, touched = null, noMap = '', regions = null, fresh = -1 }) {
  const { ctx, W, H, band } = startMap(canvas, regions, group);
  const canMap = typeof filter?.fillMap === 'function';
  if (!canMap || !(units > 0)) {
    const why = !filter ? 'no filter yet' : !canMap ? (noMap || 'this filter has no fillMap(): nothing to draw') : 'empty filter';
    drawWrapped(ctx, why, W, H);
    return { mode: 'none', cells: 0, perCell: 0, setUnits: NaN, marks: 0, note: why, regionTops: [] };
  }
  const { L, exact, split } = chooseLayout(W, H, units, group, regions?.length > 1 ? regions : null);
  const cells = exact ? units : L.cells;
  const map = filter.fillMap(cells);
  let setUnits = 0; // Σ fraction · units per cell: the set units the map shows
  for (let c = 0; c < cells; c++) setUnits += map[c];
  setUnits *= units / cells;
  const geo = cellGeometry(L, group, exact);
  for (let c = 0; c < cells; c++) {
    ctx.fillStyle = shade(map[c]);
    ctx.fillRect(geo.xOf(c), geo.yOf(c), L.size - geo.gap, L.size - geo.gap);
  }
  if (split) drawRegionLabels(ctx, split, L, W, group, fresh);
  // where a storage range of units starts and ends, in cells
  const cellsOf = ([from, to]) => (exact ? [from, to - 1] : [Math.floor((from * cells) / units), Math.floor(((to - 1) * cells) / units)]);
  if (touched?.groups?.length) drawTouched(ctx, touched.groups.map(cellsOf), geo, L, map, exact);
  const labelBox = band && touched?.label && touched.groups?.length
    ? drawFingerprintLabel(ctx, `fingerprint ${touched.label}`, touched.groups.map(cellsOf), geo, L.size, W, H + band - 20) : null;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  const perCell = units / cells;
  const parts = split ? `; ${split.length} sub-filters, each under its label` : '';
  const note = exact
    ? `each cell is one ${unitName} (${cells.toLocaleString('en-US')} ${unitName}s${group > 1 ? `, buckets of ${group}` : ''}); dark = set${touched ? ', orange = touched by the last key' : ''}${parts}`
    : `density map: each cell is ${perCell.toFixed(perCell < 10 ? 2 : 1)} ${unitName}s (${cells.toLocaleString('en-US')} cells); darker = more set${touched ? ', orange = touched by the last key' : ''}${parts}`;
  return { mode: exact ? 'exact' : 'density', cells, perCell, setUnits, marks: touched?.groups?.length ?? 0, note,
    labelBox: labelBox && { ...labelBox, x: labelBox.x + MARGIN, y: labelBox.y + MARGIN }, mapBottom: MARGIN + L.height,
    regionTops: split ? L.tops.map((y) => MARGIN + y) : [] };
}

const MARGIN = 8;   // room for the marks of touched cells at the edges
const LABEL = 16;   // a region's label row

/**
 * Sizes and clears the canvas and moves the origin inside the margin: { ctx, W, H, band } in CSS px
 * (buckets get a band under the map for the fingerprint's label, so it never covers a bucket).
 */
function startMap(canvas, regions, group) {
  const many = regions?.length > 1;
  const fitted = fitCanvas(canvas, 0.25, many ? Math.min(600, 240 + LABEL * regions.length) : 240, 160);
  const { ctx } = fitted;
  ctx.clearRect(0, 0, fitted.W, fitted.H);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, fitted.W, fitted.H);
  ctx.translate(MARGIN, MARGIN);
  const band = group > 1 ? 28 : 0;
  return { ctx, W: fitted.W - 2 * MARGIN, H: fitted.H - 2 * MARGIN - band, band };
}

/** A sentence in the middle of the map's area, wrapped over lines that fit. */
function drawWrapped(ctx, text, W, H) {
  ctx.fillStyle = '#5b6472';
  ctx.font = '14px system-ui, sans-serif';
  ctx.textAlign = 'center';
  const rows = [''];
  for (const w of text.split(' ')) {
    const next = rows[rows.length - 1] ? `${rows[rows.length - 1]} ${w}` : w;
    if (ctx.measureText(next).width > W - 40 && rows[rows.length - 1]) rows.push(w); else rows[rows.length - 1] = next;
  }
  rows.forEach((line, i) => ctx.fillText(line, W / 2, H / 2 + (i - (rows.length - 1) / 2) * 20));
}

/**
 * The layout for cells of `size` px, each `perCell` units: columns, where each region's cells
 * start, its top, and how high the whole map is (regions one under the other, from a new row).
 */
function plan(W, units, group, split, size, perCell, exactCells) {
  const groupGap = exactCells && group > 1 && size >= 6 ? 2 : 0;
  const cols = exactCells && group > 1 ? Math.floor((W + groupGap) / (group * size + groupGap)) * group : Math.floor(W / size);
  const label = split ? LABEL : 0;
  const starts = [];
  const tops = [];
  let cell = 0;
  let y = 0;
  for (const u of split ?? [units]) {
    y += label;
    starts.push(cell);
    tops.push(y);
    const n = Math.ceil(u / perCell);
    cell += n;
    y += (cols > 0 ? Math.ceil(n / cols) : Infinity) * size + (split ? 4 : 0);
  }
  return { size, cols, groupGap, starts, tops, height: y - (split ? 4 : 0), cells: cell };
}

/**
 * One cell per unit if cells of at least 4 px fit (buckets kept on one row); else a density map,
 * sub-filters kept apart when slices of a power of two of units divide every one of them, else
 * one map of as many 4-px cells as fit. { L, exact, split (null when the regions were merged) }.
 */
function chooseLayout(W, H, units, group, split) {
  for (let size = Math.min(28, Math.max(4, Math.floor(Math.sqrt((W * H) / units)))); size >= 4; size--) {
    const p = plan(W, units, group, split, size, 1, true);
    if (p.height <= H) return { L: p, exact: true, split };
  }
  if (split) {
    const smallest = Math.min(...split);
    for (let per = 2 ** Math.ceil(Math.log2(Math.max(1, units / ((W / 4) * (H / 4))))); per <= smallest; per *= 2) {
      const p = plan(W, units, group, split, 4, per, false);
      if (split.every((u) => u % per === 0) && p.height <= H) return { L: p, exact: false, split };
    }
  }
  const cols = Math.floor(W / 4);
  return { L: { size: 4, cols, groupGap: 0, starts: [0], tops: [0], cells: cols * Math.floor(H / 4), height: Math.floor(H / 4) * 4 }, exact: false, split: null };
}

/** Where cell c is drawn: { xOf, yOf, local (its index in its region), gap (between cells) }. */
function cellGeometry(L, group, exact) {
  const { size, cols, groupGap } = L;
  const regionOf = (c) => {
    let r = 0;
    while (r + 1 < L.starts.length && c >= L.starts[r + 1]) r++;
    return r;
  };
  const local = (c) => c - L.starts[regionOf(c)];
  return {
    local,
    gap: exact && size >= 6 ? 1 : 0,
    xOf: (c) => (local(c) % cols) * size + (groupGap ? Math.floor((local(c) % cols) / group) * groupGap : 0),
    yOf: (c) => L.tops[regionOf(c)] + Math.floor(local(c) / cols) * size,
  };
}

/** Each sub-filter under its label (the newest marked new), a rule between them. */
function drawRegionLabels(ctx, split, L, W, group, fresh) {
  ctx.font = '600 11.5px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  split.forEach((u, r) => {
    const y = L.tops[r] - LABEL;
    if (r > 0) {
      ctx.fillStyle = '#c7ccd8';
      ctx.fillRect(0, y - 3, W, 1);
    }
    ctx.fillStyle = r === fresh ? MARK_TEXT : '#1d2330';
    ctx.fillText(`sub-filter ${r} · ${(u / group).toLocaleString('en-US')} buckets${r === fresh ? ' (new)' : ''}`, 0, y + LABEL / 2);
  });
}

/** The cells a key touched ([first, last] cell ranges), outlined (or ringed on a density map), row by row. */
function drawTouched(ctx, ranges, geo, L, map, exact) {
  const { size, cols } = L;
  ctx.strokeStyle = MARK;
  ctx.fillStyle = MARK;
  ctx.lineWidth = 2;
  for (const [c0, c1] of ranges) {
    for (let c = c0; c <= c1;) {
      const rowEnd = Math.min(c1, c - (geo.local(c) % cols) + cols - 1);
      const x = geo.xOf(c);
      const y = geo.yOf(c);
      const w = geo.xOf(rowEnd) + size - geo.gap - x;
      if (exact) {
        // a set unit is filled orange, an unset one (a check of an absent key) only outlined
        if (rowEnd === c && map[c] > 0) ctx.fillRect(x, y, size - geo.gap, size - geo.gap);
        ctx.strokeRect(x - 1, y - 1, w + 2, size - geo.gap + 2);
      } else {
        // density cells are small: a ring around the cell
        ctx.fillRect(x, y, w, size);
        ctx.beginPath();
        ctx.arc(x + w / 2, y + size / 2, 7, 0, Math.PI * 2);
        ctx.stroke();
      }
      c = rowEnd + 1;
    }
  }
}

/**
 * The cuckoo fingerprint's label in the band under the map at `ly`, with a leader line up to each
 * marked bucket: it covers no bucket and no other label. Returns its box (map coordinates).
 */
function drawFingerprintLabel(ctx, text, ranges, geo, size, W, ly) {
  ctx.font = 'bold 12px ui-monospace, monospace';
  const tw = ctx.measureText(text).width + 12;
  const anchors = ranges.map(([c0, c1]) => ({ x: (geo.xOf(c0) + geo.xOf(c1) + size) / 2, y: geo.yOf(c0) + size }));
  const mid = anchors.reduce((a, p) => a + p.x, 0) / anchors.length;
  const lx = Math.round(Math.min(Math.max(0, mid - tw / 2), W - tw));
  ctx.strokeStyle = MARK;
  ctx.lineWidth = 1.25;
  for (const a of anchors) {
    ctx.beginPath();
    ctx.moveTo(a.x, a.y + 1);
    ctx.lineTo(Math.min(Math.max(a.x, lx + 6), lx + tw - 6), ly);
    ctx.stroke();
  }
  ctx.fillStyle = MARK_TEXT;   // white text needs the darker orange (5.8:1)
  ctx.fillRect(lx, ly, tw, 18);
  ctx.fillStyle = '#fff';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, lx + 6, ly + 9.5);
  return { x: lx, y: ly, w: tw, h: 18 };
}
