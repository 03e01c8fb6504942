// The figures of "every class as it really is": a counting Bloom filter's 4-bit counters (and the
// bytes they pack into), a blocked Bloom filter's 256-bit blocks of eight 32-bit words, a scalable
// Bloom filter's layers, a binary fuse filter's segments of fingerprints. Each is drawn cell by
// cell from what the caller read out of the real filter, the key on top with arrows to its cells;
// these functions only paint.
import { C, TOP, arrow, clamp01, keyBand, pill } from './tiny-draw.js';
import { fitCanvas, q } from './ui.js';
import { counterByte } from './zoo-model.js';

const SATURATED = '#7a1f2b';
const MISS_BG = '#fde8e8';
const hex = (x, digits) => (x >>> 0).toString(16).padStart(digits, '0');

/** Clears a figure `height` CSS px tall and draws the key band: { ctx, W, from }. */
function begin(canvas, height, v) {
  const cw = canvas.clientWidth || 480;
  const { ctx, W } = fitCanvas(canvas, height / cw, height, height);
  ctx.fillStyle = C.paper;
  ctx.fillRect(0, 0, W, height);
  return { ctx, W, from: keyBand(ctx, W, v) };
}

function text(ctx, s, x, y, { font = '11px system-ui, sans-serif', color = C.muted, align = 'left', base = 'middle' } = {}) {
  ctx.font = font;
  ctx.fillStyle = color;
  ctx.textAlign = align;
  ctx.textBaseline = base;
  ctx.fillText(s, x, y);
}

/** A cell with its index (top left, when given) and its value (centre). */
function cell(ctx, x, y, w, h, { fill, value, ink, index, indexInk = C.muted, size = 0.42 }) {
  ctx.fillStyle = fill;
  ctx.fillRect(x + 1, y + 1, w - 2, h - 2);
  if (index !== undefined) text(ctx, String(index), x + 3, y + 3, { font: '9px system-ui, sans-serif', color: indexInk, base: 'top' });
  text(ctx, value, x + w / 2, y + h / 2 + (index !== undefined ? 3 : 0.5),
    { font: `bold ${Math.max(10, Math.round(Math.min(w, h) * size))}px ui-monospace, monospace`, color: ink, align: 'center' });
}

function outline(ctx, x, y, w, h, color, width = 2.5, dash = null) {
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  if (dash) ctx.setLineDash(dash);
  ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
  ctx.setLineDash([]);
}

/** How a marked cell looks: a check that hits (green), misses (red) or an add / remove (orange). */
const markColor = (op, unset) => (op === 'check' ? (unset ? C.miss : C.hit) : C.mark);

/**
 * A counting Bloom filter. v: { counters (as before the operation), after, key, hashText,
 * positions, op: 'add' | 'check' | 'remove' | null }. Counters are drawn with their values,
 * 15 (saturated) in dark red; under each pair, the byte they share (low nibble: the even one).
 */
export function drawCounting(canvas, v, progress = 1) {
  const cw = canvas.clientWidth || 480;
  const cols = 8;
  const size = Math.min(50, Math.floor((cw - 16) / cols));
  const rowH = size + 16;
  const height = TOP + Math.ceil(v.after.length / cols) * rowH + 4;
  const { ctx, W, from } = begin(canvas, height, v);
  const x0 = Math.floor((W - cols * size) / 2);
  const at = (i) => ({ x: x0 + (i % cols) * size, y: TOP + Math.floor(i / cols) * rowH });
  const moved = v.op && v.op !== 'check' && progress >= 0.6;
  const shown = moved ? v.after : v.counters;
  shown.forEach((n, i) => {
    const { x, y } = at(i);
    const changed = moved && v.after[i] !== v.counters[i];
    const tone = Math.round(235 - 200 * (0.3 + 0.7 * (n / 15)));
    cell(ctx, x, y, size, size, {
      fill: changed ? C.mark : n === 15 ? SATURATED : n ? `rgb(${tone - 10},${tone},${Math.min(255, tone + 40)})` : C.empty,
      value: String(n), ink: n ? '#fff' : C.muted, index: i, indexInk: n ? 'rgba(255,255,255,.75)' : C.muted,
    });
    if (n === 15) text(ctx, 'max', x + size / 2, y + size - 6, { font: '8.5px system-ui, sans-serif', color: '#fecaca', align: 'center' });
    if (i % 2 === 0) {
      // the byte these two counters share, under a bracket
      const w = Math.min(2, shown.length - i) * size;
      ctx.strokeStyle = C.line;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(x + 3, y + size + 2); ctx.lineTo(x + 3, y + size + 5); ctx.lineTo(x + w - 3, y + size + 5); ctx.lineTo(x + w - 3, y + size + 2);
      ctx.stroke();
      text(ctx, `0x${hex(counterByte(shown, i / 2), 2)}`, x + w / 2, y + size + 11, { font: '10px ui-monospace, monospace', align: 'center' });
    }
  });
  if (!v.op || !v.positions) return;
  const reach = clamp01(progress / 0.45);
  for (const p of v.positions) {
    const { x, y } = at(p);
    arrow(ctx, from.x, from.y, x + size / 2, y + 2, reach, C.mark);
  }
  if (progress < 0.45) return;
  for (const p of new Set(v.positions)) {
    const { x, y } = at(p);
    const zero = v.counters[p] === 0;
    if (v.op === 'check' && zero) {
      cell(ctx, x, y, size, size, { fill: MISS_BG, value: '0', ink: C.miss, index: p, indexInk: C.miss });
    }
    outline(ctx, x, y, size, size, markColor(v.op, zero), v.op === 'check' && zero ? 3.5 : 2.5);
    // a saturated counter that an add or remove could not change
    if (v.op !== 'check' && v.counters[p] === 15) outline(ctx, x - 3, y - 3, size + 6, size + 6, C.miss, 2, [4, 3]);
  }
}

/** Where the pieces of a blocked figure go, for a canvas `cw` CSS px wide. */
function blockedLayout(cw, blocks) {
  const perRow = cw >= 560 ? 32 : 16;   // bits per drawn row: a word on one row, or on two
  const LBL = 30;
  const HEX = 92;
  const size = Math.max(8, Math.min(20, Math.floor((cw - 16 - LBL - HEX) / perRow)));
  const wordRows = 32 / perRow;
  const wordH = wordRows * size + (wordRows > 1 ? 5 : 0);
  const blockH = 22 + 8 * wordH + 8;
  return { perRow, LBL, size, wordRows, wordH, blockH, gridW: LBL + perRow * size + HEX, height: TOP + 16 + blocks * blockH };
}

/**
 * A blocked (split-block) Bloom filter. v: { words (u32, 8 per block, before the operation),
 * after, key, hashText, bits ([{ block, word, bit }] of the key, one per word), op }.
 */
export function drawBlocked(canvas, v, progress = 1) {
  const cw = canvas.clientWidth || 480;
  const blocks = v.words.length / 8;
  const L = blockedLayout(cw, blocks);
  const { ctx, W, from } = begin(canvas, L.height, v);
  const x0 = Math.max(4, Math.floor((W - L.gridW) / 2));
  const gx = x0 + L.LBL;
  const moved = v.op === 'add' && progress >= 0.6;
  const words = moved ? v.after : v.words;
  const blockY = (b) => TOP + 16 + b * L.blockH;
  const wordY = (b, w) => blockY(b) + 22 + w * L.wordH;
  const at = ({ block, word, bit }) => ({
    x: gx + (bit % L.perRow) * L.size, y: wordY(block, word) + Math.floor(bit / L.perRow) * L.size,
  });
  // bit numbers over the columns
  const small = { font: '9.5px system-ui, sans-serif', align: 'center' };
  if (L.wordRows > 1) text(ctx, 'each word: bits 0–15, then 16–31 on the row below', gx, TOP + 6, { ...small, align: 'left' });
  else for (const j of [0, 8, 16, 24, 31]) text(ctx, String(j), gx + j * L.size + L.size / 2, TOP + 6, small);
  const keyBlock = v.bits?.[0]?.block;
  const settled = progress >= 0.45;
  for (let b = 0; b < blocks; b++) {
    const mine = v.op && b === keyBlock;
    text(ctx, `block ${b} · 256 bits = 8 words of 32${mine ? ': the key’s block' : ''}`, x0, blockY(b) + 10,
      { font: '600 12px system-ui, sans-serif', color: mine ? C.mark : C.ink });
    for (let w = 0; w < 8; w++) {
      const word = words[8 * b + w];
      const y = wordY(b, w);
      text(ctx, `w${w}`, x0, y + (L.wordRows * L.size) / 2, { font: '600 11px system-ui, sans-serif' });
      for (let j = 0; j < 32; j++) {
        const { x, y: cy } = at({ block: b, word: w, bit: j });
        const set = (word >>> j) & 1;
        const fresh = moved && set && !((v.words[8 * b + w] >>> j) & 1);
        ctx.fillStyle = fresh ? C.mark : set ? C.set : C.empty;
        ctx.fillRect(x + 0.5, cy + 0.5, L.size - 1, L.size - 1);
      }
      text(ctx, `0x${hex(word, 8)}`, gx + L.perRow * L.size + 6, y + (L.wordRows * L.size) / 2, { font: '11.5px ui-monospace, monospace', color: word ? C.ink : C.muted });
    }
    if (v.op && settled && b !== keyBlock) {
      // the other blocks are not read at all: greyed
      ctx.fillStyle = 'rgba(255,255,255,.55)';
      ctx.fillRect(x0 - 2, blockY(b) + 18, L.gridW, 8 * L.wordH + 4);
    }
  }
  if (!v.op || !v.bits) return;
  const target = { x: x0 - 2, y: blockY(keyBlock) + 10 };
  arrow(ctx, from.x, from.y, Math.max(target.x + 40, from.x), target.y - 6, clamp01(progress / 0.45), C.mark);
  if (!settled) return;
  outline(ctx, x0 - 4, blockY(keyBlock) + 18, L.gridW + 4, 8 * L.wordH + 4, C.mark, 1.5);
  for (const p of v.bits) {
    const { x, y } = at(p);
    const unset = !((v.words[8 * p.block + p.word] >>> p.bit) & 1);
    const miss = v.op === 'check' && unset;
    if (miss) { ctx.fillStyle = MISS_BG; ctx.fillRect(x - 1, y - 1, L.size + 2, L.size + 2); }
    outline(ctx, x - 2, y - 2, L.size + 4, L.size + 4, markColor(v.op, unset), miss ? 3 : 2);
  }
}

/** Where each layer of a scalable figure goes: { cols, size, tops, height }. */
function layersLayout(cw, layers) {
  const cols = cw >= 700 ? 64 : 32;
  const size = Math.max(7, Math.min(14, Math.floor((cw - 16) / cols)));
  const tops = [];
  let y = TOP;
  for (const l of layers) {
    tops.push(y);
    y += 38 + Math.ceil(l.m / cols) * size + 12;
  }
  return { cols, size, tops, height: y };
}

/**
 * A scalable Bloom filter. v: { layers (before: [{ m, k, capacity, errorRate, size, bits }]),
 * after (the layers after an add), key, hashText, probes ([{ positions, has }] per layer, of
 * `after`), landed (the layer an add went into), grew (a layer the add created), op }.
 */
export function drawScalable(canvas, v, progress = 1) {
  const cw = canvas.clientWidth || 480;
  const moved = v.op === 'add' && progress >= 0.6;
  const layers = moved || v.grew !== undefined ? v.after : v.layers;
  const L = layersLayout(cw, layers);
  const { ctx, W, from } = begin(canvas, L.height, v);
  const gridW = L.cols * L.size;
  const x0 = Math.max(4, Math.floor((W - gridW) / 2));
  const at = (l, p) => ({ x: x0 + (p % L.cols) * L.size, y: L.tops[l] + 38 + Math.floor(p / L.cols) * L.size });
  const settled = progress >= 0.45;
  layers.forEach((layer, l) => {
    const y = L.tops[l];
    const fresh = v.grew === l;
    const full = layer.size >= layer.capacity;
    text(ctx, `layer ${l} · ${layer.m} bits, k = ${layer.k}, ε = ${+(layer.errorRate * 100).toFixed(3)} %${fresh ? ' (new)' : ''}`, x0, y + 8,
      { font: '600 12px system-ui, sans-serif', color: fresh ? C.mark : C.ink });
    // how full the layer is: keys against the capacity it was sized for
    const barW = Math.min(120, gridW / 3);
    ctx.fillStyle = C.empty;
    ctx.fillRect(x0, y + 20, barW, 10);
    ctx.fillStyle = full ? C.miss : C.hit;
    ctx.fillRect(x0, y + 20, barW * Math.min(1, layer.size / layer.capacity), 10);
    const fill = `${layer.size} of ${layer.capacity} keys${full ? ' (full)' : ''}`;
    text(ctx, fill, x0 + barW + 6, y + 25.5, { font: '11px system-ui, sans-serif', color: full ? C.miss : C.muted });
    const tagX = x0 + barW + 6 + ctx.measureText(fill).width + 10;
    const before = v.layers[l];
    for (let p = 0; p < layer.m; p++) {
      const { x, y: cy } = at(l, p);
      const set = layer.bits[p];
      const isFresh = moved && set && !before?.bits[p];
      ctx.fillStyle = isFresh ? C.mark : set ? C.set : C.empty;
      ctx.fillRect(x + 0.5, cy + 0.5, L.size - 1, L.size - 1);
    }
    // what the key found in this layer, as a tag at the right of the fill bar
    const probe = v.probes?.[l];
    if (!v.op || !probe || !settled) return;
    const clear = probe.positions.find((p) => !(before ?? layer).bits[p]);
    const tag = v.op === 'add' ? (l === v.landed ? `${v.key} went here` : null)
      : probe.has ? `all ${layer.k} bits set` : `bit ${clear} is 0`;
    if (tag) pill(ctx, Math.max(tagX, x0 + gridW - 200), y + 16, tag, {
      bg: v.op === 'add' ? C.mark : probe.has ? C.hit : C.miss, font: 'bold 11px system-ui, sans-serif', h: 18, maxW: x0 + gridW - Math.max(tagX, x0 + gridW - 200),
    });
  });
  if (!v.op || !v.probes) return;
  const reach = clamp01(progress / 0.45);
  v.probes.forEach((probe, l) => {
    if (l >= layers.length) return;
    const { x, y } = at(l, probe.positions[0]);
    if (v.op !== 'add' || l === v.landed) arrow(ctx, from.x, from.y, x + L.size / 2, y, reach, C.mark);
    if (!settled || (v.op === 'add' && l !== v.landed)) return;
    for (const p of probe.positions) {
      const { x: px, y: py } = at(l, p);
      const unset = !(v.layers[l] ?? layers[l]).bits[p];
      outline(ctx, px - 2, py - 2, L.size + 4, L.size + 4, markColor(v.op, unset && !probe.has), unset && v.op === 'check' ? 3 : 2);
    }
  });
}

/**
 * A binary fuse filter. v: { fuse ({ F, L, c, bits }), key, hashText, slots ([p0, p1, p2]), fp,
 * xor, op: 'check' | 'build' | null }. Segments of L fingerprints, one per row (or a few rows);
 * a key's three slots, one in each of three consecutive segments, and their XOR.
 */
export function drawFuse(canvas, v, progress = 1) {
  const cw = canvas.clientWidth || 480;
  const { F, L, bits } = v.fuse;
  const digits = bits / 4;
  const LBL = 48;
  // a power of two of cells a row, so a segment splits into equal rows
  const perRow = Math.min(L, 2 ** Math.floor(Math.log2(Math.max(4, (cw - 16 - LBL) / (bits === 8 ? 30 : 44)))));
  const cellW = Math.min(46, Math.floor((cw - 16 - LBL) / perRow));
  const cellH = 34;
  const segRows = Math.ceil(L / perRow);
  const segH = segRows * cellH + 6;
  const segs = L ? F.length / L : 0;
  const height = TOP + segs * segH + 50;
  const { ctx, W, from } = begin(canvas, height, v);
  const x0 = Math.max(4, Math.floor((W - LBL - perRow * cellW) / 2));
  const at = (p) => {
    const s = Math.floor(p / L);
    const j = p % L;
    return { x: x0 + LBL + (j % perRow) * cellW, y: TOP + s * segH + Math.floor(j / perRow) * cellH };
  };
  const keySlots = new Set(v.slots ?? []);
  const settled = progress >= 0.45;
  for (let s = 0; s < segs; s++) {
    text(ctx, `seg ${s}`, x0, TOP + s * segH + cellH / 2, { font: '600 11.5px system-ui, sans-serif', color: C.ink });
    for (let j = 0; j < L; j++) {
      const p = s * L + j;
      const { x, y } = at(p);
      const mine = settled && v.op === 'check' && keySlots.has(p);
      cell(ctx, x, y, cellW, cellH, { fill: mine ? '#fff1e0' : F[p] ? '#dfe6f3' : C.empty, value: hex(F[p], digits), ink: F[p] ? C.ink : C.muted, index: p, size: bits === 8 ? 0.36 : 0.3 });
    }
  }
  const eqY = TOP + segs * segH + 6;
  if (v.op !== 'check' || !v.slots) {
    text(ctx, `${segs} segments of ${L} ${bits}-bit fingerprints; no slot is one key’s, and slots no key needed hold 0`, x0, eqY + 14, { font: '11.5px system-ui, sans-serif' });
    return;
  }
  const reach = clamp01(progress / 0.45);
  v.slots.forEach((p, n) => {
    const { x, y } = at(p);
    arrow(ctx, from.x, from.y, x + cellW / 2, y + 2, reach, C.mark);
    if (settled) {
      outline(ctx, x, y, cellW, cellH, C.mark, 2.5);
      text(ctx, `p${n}`, x + cellW - 3, y + cellH - 7, { font: 'bold 9.5px system-ui, sans-serif', color: C.mark, align: 'right' });
    }
  });
  if (!settled) return;
  // the equation: the three shares XOR to the key's fingerprint, or not
  const ok = v.xor === v.fp;
  const h = (x) => hex(x, digits);
  const left = `${h(F[v.slots[0]])} ⊕ ${h(F[v.slots[1]])} ⊕ ${h(F[v.slots[2]])} = ${h(v.xor)}`;
  const answer = ok ? 'maybe present' : 'certainly absent';
  const sign = `${ok ? '=' : '≠'} ${h(v.fp)}`;
  text(ctx, left, x0, eqY + 12, { font: 'bold 13px ui-monospace, monospace', color: C.ink });
  const leftW = ctx.measureText(`${left} `).width;
  // the longest wording that fits: after the XOR on the same line, else on a line of its own
  ctx.font = 'bold 12.5px system-ui, sans-serif';
  const room = W - x0 - 8;
  const options = [`${sign}, the fingerprint of ${q(v.key)}: ${answer}`, `${sign}, its fingerprint: ${answer}`, `${sign}: ${answer}`];
  const same = options.find((o) => ctx.measureText(o).width < room - leftW);
  const line = same ?? options.find((o) => ctx.measureText(o).width < room) ?? options[2];
  text(ctx, line, same ? x0 + leftW : x0, same ? eqY + 12 : eqY + 32, { font: 'bold 12.5px system-ui, sans-serif', color: ok ? C.hit : C.miss });
}
