// "Export / import the bytes" (#transfer, an appendix): export a filter's bytes as a file
// download, import a file back (validated by the library: corrupt or foreign files get a clear
// message), and compare the imported filter's answers with the original's.
import { deserialize, kindOf } from './lib.js';
import { kindByName } from './filters.js';
import { getEntry, setFilter } from './store.js';
import { $, bytes, describeError, guard, int, lines, showError, showVerdict } from './ui.js';

function exportBytes() {
  const entry = getEntry($('export-source').value);
  if (!entry || entry.filter.freed) throw new Error('Nothing to export yet: build a filter first.');
  const data = entry.filter.serialize();
  const kind = entry.filter.info().kind;
  const name = `bloomcuckoo-${kind}-${entry.filter.size}.bin`;
  const url = URL.createObjectURL(new Blob([data], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  const status = $('export-status');
  status.textContent = `exported ${entry.label}: ${name}, ${bytes(data.byteLength)}`;
  status.dataset.bytes = String(data.byteLength);
  status.dataset.name = name;
}

async function importFile() {
  const file = $('import-file').files[0];
  if (!file) return;
  $('import-status').textContent = '';
  $('import-key').disabled = true;
  $('import-compare').disabled = true;
  $('import-key-result').textContent = '—';
  $('import-compare-result').textContent = '';
  const data = await file.arrayBuffer();
  let filter;
  try {
    const kind = kindOf(data); // validates magic, version, length and checksum first
    filter = deserialize(data);
    const spec = kindByName(kind) ?? { label: kind, kind };
    setFilter('imported', filter, spec);
  } catch (err) {
    const what = err?.code === 'CORRUPT_DATA' ? 'is not a valid bloomcuckoo filter file (corrupt, truncated or foreign bytes)'
      : err?.code === 'UNSUPPORTED_VERSION' ? 'was written by a newer format version or a filter kind this build does not know'
        : 'could not be read';
    throw Object.assign(new Error(`${file.name} ${what}: ${err?.message ?? describeError(err)}`), { code: err?.code });
  }
  const st = $('import-status');
  st.textContent = `imported ${file.name}: ${filter.info().kind} filter, ${int(filter.size)} items, ${bytes(filter.byteLength)} of storage`;
  st.dataset.kind = filter.info().kind;
  st.dataset.items = String(filter.size);
  $('import-key').disabled = false;
  $('import-compare').disabled = false;
  checkKey();
}

function checkKey() {
  const entry = getEntry('imported');
  const k = $('import-key').value;
  const out = $('import-key-result');
  showVerdict(out, !entry || k === '' ? undefined : entry.filter.has(k));
}

function compare() {
  const imported = getEntry('imported');
  const other = getEntry($('import-compare-source').value);
  if (!imported) throw new Error('Import a file first.');
  if (!other || other.filter.freed) throw new Error('Choose a filter to compare with.');
  const keys = lines($('import-compare-keys').value);
  if (keys.length === 0) throw new Error('Type some keys to compare, one per line.');
  const a = imported.filter.hasAll(keys);
  const b = other.filter.hasAll(keys);
  let same = 0;
  let present = 0;
  const diffs = [];
  for (let i = 0; i < keys.length; i++) {
    if (a[i] === b[i]) same++; else if (diffs.length < 5) diffs.push(keys[i]);
    present += a[i];
  }
  const out = $('import-compare-result');
  out.textContent = `${int(keys.length)} keys: ${int(same)} identical answers, ${int(keys.length - same)} different`
    + ` (imported says ${int(present)} maybe present)${diffs.length ? `; e.g. ${diffs.join(', ')}` : ''}`;
  out.dataset.same = String(same);
  out.dataset.total = String(keys.length);
  out.dataset.present = String(present);
  out.className = same === keys.length ? 'ok' : 'error';
}

export function setupTransfer() {
  $('export-btn').addEventListener('click', () => guard($('export-error'), exportBytes));
  $('import-file').addEventListener('change', () => guard($('import-error'), importFile));
  $('import-key').addEventListener('input', () => guard($('import-error'), checkKey));
  $('import-compare').addEventListener('click', () => guard($('import-error'), compare));
  showError($('import-error'), null);
}
