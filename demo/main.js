// The playground: loads the wasm once, then wires the sections. Every error ends up in a visible
// message element (section messages, or the banner at the top for anything unexpected).
import { init, murmur3 } from './lib.js';
import { setupBlacklist } from './blacklist.js';
import { refresh, setupBuilder } from './builder.js';
import { setupExperiment } from './experiment.js';
import { setupSpace } from './space.js';
import { pageKinds } from './filters.js';
import { onChange, refreshSourceSelects } from './store.js';
import { setupTiny } from './tiny.js';
import { setupCuckooSteps } from './cuckoo-steps.js';
import { setupFill } from './fill.js';
import { setupZoo } from './zoo.js';
import { setupTransfer } from './transfer.js';
import { $, onWidthChange, showError } from './ui.js';
import { setupWorkerMode } from './worker-mode.js';

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function showHash() {
  const seed = Number($('hash-seed').value) >>> 0;
  const key = $('hash-input').value;
  $('hash-x86').textContent = murmur3.x86_32(key, seed).toString(16).padStart(8, '0');
  const out = murmur3.x64_128(key, seed);   // h1 then h2, each little-endian
  $('hash-x64').textContent = hex(out);
  // the two words as numbers (big-endian hex), as murmurhash3js-revisited prints them
  $('hash-x64-words').textContent = `${hex(out.slice(0, 8).reverse())} ${hex(out.slice(8).reverse())}`;
}

// anything not caught by a section goes to the banner, so it is never only in the console
window.addEventListener('error', (e) => {
  e.preventDefault();
  showError($('global-error'), e.error ?? e.message);
});
window.addEventListener('unhandledrejection', (e) => {
  e.preventDefault();
  showError($('global-error'), e.reason);
});

try {
  await init();
  $('hash-input').addEventListener('input', showHash);
  $('hash-seed').addEventListener('input', showHash);
  showHash();
  setupTiny();
  setupCuckooSteps();
  setupFill();
  setupZoo();
  onChange(refreshSourceSelects);
  onChange(refresh);
  setupBuilder();
  onWidthChange($('filter-canvas'), refresh);
  setupExperiment();
  setupSpace();
  setupBlacklist();
  setupTransfer();
  setupWorkerMode();
  const kinds = pageKinds();
  document.body.dataset.kinds = kinds.map((k) => k.kind).join(' ');
  $('status').textContent = 'ready';
  $('status').title = `filter classes in this build: ${kinds.map((k) => k.label).join(', ')}`;
} catch (err) {
  $('status').textContent = `failed to load: ${err.message}`;
  $('status').className = 'error';
  showError($('global-error'), err);
}
