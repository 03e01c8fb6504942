// "The problem: a blacklist" (#blacklist): the blacklist checker. A list (one item per line:
// pasted, uploaded or generated) is built into a filter in chunks with a progress bar; URLs are
// then checked as you type.
import { kindByName, pageKinds, parseErrorRate } from './filters.js';
import { dropFilter, setFilter } from './store.js';
import { sampleUrls } from './sample-urls.js';
import { $, bitsPerKeyText, bytes, enterClicks, guard, int, lines, ms, showError, yieldToBrowser } from './ui.js';

const CHUNK = 10_000;
const MAX_FILE_BYTES = 256 * 1024 * 1024;
const PREVIEW_LINES = 1000;   // a big list stays in memory; the textarea shows its start
let loaded = null;            // { items, source } of a generated or uploaded list, or null
let listed = new Set();
let filter = null;
let building = false;

function countLines(text) {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  if (text.length && !text.endsWith('\n')) n++;
  return n;
}

function showLineCount() {
  const el = $('bl-lines');
  if (loaded) {
    el.textContent = `${int(loaded.items.length)} lines`;
    el.title = `${loaded.source}; the text box shows the first ${int(Math.min(PREVIEW_LINES, loaded.items.length))}`;
    $('bl-preview-note').textContent = loaded.items.length > PREVIEW_LINES
      ? `${loaded.source}: showing the first ${int(PREVIEW_LINES)} of ${int(loaded.items.length)} lines (editing the text replaces the list with what you see).`
      : `${loaded.source}.`;
  } else {
    el.textContent = `${int(countLines($('bl-text').value))} lines`;
    el.title = '';
    $('bl-preview-note').textContent = '';
  }
  el.dataset.lines = String(loaded ? loaded.items.length : countLines($('bl-text').value));
}

/** Holds a big list in memory and shows its first lines in the text box. */
function setLoaded(items, source) {
  loaded = { items, source };
  $('bl-text').value = items.slice(0, PREVIEW_LINES).join('\n') + (items.length > PREVIEW_LINES ? '\n…' : '');
  showLineCount();
}

async function build() {
  if (building) return;
  building = true;
  $('bl-build').disabled = true;
  $('bl-check').disabled = true;
  const progress = $('bl-progress');
  progress.value = 0;
  try {
    const items = loaded ? loaded.items : lines($('bl-text').value);
    if (items.length === 0) throw new Error('The list is empty: paste, upload or generate one item per line first.');
    const spec = kindByName($('bl-kind').value);
    const errorRate = parseErrorRate($('bl-error-rate').value);
    const started = performance.now();
    let f;
    if (spec.static) {
      $('bl-progress-text').textContent = 'building (static: all keys at once)…';
      await yieldToBrowser();
      f = spec.Class.build(items, { fingerprintBits: errorRate < 1 / 256 ? 16 : 8 });
      progress.value = 1;
    } else {
      f = new spec.Class({ capacity: items.length, errorRate });
      try {
        for (let i = 0; i < items.length; i += CHUNK) {
          const chunk = items.slice(i, i + CHUNK);
          const added = f.addAll(chunk);
          if (spec.kind === 'cuckoo' && added < chunk.length) {
            throw Object.assign(new Error(`the cuckoo filter is full after ${int(i + added)} items`), { code: 'FULL' });
          }
          progress.value = Math.min(items.length, i + CHUNK) / items.length;
          $('bl-progress-text').textContent = `${int(Math.min(items.length, i + CHUNK))} of ${int(items.length)} lines`;
          await yieldToBrowser();
        }
      } catch (err) {
        f.free();
        throw err;
      }
    }
    const took = performance.now() - started;
    filter = f;
    listed = new Set(items);
    setFilter('blacklist', f, spec);
    const status = $('bl-status');
    // the point of it all: the list against the filter that stands in for it
    const enc = new TextEncoder();
    const listBytes = items.reduce((a, line) => a + enc.encode(line).length + 1, 0);
    status.textContent = `${spec.label} filter built from ${int(items.length)} lines in ${ms(took)}: `
      + `${int(f.size)} items, ${bytes(f.byteLength)}, ${bitsPerKeyText((f.byteLength * 8) / items.length)} bits per line. `
      + `The list itself is ${bytes(listBytes)} of text: ${listBytes >= f.byteLength
        ? `the filter is ${(listBytes / f.byteLength).toFixed(listBytes >= 10 * f.byteLength ? 0 : 1)}× smaller.`
        : 'here the filter is the bigger one (a filter pays off on long lists).'}`;
    status.dataset.listBytes = String(listBytes);
    status.dataset.filterBytes = String(f.byteLength);
    status.dataset.items = String(f.size);
    status.dataset.lines = String(items.length);
    $('bl-progress-text').textContent = 'done';
    $('bl-check').disabled = false;
    checkNow();
  } finally {
    building = false;
    $('bl-build').disabled = false;
    if (filter && !filter.freed) $('bl-check').disabled = false;
  }
}

/** After a failed build: no status, no filter, no answers left from the previous one. */
function forgetFilter() {
  filter = null;
  listed = new Set();
  dropFilter('blacklist');
  const status = $('bl-status');
  status.textContent = 'not built: see the message below.';
  delete status.dataset.items;
  delete status.dataset.lines;
  $('bl-progress').value = 0;
  $('bl-progress-text').textContent = '';
  $('bl-check').disabled = true;
  checkNow();
}

function checkNow() {
  const url = $('bl-check').value.trim();
  const out = $('bl-check-result');
  const truth = $('bl-check-truth');
  if (!filter || filter.freed || url === '') {
    out.textContent = '—';
    out.dataset.state = '';
    truth.textContent = '';
    return;
  }
  const t0 = performance.now();
  const hit = filter.has(url);
  const took = performance.now() - t0;
  out.textContent = hit ? 'listed (maybe): block it' : 'not listed: certainly not on this list';
  out.dataset.state = hit ? 'listed' : 'clear';
  truth.textContent = hit
    ? (listed.has(url) ? `· it is in the list (${ms(took)})` : `· not in the list: a false positive (${ms(took)})`)
    : `· (${ms(took)})`;
}

const CONTROL_SCAN = 1 << 22;   // characters looked at for control characters
const MAX_CONTROL_SHARE = 0.01;

/**
 * The text of an uploaded list, or an error when the bytes are not plain UTF-8 text: NUL bytes
 * (binary files, UTF-16), invalid UTF-8, or more than 1 % control characters (other than tab,
 * line and page breaks) among the first 4 M characters. A random file would otherwise read as
 * thousands of "lines" of mojibake.
 */
export function decodeTextList(data, name) {
  const refuse = (why) => new Error(`${name} is not a text file: ${why}. Upload plain text (UTF-8), one item per line; nothing was loaded, the list is unchanged.`);
  const nul = data.indexOf(0);
  if (nul !== -1) throw refuse(`it holds NUL bytes (the first at byte ${int(nul)}), as binary files and UTF-16 text do`);
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw refuse('its bytes are not valid UTF-8 (a binary file, or text in another encoding such as Latin-1)');
  }
  const n = Math.min(text.length, CONTROL_SCAN);
  let controls = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && (c < 9 || c > 13)) || c === 127) controls++;
  }
  if (controls > MAX_CONTROL_SHARE * n) throw refuse(`${((100 * controls) / n).toFixed(1)} % of its characters are control characters`);
  return text;
}

async function upload() {
  const input = $('bl-file');
  const file = input.files[0];
  if (!file) return;
  try {
    if (file.size > MAX_FILE_BYTES) throw new RangeError(`${file.name} is ${bytes(file.size)}; the page takes lists up to ${bytes(MAX_FILE_BYTES)}`);
    const text = decodeTextList(new Uint8Array(await file.arrayBuffer()), file.name);
    setLoaded(lines(text), `uploaded ${file.name}`);
    $('bl-progress-text').textContent = `loaded ${file.name} (${bytes(file.size)})`;
  } catch (err) {
    input.value = '';   // a refused file does not stay chosen
    throw err;
  }
}

export function setupBlacklist() {
  const sel = $('bl-kind');
  for (const k of pageKinds()) sel.append(new Option(k.label, k.kind));
  const err = $('bl-error');
  $('bl-generate').addEventListener('click', () => guard(err, () => {
    setLoaded(sampleUrls(), 'generated sample URLs');
  }));
  $('bl-file').addEventListener('change', () => guard(err, upload));
  enterClicks($('bl-build').closest('.row'), $('bl-build'));
  $('bl-text').addEventListener('input', () => { loaded = null; showLineCount(); });
  $('bl-build').addEventListener('click', () => guard(err, build).then(() => {
    if (!err.hidden) forgetFilter();
  }));
  $('bl-check').addEventListener('input', () => guard(err, checkNow));
  showError(err, null);
}
