// Small DOM and formatting helpers shared by the playground sections.

export const $ = (id) => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`playground: no element #${id}`);
  return el;
};

const intFmt = new Intl.NumberFormat('en-US');

/** 12345 → "12,345". */
export const int = (n) => intFmt.format(n);

/** Bytes as "1,234 B (1.2 KiB)". */
export function bytes(n) {
  if (n < 1024) return `${int(n)} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return `${int(n)} B (${v.toFixed(v < 10 ? 2 : 1)} ${units[u]})`;
}

/** A probability as a percentage with sensible precision: "1.23 %", "0.0012 %", "< 0.0001 %". */
export function pct(p) {
  if (p === null || p === undefined || Number.isNaN(p)) return '—';
  if (p === 0) return '0 %';
  const v = p * 100;
  if (v >= 10) return `${v.toFixed(1)} %`;
  if (v >= 0.0001) return `${v.toPrecision(3)} %`;
  return '< 0.0001 %';   // a theoretical 1e-20 reads as what it means, not as 1.10e-20 %
}

/** A membership answer in `el`: "maybe present" / "certainly absent" (data-state present / absent), "—" for none. */
export function showVerdict(el, answer) {
  el.textContent = answer === undefined ? '—' : answer ? 'maybe present' : 'certainly absent';
  el.dataset.state = answer === undefined ? '' : answer ? 'present' : 'absent';
}

/** Bits per key: "9.59", "24.58", "383", "24,576" (no decimals from 100 on). */
export const bitsPerKeyText = (v) => (v >= 100 ? int(Math.round(v)) : v.toFixed(2));

/** Milliseconds: "0.42 ms", "12.3 ms"; below the browser timer's 0.1 ms resolution "< 0.1 ms". */
export const ms = (t) => (t < 0.1 ? '< 0.1 ms' : `${t < 10 ? t.toFixed(2) : t.toFixed(1)} ms`);

/** Text of an error, with the FilterError code in front when there is one. */
export function describeError(err) {
  if (err && typeof err === 'object') {
    const code = err.code ? `${err.code}: ` : (err.name && err.name !== 'Error' ? `${err.name}: ` : '');
    return `${code}${err.message ?? String(err)}`;
  }
  return String(err);
}

/** Shows `err` (or a message) in a visible message element; `null` clears it. */
export function showError(el, err) {
  if (err === null || err === undefined) {
    el.textContent = '';
    el.hidden = true;
    el.removeAttribute('data-code');
    return;
  }
  el.textContent = typeof err === 'string' ? err : describeError(err);
  if (err?.code) el.dataset.code = err.code; else el.removeAttribute('data-code');
  el.hidden = false;
}

/** Runs `fn`, showing any error it throws (sync or async) in `el`; clears `el` first. */
export async function guard(el, fn) {
  showError(el, null);
  try {
    return await fn();
  } catch (err) {
    showError(el, err);
    return undefined;
  }
}

const ENTER_FIELDS = new Set(['text', 'search', 'number', 'tel', 'url', 'email', 'password', 'select-one']);

/**
 * Enter in a field inside `container` (a text input or a select, not a textarea) clicks `button`,
 * the way Enter submits a form: the section's options then work from the keyboard alone.
 */
export function enterClicks(container, button) {
  container.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.isComposing || e.repeat || e.defaultPrevented) return;
    if (!ENTER_FIELDS.has(e.target.type)) return;
    e.preventDefault();
    if (!button.disabled) button.click();
  });
}

/** Lets the browser paint and handle input between chunks of work. */
export const yieldToBrowser = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A random id of `n` hex digits (crypto-strength, for experiment keys). */
export function randomHex(n = 8) {
  const b = new Uint8Array(Math.ceil(n / 2));
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('').slice(0, n);
}

/** Lines of a text: trimmed, empty lines dropped. */
export function lines(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t) out.push(t);
  }
  return out;
}

/**
 * Sizes a canvas's backing store to its on-screen width × devicePixelRatio (sharp on phones and
 * high-density screens) with a height of `aspect` × width, at most `maxHeight` CSS px, and
 * returns its 2D context scaled so drawing happens in CSS pixels: { ctx, W, H }. Text drawn at
 * 12 px is then 12 px on screen whatever the width (a fixed 960-px canvas shrunk to a phone
 * made it about 4 px).
 */
export function fitCanvas(canvas, aspect, maxHeight, minHeight = 0) {
  const dpr = Math.max(1, globalThis.devicePixelRatio || 1);
  const W = Math.max(200, Math.round(canvas.clientWidth || canvas.parentElement?.clientWidth || 960));
  const H = Math.max(minHeight, Math.min(maxHeight, Math.round(W * aspect)));
  if (canvas.width !== Math.round(W * dpr) || canvas.height !== Math.round(H * dpr)) {
    canvas.width = Math.round(W * dpr);
    canvas.height = Math.round(H * dpr);
  }
  canvas.style.height = `${H}px`;
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  canvas.dataset.cssWidth = String(W);
  return { ctx, W, H };
}

/** Calls `redraw` again whenever the element's width changes (rotation, window resize). */
export function onWidthChange(el, redraw) {
  if (typeof ResizeObserver !== 'function') return;
  let last = el.clientWidth;
  let queued = false;
  new ResizeObserver(() => {
    if (el.clientWidth === last || queued) return;
    // redraw in the next frame: resizing the canvas inside the observer's callback would start
    // another round of observations ("ResizeObserver loop ... undelivered notifications")
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      last = el.clientWidth;
      redraw();
    });
  }).observe(el);
}
