// "Worker mode" (#worker, an appendix). The selected filter's bytes are serialized and
// transferred to a module Worker with the compiled wasm module; checks go there and the round-trip time is shown next
// to the main thread's own answer. Why it matters: a big check of many URLs runs once on the main
// thread and once in the worker while a frame counter runs, and the longest main-thread stall of
// each is measured and shown side by side.
import { getWasmModule } from './lib.js';
import { workerClient } from './worker-rpc.js';
import { getEntry, onChange } from './store.js';
import { visitUrls } from './sample-urls.js';
import { $, bytes, guard, int, lines, ms, showError, showVerdict } from './ui.js';

let sent = null; // { name, version }
let keySeq = 0;

const request = workerClient({
  make: () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'bloomcuckoo-playground' }),
  label: 'the worker',
  errorOf: (error) => Object.assign(new Error(`in the worker: ${error.message}`), { code: error.code }),
  onFail: (err) => showError($('worker-error'), err),
});

async function send() {
  const name = $('worker-source').value;
  const entry = getEntry(name);
  if (!entry || entry.filter.freed) throw new Error('Nothing to send yet: build a filter first.');
  const data = entry.filter.serialize();
  const size = data.byteLength;
  const t0 = performance.now();
  const r = await request({ type: 'load', module: getWasmModule(), bytes: data }, [data]);
  const rtt = performance.now() - t0;
  sent = { name, version: entry.version };
  const st = $('worker-status');
  st.textContent = `the worker holds ${entry.label}: ${r.info.kind}, ${int(r.size)} items; ${bytes(size)} transferred `
    + `(${data.byteLength === 0 ? 'detached here: moved, not copied' : 'copied'}), loaded in ${ms(rtt)}`;
  st.dataset.items = String(r.size);
  st.dataset.kind = r.info.kind;
  st.dataset.detached = String(data.byteLength === 0);
  for (const id of ['worker-key', 'worker-batch', 'worker-big-main', 'worker-big-worker']) $(id).disabled = false;
  staleNote();
  await checkKey();
}

function mainFilter() {
  const e = sent && getEntry(sent.name);
  return e && !e.filter.freed ? e.filter : null;
}

function staleNote() {
  const e = sent && getEntry(sent.name);
  const stale = e && e.version !== sent.version;
  const st = $('worker-status');
  st.classList.toggle('stale', Boolean(stale));
  st.title = stale ? 'the filter changed since it was sent: send it again' : '';
  if (stale && !st.textContent.endsWith('(changed since: send again)')) st.textContent += ' (changed since: send again)';
}

async function checkKey() {
  const key = $('worker-key').value;
  const seq = ++keySeq;
  if (!sent || key === '') return;
  const t0 = performance.now();
  const { answer } = await request({ type: 'has', key });
  const rtt = performance.now() - t0;
  if (seq !== keySeq) return; // a newer keystroke's answer will show
  const main = mainFilter()?.has(key);
  showVerdict($('worker-answer'), Boolean(answer));
  showVerdict($('worker-main-answer'), main);
  const r = $('worker-rtt');
  r.textContent = ms(rtt);
  r.dataset.value = String(rtt);
}

async function batch() {
  const keys = lines($('worker-keys').value);
  if (keys.length === 0) throw new Error('Type some keys, one per line.');
  const t0 = performance.now();
  const { answers } = await request({ type: 'hasAll', keys });
  const rtt = performance.now() - t0;
  const main = mainFilter()?.hasAll(keys);
  let present = 0;
  let differ = 0;
  for (let i = 0; i < keys.length; i++) {
    present += answers[i];
    if (main && main[i] !== answers[i]) differ++;
  }
  const out = $('worker-batch-result');
  out.textContent = `${int(keys.length)} keys in the worker: ${int(present)} maybe present; `
    + `${main ? (differ === 0 ? 'identical to the main thread' : `${int(differ)} differ from the main thread`) : 'no main-thread filter to compare'}; round trip ${ms(rtt)}`;
  out.dataset.total = String(keys.length);
  out.dataset.present = String(present);
  out.dataset.differ = main ? String(differ) : '';
  out.dataset.rtt = String(rtt);
  out.className = main && differ === 0 ? 'ok' : '';
}

const nextFrames = (n) => new Promise((resolve) => {
  const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step));
  requestAnimationFrame(step);
});

let painted = 0;   // frames the ticker has seen, ever
/**
 * Counts painted frames and moves the dot one step per frame (it stays still under reduced
 * motion; the counter still counts): a main thread that is busy paints nothing, so both stop.
 * stop() → the longest gap between two frames, in ms.
 */
function startTicker() {
  const dot = document.querySelector('#worker-ticker span');
  const track = $('worker-ticker').clientWidth - 10;
  const still = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  let last = performance.now();
  let longest = 0;
  let running = true;
  const tick = (now) => {
    if (!running) return;
    longest = Math.max(longest, now - last);
    last = now;
    painted++;
    $('worker-frames').textContent = int(painted);
    if (!still) dot.style.transform = `translateX(${Math.abs(((painted * 3) % (2 * track)) - track)}px)`;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return {
    stop() {
      if (running) longest = Math.max(longest, performance.now() - last);
      running = false;
      return longest;
    },
  };
}

const bigResults = {};   // where → { count, present }

function setCell(id, text, value, cls = '') {
  const el = $(id);
  el.textContent = text;
  el.dataset.value = String(value);
  el.className = cls;
}

/** The big check on the main thread or in the worker, with the page's frames counted meanwhile. */
async function bigCheck(where) {
  const raw = $('worker-big-n').value;
  const count = Number(raw);
  if (!Number.isSafeInteger(count) || count < 1 || count > 2_000_000) throw new RangeError(`URLs must be an integer from 1 to 2,000,000, got "${raw}"`);
  const f = mainFilter();
  if (!f) throw new Error('Send a filter to the worker first (the blacklist filter of section 1 makes the point).');
  const buttons = ['worker-big-main', 'worker-big-worker'].map($);
  for (const b of buttons) b.disabled = true;
  const status = $('worker-big-status');
  status.textContent = `checking ${int(count)} URLs ${where === 'main' ? 'on the main thread' : 'in the worker'}…`;
  status.dataset.state = 'running';
  const ticker = startTicker();
  try {
    await nextFrames(3);   // the status paints and the ticker runs before the work starts
    const framesBefore = painted;
    // the time is the check's alone, on both sides: the URLs are made before the clock starts
    // (the worker times its own hasAll the same way)
    let present = 0;
    let took;
    if (where === 'main') {
      const urls = visitUrls(count);
      const t0 = performance.now();
      for (const a of f.hasAll(urls)) present += a;
      took = performance.now() - t0;
    } else {
      ({ present, ms: took } = await request({ type: 'visit', count }));
    }
    const framesDuring = painted - framesBefore;
    await nextFrames(3);
    const stall = ticker.stop();
    bigResults[where] = { count, present };
    setCell(`big-${where}-count`, int(count), count);
    setCell(`big-${where}-present`, int(present), present);
    setCell(`big-${where}-time`, ms(took), took);
    setCell(`big-${where}-stall`, ms(stall), stall, stall > 100 ? 'stalled' : 'smooth');
    setCell(`big-${where}-frames`, int(framesDuring), framesDuring);
    const other = bigResults[where === 'main' ? 'worker' : 'main'];
    const same = other && other.count === count ? (other.present === present ? ' Both found the same number of listed URLs.' : ' The two differ: was the filter changed?') : '';
    status.textContent = (where === 'main'
      ? `The main thread was busy for ${ms(took)}: the dot and the counter stopped, and nothing on the page could respond for ${ms(stall)}.`
      : `The worker answered in ${ms(took)} while the page kept painting (${int(framesDuring)} frames; the longest gap ${ms(stall)}).`) + same;
    status.dataset.state = 'done';
  } finally {
    ticker.stop();
    for (const b of buttons) b.disabled = false;
  }
}

export function setupWorkerMode() {
  const err = $('worker-error');
  $('worker-send').addEventListener('click', () => guard(err, send));
  $('worker-key').addEventListener('input', () => guard(err, checkKey));
  $('worker-batch').addEventListener('click', () => guard(err, batch));
  $('worker-big-main').addEventListener('click', () => guard(err, () => bigCheck('main')));
  $('worker-big-worker').addEventListener('click', () => guard(err, () => bigCheck('worker')));
  onChange(staleNote);
}
