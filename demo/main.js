import { init, murmur3 } from '../js/index.js';

const $ = (id) => document.getElementById(id);
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function showHash() {
  const seed = Number($('hash-seed').value) >>> 0;
  const key = $('hash-input').value;
  $('hash-x86').textContent = murmur3.x86_32(key, seed).toString(16).padStart(8, '0');
  $('hash-x64').textContent = hex(murmur3.x64_128(key, seed));
}

try {
  await init();
  $('hash-input').addEventListener('input', showHash);
  $('hash-seed').addEventListener('input', showHash);
  showHash();
  $('status').textContent = 'ready';
} catch (err) {
  $('status').textContent = `failed to load: ${err.message}`;
  $('status').className = 'error';
}
