// Section 5: worker mode. The selected filter's bytes are serialized and transferred to a module
// Worker with the compiled wasm module; checks go there and the round-trip time is shown next
// to the main thread's own answer.
import { getWasmModule } from './lib.js';
import { getEntry, onChange } from './store.js';
import { $, bytes, guard, int, lines, ms, showError } from './ui.js';

let worker = null;
let nextId = 1;
const pending = new Map();
let sent = null; // { name, version }
let keySeq = 0;

function ensureWorker() {
  if (worker) return worker;
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'bloomcuckoo-playground' });
  worker.onmessage = ({ data }) => {
    const p = pending.get(data.id);
    if (!p) return;
    pending.delete(data.id);
    if (data.error) p.reject(Object.assign(new Error(`in the worker: ${data.error.message}`), { code: data.error.code }));
    else p.resolve(data);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    const err = new Error(`the worker failed: ${e.message || 'could not load worker.js'}`);
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    showError($('worker-error'), err);
    worker = null;
  };
  return worker;
}

function request(msg, transfer = []) {
  const w = ensureWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, ...msg }, transfer);
  });
}

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
  $('worker-key').disabled = false;
  $('worker-batch').disabled = false;
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
  const a = $('worker-answer');
  a.textContent = answer ? 'maybe present' : 'definitely absent';
  a.dataset.state = answer ? 'present' : 'absent';
  const m = $('worker-main-answer');
  m.textContent = main === undefined ? '—' : main ? 'maybe present' : 'definitely absent';
  m.dataset.state = main === undefined ? '' : main ? 'present' : 'absent';
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

export function setupWorkerMode() {
  const err = $('worker-error');
  $('worker-send').addEventListener('click', () => guard(err, send));
  $('worker-key').addEventListener('input', () => guard(err, checkKey));
  $('worker-batch').addEventListener('click', () => guard(err, batch));
  onChange(staleNote);
}
