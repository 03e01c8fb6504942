// A small cuckoo filter the visitor drives: add, check and remove named keys; every add is replayed
// move by move (the kick chain played one move at a time, automatically or on Step) and ends on
// the table the filter really holds. Used by the first figure and by the step-by-step section.
import { CuckooFilter } from './lib.js';
import { fpHex, readCuckooTables, replayAdd, sameTables, tablesAfterMoves } from './cuckoo-model.js';
import { animate, drawTinyCuckoo } from './tiny-draw.js';
import { bytes, int, q, showFigureVerdict } from './ui.js';

const MAX_SHOWN_MOVES = 12;   // a failed chain of hundreds of moves: the first few, then the end

const tableText = (t) => t.subs.map((s) => s.slots.join(',')).join('|');
/** The slot that differs between two tables of one filter (a remove empties one): { sub, bucket, slot } or null. */
function changedSlot(before, after) {
  let at = null;
  before.subs.forEach((s, sub) => s.slots.forEach((fp, i) => { if (fp !== after.subs[sub]?.slots[i]) at = { sub, bucket: Math.floor(i / before.b), slot: i % before.b }; }));
  return at;
}
/** The key that owns the slot `at` ({ sub, bucket, slot }) of `tables`, from owners(): a name or ''. */
const ownerAt = (owners, tables, at) => owners[at.sub][at.bucket * tables.b + at.slot];

export class CuckooPlay {
  /**
   * @param els { canvas, verdict, how } elements; options for new CuckooFilter;
   *   stepMode() → true to wait for step() between kicks; delay() → ms per move;
   *   onStatus(text, state, { move, moves }) optional: playback progress ("Move 2 of 5: …"); text
   *   null keeps the last one; state 'idle' | 'playing' | 'waiting' (for Step) | 'done';
   *   rowHeight(canvas width) → px of a bucket's row (default 34); colourOf(key) → a key's colour, or null.
   */
  constructor(els, { options, seedKeys = [], stepMode = () => false, delay = () => 450, onStatus = () => {}, rowHeight = () => 34, colourOf = null }) {
    Object.assign(this, { els, options, seedKeys, stepMode, delay, onStatus, rowHeight, colourOf });
    this.filter = null;
    this.token = 0;
    for (const type of ['pointermove', 'click']) els.canvas.addEventListener(type, (e) => this.explainSlot(this.slotAt(e)));
    // from the keyboard: the figure takes the focus; arrows move between buckets (up, down) and
    // slots (left, right), Home / End to the first / last slot, each named as a pointer would
    this.cursor = null;
    els.canvas.tabIndex = 0;
    els.canvas.addEventListener('keydown', (e) => this.keyMove(e));
    els.canvas.addEventListener('focus', () => { if (this.cursor === null) this.moveCursor(0, 0); else this.redraw(); });
    els.canvas.addEventListener('blur', () => this.redraw());
    this.release = null;
    this.reset();
  }

  /** A fresh filter (with `options` if given) holding the seed keys (none when `empty`). */
  reset(options = this.options, { empty = false } = {}) {
    this.interrupt();
    const next = new CuckooFilter(options);   // throws on bad options: the old filter stays
    this.filter?.free();
    this.filter = next;
    this.options = options;
    this.keys = [];
    for (const k of empty ? [] : this.seedKeys) if (this.filter.add(k)) this.keys.push(k);
    this.verdict('', '');
    this.els.how.textContent = '';
    this.trail(null);
    this.draw({ tables: readCuckooTables(this.filter) });
    this.onStatus('', 'idle');
  }

  /** Stops a playback in progress (it is superseded by a newer operation). */
  interrupt() {
    if (this.chain) {   // the timeline belongs to the last chain: another operation retires it
      this.chain = null;
      this.els.scrub?.dispatchEvent(new CustomEvent('chain', { detail: null }));
    }
    this.token++;
    this.release?.();
    this.release = null;
  }

  /** Advances a playback waiting in step mode. */
  step() {
    const r = this.release;
    this.release = null;
    r?.();
  }

  get waiting() { return this.release !== null; }

  /** Which named key owns each occupied slot (for the labels under the fingerprints). */
  owners(tables, extra = []) {
    const { b } = tables;
    const out = tables.subs.map((s) => new Array(s.slots.length).fill(''));
    for (const key of [...this.keys, ...extra]) {
      const { fingerprint, buckets } = this.filter.locate(key);
      placed: for (let k = 0; k < tables.subs.length && k < buckets.length; k++) {
        for (const i of buckets[k]) {
          for (let j = 0; j < b; j++) {
            const at = i * b + j;
            if (tables.subs[k].slots[at] === fingerprint && !out[k][at]) { out[k][at] = key; break placed; }
          }
        }
      }
    }
    return out;
  }

  /** The slot under a pointer event on the figure: { sub, bucket, slot } or null. */
  slotAt(e) {
    const { canvas } = this.els;
    const r = canvas.getBoundingClientRect();
    const b = this.filter.info().bucketSize;
    const blocks = (canvas.dataset.layout ?? '').split(';').map((t) => t.split(' ').map(Number));
    for (let sub = 0; sub < blocks.length; sub++) {
      const [x0, y0, w, h, buckets] = blocks[sub];
      const slot = Math.floor((e.clientX - r.left - x0) / w);
      const bucket = Math.floor((e.clientY - r.top - y0) / h);
      if (slot >= 0 && slot < b && bucket >= 0 && bucket < buckets) return { sub, bucket, slot };
    }
    return null;
  }

  /**
   * Says what a slot holds (els.cell, optional): its fingerprint, the key that put it there, and
   * the other bucket that fingerprint may move to, by the same XOR as a kick.
   */
  explainSlot(at) {
    const el = this.els.cell;
    if (!el || !at) return;
    const tables = readCuckooTables(this.filter);
    const { f, b } = tables;
    const fp = tables.subs[at.sub]?.slots[at.bucket * b + at.slot] ?? 0;
    const where = `${tables.subs.length > 1 ? `sub-filter ${at.sub}, ` : ''}bucket ${at.bucket}, slot ${at.slot}`;
    const owner = fp ? ownerAt(this.owners(tables), tables, at) : '';
    let other = '';
    if (owner) {
      const [i1, i2] = this.filter.locate(owner).buckets[at.sub];
      const alt = at.bucket === i1 ? i2 : i1;
      other = `; kicked out, it would go to ${at.bucket} ⊕ ${at.bucket ^ alt} = ${alt}, its other bucket`;
    }
    el.classList.remove('idle');
    el.textContent = fp ? `${where}: ${fpHex(fp, f)}${owner ? `, the fingerprint of ${q(owner)}` : ''}${other}.` : `${where}: empty.`;
    Object.assign(el.dataset, { bucket: String(at.bucket), slot: String(at.slot), owner });
  }

  /** Arrow keys on the focused figure: move the inspected slot and say what it holds. */
  keyMove(e) {
    const { row, slot } = this.cursor ?? { row: 0, slot: 0 };
    const moves = { ArrowDown: [row + 1, slot], ArrowUp: [row - 1, slot], ArrowRight: [row, slot + 1], ArrowLeft: [row, slot - 1], Home: [0, 0], End: [Infinity, Infinity] };
    if (!(e.key in moves)) return;
    e.preventDefault();
    this.moveCursor(...moves[e.key]);
  }

  /** The slot inspected from the keyboard: row (bucket, counted over every sub-filter) and slot, clamped. */
  moveCursor(row, slot) {
    const { b, subs } = readCuckooTables(this.filter);
    const rows = subs.flatMap((s, sub) => Array.from({ length: s.buckets }, (_, bucket) => ({ sub, bucket })));
    const r = Math.max(0, Math.min(rows.length - 1, row));
    const j = Math.max(0, Math.min(b - 1, slot));
    this.cursor = { row: r, slot: j, at: { ...rows[r], slot: j } };
    this.explainSlot(this.cursor.at);
    this.els.canvas.dataset.cursor = `${rows[r].sub}.${rows[r].bucket}.${j}`;
    this.redraw();
  }

  /**
   * The rows of the move being shown (its bucket and, for an eviction, the other bucket), as CSS px
   * from the canvas's top (data-active-rows: each row's bottom). With els.bar (a sticky Step bar at
   * the bottom of a phone's screen), the page scrolls so that they stay above the bar.
   */
  showActive(view) {
    const { canvas, bar } = this.els;
    const m = view.move;
    if (!m) { delete canvas.dataset.activeRows; return; }
    const blocks = (canvas.dataset.layout ?? '').split(';').map((t) => t.split(' ').map(Number));
    const [, y0, , h] = blocks[m.sub ?? 0] ?? [0, 0, 0, 0];
    const rows = [m.bucket, ...(m.evicted ? [m.next] : [])];
    const tops = rows.map((i) => y0 + i * h);
    const bottoms = rows.map((i) => y0 + (i + 1) * h);
    canvas.dataset.activeRows = bottoms.map(Math.round).join(' ');
    if (!bar || getComputedStyle(bar).position !== 'sticky') return;
    const r = canvas.getBoundingClientRect();
    const limit = bar.getBoundingClientRect().top - 6;
    const low = r.top + Math.max(...bottoms);
    const high = r.top + Math.min(...tops);
    if (low > limit) window.scrollBy({ top: Math.min(low - limit, Math.max(0, high - 6)), behavior: 'instant' });
    else if (high < 0) window.scrollBy({ top: high - 6, behavior: 'instant' });
  }

  /** showActive again for what is drawn (after the Step bar changed height). */
  keepActiveVisible() {
    if (this.lastView?.view?.move) this.showActive(this.lastView.view);
  }

  /** Draws the figure again (after a width change) as it was last drawn. */
  redraw() {
    if (this.lastView) this.draw(this.lastView.view, 1, this.lastView.extraOwners);
  }

  draw(view, progress = 1, extraOwners = []) {
    this.lastView = { view, extraOwners };
    const { canvas } = this.els;
    const { f, b, subs } = view.tables;
    const owners = this.owners(view.tables, extraOwners);
    const cursor = document.activeElement === canvas && this.cursor ? this.cursor.at : null;
    drawTinyCuckoo(canvas, { ...view, owners, cursor, rowH: this.rowHeight(canvas.clientWidth || 480), colourOf: this.colourOf }, progress);
    canvas.dataset.path = view.path ? view.path.map((m) => `${m.bucket}.${m.slot}`).join(' ') : '';
    this.showActive(view);
    canvas.dataset.shown = tableText(view.tables);
    const rows = subs.flatMap((s, k) => Array.from({ length: s.buckets }, (_, i) => {
      const fps = s.slots.slice(i * b, i * b + b).map((fp, j) => (fp ? `${fpHex(fp, f)}${owners[k][i * b + j] ? ` (${owners[k][i * b + j]})` : ''}` : 'empty'));
      return `${subs.length > 1 ? `sub-filter ${k} ` : ''}bucket ${i}: ${fps.join(', ')}`;
    }));
    canvas.setAttribute('aria-label', `Cuckoo filter, ${subs.length > 1 ? `${subs.length} sub-filters, ` : ''}${subs[0].buckets} buckets of ${b} slots, `
      + `${f}-bit fingerprints. ${rows.join('; ')}.${view.key ? ` Last key ${q(view.key)}: fingerprint ${fpHex(view.fp, f)}, buckets ${view.pairs?.[0]?.join(' and ')}.` : ''}`);
  }

  verdict(text, state) {
    const el = this.els.verdict;
    showFigureVerdict(el, text, state);
    delete el.dataset.broken;
    delete el.dataset.wouldBreak;
  }

  /** The key's fingerprint and buckets, and the sentence that derives them. */
  describeKey(key) {
    const { fingerprint: fp, buckets } = this.filter.locate(key);
    const { f } = readCuckooTables(this.filter);
    const [i1, i2] = buckets[buckets.length - 1];
    const n = this.filter.info().buckets / buckets.length;   // buckets per sub-filter (all equal when expansion ≤ 1)
    this.els.how.textContent = `fingerprint = a non-zero ${f}-bit value from the hash of ${q(key)} = ${fpHex(fp, f)}; i1 = hash mod ${int(n)} = ${i1}; `
      + `i2 = i1 ⊕ (hash(fingerprint) mod ${int(n)}) = ${i1} ⊕ ${i1 ^ i2} = ${i2}. Either bucket may hold it; ${i2} ⊕ ${i1 ^ i2} = ${i1} leads back.`;
    return { fp, pairs: buckets, hashText: `fp ${fpHex(fp, f)} · i1 ${i1} · i2 ${i2}` };
  }

  /** In step mode, waits for Step (or Play to the end); otherwise goes straight on. */
  async pace(token, status) {
    if (!this.stepMode() || this.finishing) return token === this.token;
    this.onStatus(`${status} Press Step.`, 'waiting');
    await new Promise((resolve) => { this.release = resolve; });
    return token === this.token;
  }

  /** Plays the rest of the current chain without waiting for Step. */
  finish() {
    this.finishing = true;
    this.step();
  }

  /** Adds `key`; the figure plays what happened (quick: just the end). */
  async add(key, { quick = false } = {}) {
    this.interrupt();
    this.finishing = false;
    const token = this.token;
    const f = this.filter;
    const before = readCuckooTables(f);
    const bytesBefore = f.byteLength;
    const k = this.describeKey(key);
    const replay = replayAdd(f, key);
    const ok = f.add(key);
    const real = readCuckooTables(f);
    const match = ok === (replay.outcome !== 'full') && sameTables(replay.after, real);
    this.els.canvas.dataset.match = String(match);
    if (ok) this.keys.push(key);
    this.trail(null);
    const played = replay.outcome !== 'stored' && !quick;
    // a chain that is played keeps its ending for the end: the verdict comes after the last move
    const verdict = () => this.explainAdd(key, replay, before, real, bytesBefore, match);
    if (played) this.verdict('', 'playing'); else verdict();
    this.onStatus('', 'playing', { move: 0, moves: replay.moves.length });
    const base = { key, hashText: k.hashText, fp: k.fp, pairs: k.pairs };
    const { moves } = replay;
    const ms = quick ? 0 : 550;
    if (!(await animate(this.els.canvas, ms, (p) => this.draw({ ...base, op: 'add', tables: before }, p, [key])))) return;
    if (played) {
      const total = moves.length;
      const shown = replay.outcome === 'kicked' ? total : Math.min(total, MAX_SHOWN_MOVES);
      this.chain = { base, moves, before, shown, total, key };
      let said = `Buckets ${replay.i1} and ${replay.i2} are both full: ${fpHex(replay.fp, before.f)} must take someone's slot.`;
      for (let n = 0; n < shown; n++) {
        if (!(await this.pace(token, said))) return;
        said = `Move ${n + 1}: ${this.moveText(moves[n], before)}.`;
        this.trail(moves[n], before, n + 1);
        this.onStatus(said, 'playing', { move: n + 1, moves: total });
        if (!(await animate(this.els.canvas, this.delay(), (p) => this.draw({ ...base, op: 'kick', move: moves[n], path: moves.slice(0, n + 1), tables: tablesAfterMoves(before, moves, n + 1) }, p, [key])))) return;
      }
      if (replay.outcome !== 'kicked') {
        if (!(await this.pace(token, said))) return;
        const more = total > shown ? `… ${int(total - shown)} more moves like these: ` : '';
        this.trail({ text: `${more}no free slot after ${int(total)} kicks, the limit: every move is undone${replay.outcome === 'grew' ? ', and a new sub-filter takes the fingerprint' : ''}.` });
        this.onStatus(`${more}no free slot after ${int(total)} kicks, the limit, so every move was undone`
          + `${replay.outcome === 'grew' ? ' and a new sub-filter took the fingerprint' : ''}.`, 'playing', { move: total, moves: total });
      }
      verdict();
    }
    // the end: what the filter holds now, the new fingerprint's slot marked (and where the last
    // kicked one landed)
    const first = moves[0];
    const still = first && real.subs[first.sub]?.slots[first.bucket * real.b + first.slot] === replay.fp;
    const placedAt = replay.outcome === 'grew' ? { sub: replay.sub, bucket: replay.i1, slot: 0 }
      : replay.outcome !== 'full' && still ? { sub: first.sub, bucket: first.bucket, slot: first.slot } : null;
    const last = replay.outcome === 'kicked' ? moves.at(-1) : null;
    const pairs = replay.outcome === 'grew' ? this.filter.locate(key).buckets : k.pairs;
    const endView = { ...base, pairs, op: replay.outcome === 'full' ? 'check' : 'add', miss: replay.outcome === 'full', placedAt,
      hit: last ? { sub: last.sub, bucket: last.bucket, slot: last.slot } : null,
      grew: replay.outcome === 'grew' ? replay.sub : undefined, path: played && replay.outcome === 'kicked' ? moves : undefined, tables: real };
    this.draw(endView, 1, [key]);
    if (this.chain) {
      this.chain.end = endView;
      this.els.scrub?.dispatchEvent(new CustomEvent('chain', { detail: { moves: this.chain.shown } }));
    }
    this.onStatus(replay.outcome === 'kicked' ? `${moves.length} moves: ${moves.length - 1} kick${moves.length === 2 ? '' : 's'}, then a free slot: done.`
      : replay.outcome === 'stored' ? '' : null, 'done', { move: moves.length, moves: moves.length });
  }

  /**
   * The last chain played, at move `n` (0: before the first move; its last move: the table the add
   * left), for the timeline under the table: drag it back and forth. Returns the status line.
   */
  scrubTo(n) {
    const c = this.chain;
    if (!c) return '';
    const at = Math.max(0, Math.min(c.shown, n));
    if (at === c.shown) this.draw(c.end, 1, [c.key]);
    else if (at === 0) this.draw({ ...c.base, op: 'add', tables: c.before }, 1, [c.key]);
    else this.draw({ ...c.base, op: 'kick', move: c.moves[at - 1], path: c.moves.slice(0, at), tables: tablesAfterMoves(c.before, c.moves, at) }, 1, [c.key]);
    if (at > 0 && at < c.shown) this.showActive({ move: c.moves[at - 1] });
    for (const li of this.els.trail?.children ?? []) li.classList.toggle('now', Number(li.value) === at);
    return at === 0 ? `Before the first move: buckets ${c.base.pairs[c.base.pairs.length - 1].join(' and ')} are full.`
      : at === c.shown && c.shown === c.total && c.moves[at - 1].evicted === 0 ? `Move ${at} of ${c.total}: ${this.moveText(c.moves[at - 1], c.before)}: the table as the filter holds it.`
        : `Move ${at} of ${c.total}: ${this.moveText(c.moves[at - 1], c.before)}.`;
  }

  /**
   * The numbered path of a kick chain (els.trail, optional): one line per move with the XOR that
   * sends the evicted fingerprint to its other bucket. null clears it; { text } adds a closing line.
   */
  trail(m, tables, n) {
    const ol = this.els.trail;
    if (!ol) return;
    if (m === null) { ol.replaceChildren(); ol.hidden = true; return; }
    ol.hidden = false;
    const li = document.createElement('li');
    if (m.text) { li.textContent = m.text; li.className = 'end'; ol.append(li); return; }
    li.value = n;
    li.textContent = this.moveText(m, tables);
    li.dataset.bucket = String(m.bucket);
    if (m.evicted) { li.dataset.next = String(m.next); li.dataset.xor = String(m.bucket ^ m.next); }
    ol.append(li);
  }

  /** One move in words; a kick names the XOR that gives the evicted fingerprint its other bucket. */
  moveText(m, tables) {
    const { f } = tables;
    const n = tables.subs[m.sub].buckets;
    return m.evicted
      ? `${fpHex(m.placed, f)} goes into bucket ${m.bucket}, slot ${m.slot} (drawn at random), kicking out ${fpHex(m.evicted, f)}; its other bucket is `
        + `${m.bucket} ⊕ (hash(${fpHex(m.evicted, f)}) mod ${int(n)}) = ${m.bucket} ⊕ ${m.bucket ^ m.next} = ${m.next}`
      : `${fpHex(m.placed, f)} goes into the free slot ${m.slot} of bucket ${m.bucket}`;
  }

  explainAdd(key, r, before, real, bytesBefore, match) {
    const { f, b } = before;
    const hex = fpHex(r.fp, f);
    const slotsOf = (t, k, i) => t.subs[k].slots.slice(i * b, i * b + b);
    const copies = before.subs[r.sub]
      ? [r.i1, r.i2].reduce((a, i) => a + slotsOf(before, r.sub, i).filter((x) => x === r.fp).length, 0) : 0;
    const newest = before.subs.length - 1;
    const dupes = [r.i1, r.i2].every((i) => before.subs[newest] && slotsOf(before, newest, i).every((x) => x === r.fp));
    const why = dupes
      ? `both candidate buckets (${r.i1} and ${r.i2}) hold ${b} copies of ${hex}, the same key's fingerprint: a kick only moves a copy to its other bucket, which is the other full one. One key fits at most 2·b = ${2 * b} times per sub-filter`
      : `both candidate buckets were full and ${int(r.moves.length)} kicks found no free slot (${int(before.subs.reduce((a, s) => a + s.slots.filter((x) => x).length, 0))} of ${int(before.subs.reduce((a, s) => a + s.slots.length, 0))} slots taken)`;
    let text;
    let state;
    if (r.outcome === 'stored') {
      const m = r.moves[0];
      text = `${q(key)}: ${hex} stored in bucket ${m.bucket}, slot ${m.slot}${r.sub > 0 ? ` of sub-filter ${r.sub}` : ''}${m.bucket === r.i2 ? ` (bucket ${r.i1} was full)` : ''}.`;
      state = 'added';
    } else if (r.outcome === 'kicked') {
      const m = r.moves[0];
      text = `${q(key)}: buckets ${r.i1} and ${r.i2} were full, so ${hex} took slot ${m.slot} of bucket ${m.bucket} and kicked out ${fpHex(m.evicted, f)}, `
        + `which moved to its other bucket (kicking out another fingerprint when that was full too): ${r.kicks} kick${r.kicks === 1 ? '' : 's'} until a free slot. Stored.`;
      state = 'kicked';
    } else if (r.outcome === 'grew') {
      text = `${q(key)}: ${why}. So the filter grew: new sub-filter ${r.sub} of ${int(real.subs[r.sub].buckets)} buckets (${bytes(bytesBefore)} → ${bytes(this.filter.byteLength)}), and ${hex} went into its bucket ${r.i1}. Checks now read every sub-filter.`;
      state = 'grew';
    } else {
      text = `${q(key)} not added: the filter is FULL and may not grow (expansion 0): ${why}. All ${int(r.moves.length)} moves were undone; nothing stored was lost.`;
      state = 'full';
    }
    if (!match) text += ' (The replay above differs from what the filter did; the figure shows the filter\'s real table.)';
    this.verdict(text, state);
    this.els.verdict.dataset.copies = String(copies);
  }

  /**
   * Stops a chain being played and clears its trail, for a new operation on `key`: the table as
   * it is and the key's fingerprint and buckets (describeKey).
   */
  begin(key) {
    this.interrupt();
    this.trail(null);
    return { tables: readCuckooTables(this.filter), k: this.describeKey(key) };
  }

  /** The figure after a check, a warning or a removal: the key's buckets marked (marks: hit, miss, placedAt, lost). */
  showCheck(key, k, tables, marks) {
    this.onStatus('', 'idle');
    const view = { key, hashText: k.hashText, fp: k.fp, pairs: k.pairs, op: 'check', ...marks, tables };
    return animate(this.els.canvas, 700, (p) => this.draw(view, p));
  }

  check(key) {
    const { tables, k } = this.begin(key);
    const yes = this.filter.has(key);
    let hit = null;
    for (let s = 0; s < k.pairs.length && !hit; s++) {
      for (const i of k.pairs[s]) {
        const j = tables.subs[s].slots.slice(i * tables.b, (i + 1) * tables.b).indexOf(k.fp);
        if (j >= 0) { hit = { sub: s, bucket: i, slot: j }; break; }
      }
    }
    const hex = fpHex(k.fp, tables.f);
    const where = (pairs) => pairs.map(([a, b], s) => `${pairs.length > 1 ? `sub-filter ${s}: ` : ''}buckets ${a} and ${b}`).join(', ');
    if (!yes) {
      this.verdict(`${q(key)}: ${hex} is in neither candidate bucket (${where(k.pairs)}): certainly absent.${this.keys.includes(key)
        ? ' Yet it was added: its fingerprint was taken by the removal of a key never added, a false negative.' : ''}`, this.keys.includes(key) ? 'false-negative' : 'absent');
    } else if (this.keys.includes(key)) {
      this.verdict(`${q(key)}: ${hex} found in bucket ${hit.bucket}, slot ${hit.slot}: maybe present (it was added).`, 'present');
    } else {
      const owner = ownerAt(this.owners(tables), tables, hit);
      this.verdict(`${q(key)}: ${hex} found in bucket ${hit.bucket}, slot ${hit.slot}${owner ? `, put there by ${q(owner)}` : ''}: maybe present, but ${q(key)} was never added: a false positive (two keys, one fingerprint, a shared bucket).`, 'false-positive');
    }
    return this.showCheck(key, k, tables, { hit, miss: !yes });
  }

  /**
   * What remove(key) would do, without doing it: the library's own answer on a copy of the filter.
   * { ok (something would be removed), at (the slot it would empty), broken (added keys that would
   * then read absent) }.
   */
  predictRemove(key) {
    const f = this.filter;
    const copy = f.constructor.deserialize(f.serialize());
    try {
      const ok = copy.remove(key);
      return { ok, at: changedSlot(readCuckooTables(f), readCuckooTables(copy)),
        broken: [...new Set(this.keys)].filter((x) => f.has(x) && !copy.has(x)) };
    } finally {
      copy.free();
    }
  }

  /**
   * A key never added that reads present (a false positive), preferably one whose removal would
   * break an added key: the page offers it to try the lesson. null if none is found.
   */
  findStranger(prefix = 'stranger-') {
    let fallback = null;
    for (let i = 1; i <= 5000; i++) {
      const k = `${prefix}${i}`;
      if (this.keys.includes(k) || !this.filter.has(k)) continue;
      if (this.predictRemove(k).broken.length) return k;
      fallback ??= k;
    }
    return fallback;
  }

  /**
   * Before removing a key never added that reads present: says which slot remove() would empty,
   * whose fingerprint that is, and which added keys would then read absent (predictRemove).
   */
  warnRemove(key) {
    const { tables, k } = this.begin(key);
    const { at, broken } = this.predictRemove(key);
    const owner = ownerAt(this.owners(tables), tables, at);
    const names = broken.map((x) => `${q(x)}`).join(', ');
    this.verdict(`Careful: ${q(key)} was never added, yet ${fpHex(k.fp, tables.f)} is in bucket ${at.bucket}, slot ${at.slot}${owner ? `, put there by ${q(owner)}` : ''}, `
      + `so it looks present (a false positive). remove() cannot tell whose copy it is and would take it: `
      + (broken.length ? `${names} would then read as certainly absent, a false negative.` : 'this time every added key would still read present (another copy is left).')
      + ' Remove anyway to see it happen.', 'warn');
    this.els.verdict.dataset.wouldBreak = broken.join(' ');
    return this.showCheck(key, k, tables, { hit: at });
  }

  /** Removes one copy of a key (the page warns when it was never added: see the lesson). */
  remove(key) {
    const f = this.filter;
    const { tables: before, k } = this.begin(key);
    const wasAdded = this.keys.includes(key);
    const ownersBefore = this.owners(before);
    const readBefore = new Set([...new Set(this.keys)].filter((x) => f.has(x)));
    const ok = f.remove(key);
    const tables = readCuckooTables(f);
    const at = changedSlot(before, tables);
    const hex = fpHex(k.fp, before.f);
    let lost = null;
    if (ok && wasAdded) this.keys.splice(this.keys.lastIndexOf(key), 1);
    if (!ok) {
      this.verdict(`${q(key)}: ${hex} is in neither candidate bucket: nothing removed.`, 'not-found');
    } else if (wasAdded) {
      this.verdict(`${q(key)}: one ${hex} removed from bucket ${at.bucket}, slot ${at.slot}.`, 'removed');
    } else {
      // the lesson: whatever matched was another key's fingerprint; that key may now be lost
      const owner = ownerAt(ownersBefore, before, at);
      const broken = [...readBefore].filter((x) => !f.has(x));
      this.verdict(`${q(key)} was never added, yet ${hex} matched in bucket ${at.bucket} and was removed${owner ? ` (a copy of ${q(owner)}'s fingerprint)` : ''}. `
        + (broken.length ? `${broken.map((x) => `${q(x)}`).join(', ')} now ${broken.length === 1 ? 'reads' : 'read'} as certainly absent, a false negative. `
          : 'Every added key still reads present this time (another copy is left), but the next removal may not be so lucky. ')
        + 'Remove only keys you added.', 'removed-unknown');
      this.els.verdict.dataset.broken = broken.join(' ');
      if (broken.length) lost = { ...at, keys: broken };
    }
    return this.showCheck(key, k, tables, { miss: !ok, placedAt: lost ? null : at, lost });
  }
}
