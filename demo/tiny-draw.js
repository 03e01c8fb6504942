// The small figures: a Bloom filter of a few dozen bits and a cuckoo filter of a few buckets, drawn
// cell by cell with index numbers and values, the key on top with arrows to the cells it hashes
// to, and (for the cuckoo filter) one move of a kick chain at a time. Everything is drawn from
// what the caller read out of the real filter; these functions only paint.
import { fitCanvas, fitText } from './ui.js';
import { fpHex } from './cuckoo-model.js';

// Marks (outlines, arrows) are at least 3:1 against the paper, the empty cells and the navy set
// cells they sit on (hit: 3.3:1 on navy, 3.5:1 on white; mark: 3.3 and 3.5); text on a pill is at
// least 4.5:1, so a pill of a mark colour is filled with its darker twin (DARK). Checked by the e2e test.
export const C = {
  empty: '#eef1f6', set: '#23395d', ink: '#1d2330', muted: '#5b6472', line: '#c7ccd8',
  mark: '#d96800', markDark: '#a84a00', miss: '#dc2626', hit: '#1f9d55', hitDark: '#0a7a3d', paper: '#fff',
};
export const DARK = { [C.mark]: C.markDark, [C.hit]: C.hitDark };
// One colour per key (Okabe-Ito, without its blue and black: each shows on the navy set bits and on
// the pale slots), drawn as a strip along a cell's bottom: a bit two keys set shows both colours.
export const KEY_COLOURS = ['#e69f00', '#56b4e9', '#009e73', '#f0e442', '#cc79a7', '#d55e00'];
export const TOP = 46;   // the band with the key and its hash
export const clamp01 = (x) => Math.min(1, Math.max(0, x));

/** Runs `draw(progress)` over `ms` (every frame), or once at 1 when motion is unwanted. */
export function animate(canvas, ms, draw) {
  const still = !ms || globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  canvas.animationToken = (canvas.animationToken ?? 0) + 1;
  const token = canvas.animationToken;
  if (still) {
    draw(1);
    canvas.dataset.animating = 'false';
    return Promise.resolve(true);
  }
  canvas.dataset.animating = 'true';
  const t0 = performance.now();
  return new Promise((resolve) => {
    const frame = (now) => {
      if (canvas.animationToken !== token) return resolve(false);   // a newer animation took over
      const p = clamp01((now - t0) / ms);
      draw(p);
      if (p < 1) requestAnimationFrame(frame);
      else { canvas.dataset.animating = 'false'; resolve(true); }
    };
    requestAnimationFrame(frame);
  });
}

export function pill(ctx, x, y, text, { bg: fill = C.ink, fg = '#fff', font = 'bold 13px system-ui, sans-serif', h = 24, maxW = Infinity } = {}) {
  const bg = DARK[fill] ?? fill;
  ctx.font = font;
  const t = fitText(ctx, text, maxW - 16);
  const w = ctx.measureText(t).width + 16;
  ctx.fillStyle = bg;
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, h / 2);
  ctx.fill();
  ctx.fillStyle = fg;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText(t, x + 8, y + h / 2 + 0.5);
  return w;
}

/** A line from (x0, y0) towards (x1, y1), drawn `p` of the way, with a head when complete. */
export function arrow(ctx, x0, y0, x1, y1, p, color) {
  const x = x0 + (x1 - x0) * p;
  const y = y0 + (y1 - y0) * p;
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = 1.75;
  ctx.globalAlpha = 0.85;
  ctx.beginPath(); ctx.moveTo(x0, y0); ctx.lineTo(x, y); ctx.stroke();
  if (p >= 1) {
    const a = Math.atan2(y1 - y0, x1 - x0);
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x1 - 8 * Math.cos(a - 0.4), y1 - 8 * Math.sin(a - 0.4));
    ctx.lineTo(x1 - 8 * Math.cos(a + 0.4), y1 - 8 * Math.sin(a + 0.4));
    ctx.fill();
  }
  ctx.globalAlpha = 1;
}

export function keyBand(ctx, W, v) {
  if (!v.key) {
    ctx.fillStyle = C.muted;
    ctx.font = '13px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText('check or add a key to see where it goes', 8, 20);
    return { x: 8, y: 32 };
  }
  const w = pill(ctx, 8, 8, v.key, { maxW: Math.min(180, W / 2.5) });
  ctx.fillStyle = C.muted;
  ctx.font = '12.5px ui-monospace, monospace';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText(fitText(ctx, `→ ${v.hashText}`, W - w - 24), 8 + w + 8, 20.5);
  return { x: 8 + Math.min(w, 80) / 2, y: 32 };
}

/**
 * A tiny Bloom filter. v: { bits: 0/1 per bit as shown before the operation, after: as after it,
 * key, hashText, positions, op: 'add' | 'check' | null, answer: true/false (check) }.
 */
export function drawTinyBloom(canvas, v, progress = 1) {
  const cw = canvas.clientWidth || 480;
  // on a phone 16 bits to a row (4 rows: the cuckoo figure fits on the same screen), each row
  // numbered on its left; else 8 to a row, each bit with its index
  const cols = globalThis.matchMedia?.('(max-width: 600px)').matches ? 16 : 8;
  const gutter = cols === 16 ? 22 : 0;
  const cell = Math.min(46, Math.floor((cw - 16 - gutter) / cols));
  const rows = Math.ceil(v.after.length / cols);
  const height = TOP + rows * cell + 8;
  const { ctx, W } = fitCanvas(canvas, height / cw, height, height);
  ctx.fillStyle = C.paper;
  ctx.fillRect(0, 0, W, height);
  const x0 = Math.floor((W - cols * cell + gutter) / 2);
  if (gutter) {
    ctx.fillStyle = C.muted;
    ctx.font = '10px system-ui, sans-serif';
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (let r = 0; r < rows; r++) ctx.fillText(String(r * cols), x0 - 4, TOP + r * cell + cell / 2);
  }
  const at = (i) => ({ x: x0 + (i % cols) * cell, y: TOP + Math.floor(i / cols) * cell });
  canvas.dataset.grid = `${x0} ${TOP} ${cell} ${cols}`;   // where bit i is drawn, for the e2e test's contrast check
  const from = keyBand(ctx, W, v);
  const reach = clamp01(progress / 0.45);
  const marked = progress >= 0.45 && v.op;
  const shown = v.op === 'add' && progress >= 0.6 ? v.after : v.bits;
  const targets = new Set(v.positions ?? []);
  for (let i = 0; i < shown.length; i++) {
    const { x, y } = at(i);
    const isSet = shown[i] === 1;
    const fresh = v.op === 'add' && progress >= 0.6 && isSet && v.bits[i] === 0;
    ctx.fillStyle = fresh ? C.mark : isSet ? C.set : C.empty;
    ctx.fillRect(x + 1, y + 1, cell - 2, cell - 2);
    if (cell >= 28) {
      ctx.fillStyle = isSet ? 'rgba(255,255,255,.75)' : C.muted;
      ctx.font = `${cell >= 30 ? 9.5 : 8.5}px system-ui, sans-serif`;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(String(i), x + 3, y + 3);
    }
    ctx.fillStyle = isSet ? '#fff' : C.muted;
    ctx.font = `bold ${Math.round(cell * 0.42)}px ui-monospace, monospace`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(isSet ? '1' : '0', x + cell / 2, y + cell / 2 + (cell >= 28 ? 3 : 1));
    const who = v.setters?.[i] ?? [];
    if (isSet && who.length) {   // the keys that set this bit, one colour each
      const h = Math.max(2, Math.round(cell * 0.1));
      const w = (cell - 4) / who.length;
      who.forEach((c, n) => { ctx.fillStyle = c; ctx.fillRect(x + 2 + n * w, y + cell - 1 - h, w, h); });
    }
  }
  if (v.op && v.positions) {
    for (const p of v.positions) {
      const { x, y } = at(p);
      arrow(ctx, from.x, from.y, x + cell / 2, y + 2, reach, C.mark);
    }
  }
  if (v.cursor != null && v.cursor < shown.length) {   // the bit inspected from the keyboard
    const { x, y } = at(v.cursor);
    ctx.setLineDash([4, 3]);
    ctx.strokeStyle = C.mark;
    ctx.lineWidth = 3;
    ctx.strokeRect(x + 1.5, y + 1.5, cell - 3, cell - 3);
    ctx.setLineDash([]);
  }
  if (marked) {
    for (const p of targets) {
      const { x, y } = at(p);
      const clear = v.op === 'check' && shown[p] === 0;
      ctx.strokeStyle = clear ? C.miss : v.op === 'check' ? C.hit : C.mark;
      ctx.lineWidth = clear ? 3.5 : 2.5;
      ctx.strokeRect(x + 0.5, y + 0.5, cell - 1, cell - 1);
      if (clear) {
        ctx.fillStyle = '#fde8e8';
        ctx.fillRect(x + 2, y + 2, cell - 4, cell - 4);
        ctx.fillStyle = C.miss;
        ctx.font = `${cell >= 30 ? 9.5 : 8.5}px system-ui, sans-serif`;
        ctx.textAlign = 'left';
        ctx.textBaseline = 'top';
        if (cell >= 28) ctx.fillText(String(p), x + 4, y + 4);
        ctx.font = `bold ${Math.round(cell * 0.42)}px ui-monospace, monospace`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText('0', x + cell / 2, y + cell / 2 + (cell >= 28 ? 3 : 1));
      }
    }
  }
}

/**
 * The numbered path of a kick chain: move n's slot gets a small circled n in its top-left corner
 * (a slot used twice shows its last number), so the chain can be read back on the table.
 */
function drawPath(ctx, path, slotX, rowY) {
  const last = new Map();
  path.forEach((m, n) => last.set(`${m.sub} ${m.bucket} ${m.slot}`, { m, n: n + 1 }));
  ctx.font = 'bold 9.5px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const { m, n } of last.values()) {
    const x = slotX(m.sub, m.slot) + 8;
    const y = rowY(m.sub, m.bucket) + 8;
    ctx.fillStyle = C.markDark;
    ctx.beginPath();
    ctx.arc(x, y, 7, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#fff';
    ctx.fillText(String(n), x, y + 0.5);
  }
}

/** Where everything of a cuckoo figure goes, for a canvas `W` CSS px wide. */
function cuckooLayout(W, subs, b, rowH = 34) {
  const GUT = 30;   // kick arcs, left of the bucket numbers
  const LBL = 28;   // bucket numbers
  const TAG = 58;   // i1 / i2 tags, right of the slots
  const slotW = Math.max(34, Math.min(64, Math.floor((Math.min(W, 460) - GUT - LBL - TAG - 8) / b)));
  const blockW = GUT + LBL + slotW * b + TAG;
  const caption = subs.length > 1 ? 20 : 0;
  const head = caption + 16;
  const perRow = Math.max(1, Math.floor((W + 16) / (blockW + 16)));
  const blocks = [];
  const used = Math.min(subs.length, perRow) * (blockW + 16) - 16;
  const left = Math.max(0, Math.floor((W - used) / 2));
  let y = TOP;
  let rowHeight = 0;
  subs.forEach((s, k) => {
    const col = k % perRow;
    if (col === 0 && k > 0) { y += rowHeight + 12; rowHeight = 0; }
    const h = head + s.buckets * rowH;
    rowHeight = Math.max(rowHeight, h);
    const x = left + col * (blockW + 16);
    blocks.push({ x, y, head, caption, slotsX: x + GUT + LBL, lblX: x + GUT, gutX: x, tagX: x + GUT + LBL + slotW * b + 4 });
  });
  return { blocks, slotW, rowH, height: y + rowHeight + 8, blockW };
}

/**
 * A cuckoo figure's grid on `ctx`: where bucket i of sub-filter k (rowY) and its slot j (slotX)
 * are, and the outlines drawn on them (a slot: box; a whole bucket: bucketBox).
 */
function cuckooGrid(ctx, L, b) {
  const rowY = (k, i) => L.blocks[k].y + L.blocks[k].head + i * L.rowH;
  const slotX = (k, j) => L.blocks[k].slotsX + j * L.slotW;
  return {
    ctx, L, b, rowY, slotX,
    box(at, color, width = 3) {
      ctx.strokeStyle = color;
      ctx.lineWidth = width;
      ctx.strokeRect(slotX(at.sub, at.slot) + 1.5, rowY(at.sub, at.bucket) + 1.5, L.slotW - 3, L.rowH - 3);
    },
    bucketBox(k, i, color, width) {
      ctx.strokeStyle = color;
      ctx.lineWidth = width;
      ctx.strokeRect(slotX(k, 0) + 0.5, rowY(k, i) + 0.5, L.slotW * b - 1, L.rowH - 1);
    },
  };
}

/** Sub-filter k's table: its caption (when there are several), slot headers, bucket numbers and every slot. */
function drawSubFilter(g, s, k, v) {
  const { ctx, L, b, rowY, slotX } = g;
  const { f } = v.tables;
  const B = L.blocks[k];
  ctx.textBaseline = 'middle';
  if (B.caption) {
    ctx.fillStyle = v.grew === k ? C.mark : C.ink;
    ctx.font = '600 12.5px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.fillText(`sub-filter ${k} · ${s.buckets} buckets${v.grew === k ? ' (new)' : ''}`, B.lblX, B.y + 9);
  }
  ctx.fillStyle = C.muted;
  ctx.font = '10px system-ui, sans-serif';
  ctx.textAlign = 'center';
  for (let j = 0; j < b; j++) ctx.fillText(`slot ${j}`, slotX(k, j) + L.slotW / 2, B.y + B.caption + 8);
  for (let i = 0; i < s.buckets; i++) {
    const y = rowY(k, i);
    ctx.fillStyle = C.muted;
    ctx.font = '600 12px system-ui, sans-serif';
    ctx.textAlign = 'right';
    ctx.fillText(String(i), B.lblX + 22, y + L.rowH / 2);
    for (let j = 0; j < b; j++) drawSlot(ctx, s.slots[i * b + j], v.owners?.[k]?.[i * b + j], f, slotX(k, j), y, L, v.colourOf);
  }
}

/** One slot: its fingerprint in hex and the key that put it there, or a dot when empty. */
function drawSlot(ctx, fp, owner, f, x, y, L, colourOf) {
  ctx.fillStyle = fp ? '#dfe6f3' : C.empty;
  ctx.fillRect(x + 1, y + 1, L.slotW - 2, L.rowH - 2);
  const colour = owner && colourOf?.(owner);
  if (colour) {   // the key's colour, as on the Bloom figure beside it
    ctx.fillStyle = colour;
    ctx.fillRect(x + 1, y + 1, 4, L.rowH - 2);
  }
  ctx.textAlign = 'center';
  if (!fp) {
    ctx.fillStyle = '#b3bac7';
    ctx.font = '12px ui-monospace, monospace';
    ctx.fillText('·', x + L.slotW / 2, y + L.rowH / 2);
    return;
  }
  ctx.fillStyle = C.ink;
  ctx.font = `bold ${f > 8 ? 12 : 13}px ui-monospace, monospace`;
  ctx.fillText(fpHex(fp, f).slice(2), x + L.slotW / 2, y + (owner ? Math.round(L.rowH * 0.36) : L.rowH / 2));
  if (owner) {
    ctx.fillStyle = C.muted;
    ctx.font = '9.5px system-ui, sans-serif';
    ctx.fillText(fitText(ctx, owner, L.slotW - 6), x + L.slotW / 2, y + Math.round(L.rowH * 0.73));
  }
}

/**
 * The key's two candidate buckets in each sub-filter, tagged i1 / i2: arrows from the key (`from`)
 * that reach them over the first 45 % of the animation, then the buckets outlined (red on a miss).
 * During a kick chain the key's own buckets stay tagged, quietly, without arrows.
 */
function drawCandidates(g, v, from, progress) {
  const { ctx, L, rowY } = g;
  const reach = clamp01(progress / 0.45);
  const settled = progress >= 0.45;
  const tag = (k, i, n, bg) => pill(ctx, L.blocks[k].tagX, rowY(k, i) + 6, n === 0 ? 'i1' : 'i2', { bg, font: 'bold 11.5px system-ui, sans-serif', h: 22 });
  v.pairs.forEach(([i1, i2], k) => {
    if (k >= v.tables.subs.length) return;
    [i1, i2].forEach((i, n) => {
      if (v.op === 'kick') { tag(k, i, n, C.muted); return; }
      arrow(ctx, from.x, from.y, L.blocks[k].lblX + 4, rowY(k, i) + L.rowH / 2, reach, C.mark);
      if (!settled) return;
      const color = v.miss ? C.miss : C.mark;
      g.bucketBox(k, i, color, v.miss ? 3 : 2);
      tag(k, i, n, color);
    });
  });
}

/** The slot a removal of a key never added emptied, dashed, with the added key(s) it took, struck out. */
function drawLost(g, lost) {
  const { ctx, L } = g;
  const x = g.slotX(lost.sub, lost.slot);
  const y = g.rowY(lost.sub, lost.bucket);
  ctx.setLineDash([4, 3]);
  g.box(lost, C.miss, 2.5);
  ctx.setLineDash([]);
  ctx.fillStyle = C.miss;
  ctx.font = 'bold 9.5px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const t = fitText(ctx, lost.keys.join(', '), L.slotW - 6);
  const w = ctx.measureText(t).width;
  ctx.fillText(t, x + L.slotW / 2, y + Math.round(L.rowH * 0.73));
  ctx.fillRect(x + L.slotW / 2 - w / 2, y + Math.round(L.rowH * 0.73), w, 1.25);
}

/**
 * One move of a kick chain: its slot outlined; the evicted fingerprint travels (`progress`) to its
 * other bucket along an arc in the gutter, that bucket outlined, dashed, and tagged with the XOR
 * that sent it there.
 */
function drawMove(g, m, f, progress) {
  const { ctx, L, rowY } = g;
  g.box(m, C.mark, 3.5);
  if (!m.evicted) return;
  const B = L.blocks[m.sub];
  ctx.setLineDash([5, 4]);
  g.bucketBox(m.sub, m.next, C.mark, 2);
  ctx.setLineDash([]);
  const y0 = rowY(m.sub, m.bucket) + L.rowH / 2;
  const y1 = rowY(m.sub, m.next) + L.rowH / 2;
  const xs = B.lblX - 2;
  const bend = B.gutX + 4;
  ctx.strokeStyle = C.mark;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(xs, y0);
  ctx.bezierCurveTo(bend, y0, bend, y1, xs, y1);
  ctx.stroke();
  ctx.fillStyle = C.mark;
  ctx.beginPath(); ctx.moveTo(xs, y1); ctx.lineTo(xs - 7, y1 - 4); ctx.lineTo(xs - 7, y1 + 4); ctx.fill();
  const t = 0.5 - 0.5 * Math.cos(Math.PI * clamp01(progress));
  const bx = (1 - t) ** 3 * xs + 3 * (1 - t) ** 2 * t * bend + 3 * (1 - t) * t * t * bend + t ** 3 * xs;
  const by = (1 - t) ** 3 * y0 + 3 * (1 - t) ** 2 * t * y0 + 3 * (1 - t) * t * t * y1 + t ** 3 * y1;
  pill(ctx, Math.max(0, bx - 14), by - 10, fpHex(m.evicted, f).slice(2), { bg: C.mark, font: 'bold 11px ui-monospace, monospace', h: 20 });
  // the rule that sent it there: this bucket ⊕ hash(fingerprint) mod n
  pill(ctx, B.tagX, rowY(m.sub, m.next) + 6, `${m.bucket}⊕${m.bucket ^ m.next}=${m.next}`,
    { bg: C.mark, font: 'bold 11px ui-monospace, monospace', h: 22, maxW: L.blockW });
}

/**
 * A tiny cuckoo filter. v: { tables ({ f, b, subs }) as shown, owners (per sub-filter, a key name
 * or '' per slot), key, hashText, fp, pairs ([i1, i2] per sub-filter), op: 'add' | 'check' |
 * 'kick' | null, hit ({ sub, bucket, slot }), miss (true: the fingerprint is in no candidate
 * bucket), move (one kick: { sub, bucket, slot, placed, evicted, next }), placedAt ({ sub,
 * bucket, slot } of a fingerprint just stored), grew (index of a new sub-filter), lost ({ sub, bucket,
 * slot, keys }: a slot a removal emptied, and the added keys that lost their fingerprint) }.
 */
export function drawTinyCuckoo(canvas, v, progress = 1) {
  const cw = canvas.clientWidth || 480;
  const { b, subs } = v.tables;
  const L = cuckooLayout(cw, subs, b, v.rowH);
  const { ctx, W } = fitCanvas(canvas, L.height / cw, L.height, L.height);
  ctx.fillStyle = C.paper;
  ctx.fillRect(0, 0, W, L.height);
  const from = keyBand(ctx, W, v);
  const g = cuckooGrid(ctx, L, b);
  // where each sub-filter's slots are (x, y of slot 0 of bucket 0, slot width, row height), for pointing at a slot
  canvas.dataset.layout = subs.map((s, k) => [g.slotX(k, 0), g.rowY(k, 0), L.slotW, L.rowH, s.buckets].map(Math.round).join(' ')).join(';');
  subs.forEach((s, k) => drawSubFilter(g, s, k, v));
  if (v.pairs) drawCandidates(g, v, from, progress);
  const settled = progress >= 0.45;
  if (settled && v.hit) g.box(v.hit, v.op === 'add' ? C.mark : C.hit, v.op === 'add' ? 1.5 : 3);
  if (settled && v.lost) drawLost(g, v.lost);
  if (settled && v.placedAt) g.box(v.placedAt, C.mark, 3.5);
  if (v.path?.length) drawPath(ctx, v.path, g.slotX, g.rowY);
  if (v.move) drawMove(g, v.move, v.tables.f, progress);
  if (v.cursor && v.cursor.sub < subs.length) {   // the slot inspected from the keyboard
    ctx.setLineDash([4, 3]);
    g.box(v.cursor, C.ink, 2.5);
    ctx.setLineDash([]);
  }
}
