// "Fingerprints and kicks" (#steps): the cuckoo filter step by step. An 8 × 4 table with 8-bit
// fingerprints, already two thirds full of named keys, so an add soon kicks: the chain is played one move at a time (Step,
// or automatically at the chosen speed) and ends on the filter's real table. Lessons: the same
// key added 2b + 1 = 9 times (FULL with expansion 0, a new sub-filter with expansion 1), and
// removing a key never added: the page warns first (which added keys it would break, from the
// library's own answer on a copy), and after Remove anyway marks the slot it emptied and names the
// added keys that now read absent.
import { CuckooPlay } from './cuckoo-play.js';
import { $, guard, onWidthChange } from './ui.js';

export const STEPS_SEED_KEYS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'kevin',
  'laura', 'mike', 'nina', 'oscar', 'peggy', 'quinn', 'rupert', 'sybil', 'trent', 'ursula', 'victor'];
export const stepsOptions = (expansion) => ({ capacity: 20, fingerprintBits: 8, bucketSize: 4, expansion, maxIterations: 500 });
const SPEEDS = [1500, 1000, 600, 300, 120];   // ms a move, slow → fast

let play = null;
let pending = null;   // a key never added whose removal waits for "Remove anyway"

function confirmRemove(key) {
  pending = key;
  $('steps-confirm').hidden = key === null;
}

/** Remove: at once for a key that was added (or is absent); a key never added that looks present is warned about first. */
function remove(key) {
  const { ok } = play.predictRemove(key);
  if (play.keys.includes(key) || !ok) return play.remove(key);
  confirmRemove(key);
  return play.warnRemove(key);
}

function readKey() {
  const k = $('steps-key').value;
  if (k === '') throw new Error('Type a key first.');
  return k;
}

function showStatus(text, state, counts = {}) {
  const el = $('steps-status');
  if (text !== null) el.textContent = text;
  el.dataset.state = state;
  if (counts.moves !== undefined) { el.dataset.move = String(counts.move); el.dataset.moves = String(counts.moves); }
  // aria-disabled, not disabled: a disabled button loses the focus, and the next Enter would go nowhere
  const waiting = state === 'waiting';
  $('steps-step').setAttribute('aria-disabled', String(!waiting));
  $('steps-finish').setAttribute('aria-disabled', String(!waiting));
  // a longer status makes the sticky Step bar taller: the move's rows stay above it
  if (text !== null) play?.keepActiveVisible();
}

function showSpeed() {
  const ms = SPEEDS[Number($('steps-speed').value) - 1];
  $('steps-speed-text').textContent = `${ms} ms a move`;
  $('steps-speed').setAttribute('aria-valuetext', `${ms} milliseconds a move`);
}

export function setupCuckooSteps() {
  play = new CuckooPlay({ canvas: $('steps-canvas'), verdict: $('steps-verdict'), how: $('steps-how'), trail: $('steps-trail'), cell: $('steps-cell'), bar: document.querySelector('#steps .step-bar'), scrub: $('steps-scrub') }, {
    options: stepsOptions(Number($('steps-expansion').value)),
    seedKeys: STEPS_SEED_KEYS,
    stepMode: () => $('steps-stepwise').checked,
    delay: () => SPEEDS[Number($('steps-speed').value) - 1],
    onStatus: showStatus,
    rowHeight: () => (matchMedia('(max-width: 600px)').matches ? 44 : 34),   // a phone: slots 44 px tall, a thumb's target
  });
  const errorEl = $('steps-error');
  $('steps-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const op = e.submitter?.id?.replace('steps-', '') ?? 'add';
    confirmRemove(null);
    guard(errorEl, () => {
      const key = readKey();
      return op === 'check' ? play.check(key) : op === 'remove' ? remove(key) : play.add(key);
    });
  });
  // the duplicate limit, on an empty table so nothing else is in the way: eight copies go in at
  // once, the ninth is played
  $('steps-dup').addEventListener('click', () => guard(errorEl, async () => {
    confirmRemove(null);
    const key = readKey();
    play.reset(undefined, { empty: true });
    const b = play.filter.info().bucketSize;
    for (let i = 0; i < 2 * b; i++) await play.add(key, { quick: true });
    return play.add(key);
  }));
  $('steps-expansion').addEventListener('change', () => guard(errorEl, () => { confirmRemove(null); play.reset(stepsOptions(Number($('steps-expansion').value))); }));
  $('steps-reset').addEventListener('click', () => guard(errorEl, () => { confirmRemove(null); play.reset(); }));
  $('steps-remove-anyway').addEventListener('click', () => guard(errorEl, () => {
    const key = pending;
    confirmRemove(null);
    return key === null ? undefined : play.remove(key);
  }));
  $('steps-keep').addEventListener('click', () => guard(errorEl, () => {
    const key = pending;
    confirmRemove(null);
    return key === null ? undefined : play.check(key);
  }));
  // a key never added whose fingerprint sits in one of its buckets, found by trying names
  $('steps-stranger').addEventListener('click', () => guard(errorEl, () => {
    confirmRemove(null);
    const key = play.findStranger();
    if (!key) throw new Error('No key among the first 5,000 tried looks present: add a few keys first.');
    $('steps-key').value = key;
    return play.check(key);
  }));
  // the timeline: after a chain has played, drag back and forth through its moves
  const scrub = $('steps-scrub');
  scrub.addEventListener('chain', (e) => {
    const row = $('steps-scrub-row');
    row.hidden = e.detail === null;
    if (e.detail === null) return;
    scrub.max = String(e.detail.moves);
    scrub.value = String(e.detail.moves);
    scrub.setAttribute('aria-valuetext', `after move ${e.detail.moves} of ${e.detail.moves}`);
  });
  scrub.addEventListener('input', () => guard(errorEl, () => {
    const n = Number(scrub.value);
    const text = play.scrubTo(n);
    showStatus(text, 'scrub', { move: n, moves: Number(scrub.max) });
    scrub.setAttribute('aria-valuetext', n === 0 ? 'before the first move' : `after move ${n} of ${scrub.max}`);
  }));
  $('steps-step').addEventListener('click', () => play.step());
  $('steps-finish').addEventListener('click', () => play.finish());
  // unticking "one kick at a time" while a chain waits lets it play on
  $('steps-stepwise').addEventListener('change', () => { if (!$('steps-stepwise').checked) play.step(); });
  $('steps-speed').addEventListener('input', showSpeed);
  showSpeed();
  onWidthChange($('steps-canvas'), () => play.redraw());
}
