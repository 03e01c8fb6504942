// Small DOM and formatting helpers shared by the playground sections.

export const $ = (id) => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`playground: no element #${id}`);
  return el;
};

const intFmt = new Intl.NumberFormat('en-US');

/** 12345 → "12,345". */
export const int = (n) => intFmt.format(n);

/**
 * A key or value as the page echoes it: whole when short, else its first 24 and last 12 characters
 * and how long it is, so a 1 MB key never becomes a megabyte of text in a verdict or an error box.
 */
export function clip(text, max = 48) {
  const t = String(text);
  if (t.length <= max) return t;
  const cut = (i) => (/[\uD800-\uDBFF]/.test(t[i - 1] ?? '') ? i - 1 : i);   // never split a surrogate pair
  const tail = t.length - Math.floor(max / 4);
  return `${t.slice(0, cut(Math.floor(max / 2)))}…${t.slice(/[\uDC00-\uDFFF]/.test(t[tail]) ? tail + 1 : tail)} (${int(t.length)} characters)`;
}

/** A key in quotes, clipped: “alice”. */
export const q = (key) => `“${clip(key)}”`;

/**
 * A message with every run of more than 48 non-space characters clipped (a library message quoting a
 * 1 MB value), and at most about 1,200 characters in all.
 */
export function clipRuns(text) {
  const t = String(text).replace(/\S{49,}/g, (run) => clip(run));
  return t.length > 1200 ? clip(t, 1200) : t;
}

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

// The short word of a figure's verdict, by its data-state; the sentence that derives it is one click away.
const BADGE = {
  absent: 'certainly absent', present: 'maybe present', 'false-positive': 'maybe present: a false positive',
  'false-negative': 'certainly absent: a false negative', added: 'added', kicked: 'added after kicks', full: 'FULL',
  grew: 'added: the filter grew', warn: 'careful', removed: 'removed', 'removed-unknown': 'removed another key’s fingerprint',
  'not-found': 'nothing removed', 'not-added': 'not added',
};

/**
 * A figure's verdict in `el`: a short badge for its state, and the sentence that derives it in a
 * "why" disclosure (kept open if the visitor opened it). Empty text or an unknown state: the text alone.
 */
export function showFigureVerdict(el, text, state) {
  el.dataset.state = state;
  const word = BADGE[state];
  if (!text || !word) { el.textContent = text; return; }
  const open = el.querySelector('details')?.open ?? false;
  const badge = document.createElement('span');
  badge.className = 'badge';
  badge.textContent = word;
  const why = document.createElement('details');
  why.className = 'why';
  why.open = open;
  const summary = document.createElement('summary');
  summary.textContent = 'why?';
  const body = document.createElement('span');
  body.textContent = text;
  why.append(summary, body);
  el.replaceChildren(badge, ' ', why);
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
  el.textContent = clipRuns(typeof err === 'string' ? err : describeError(err));
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

/**
 * `text` cut with "…" to fit `maxW` CSS px in the context's current font. A binary search over at
 * most the first 256 characters: a 1 MB key costs a handful of short measurements (cutting one
 * character at a time and measuring the whole string again froze the page for minutes).
 */
export function fitText(ctx, text, maxW) {
  let t = String(text);
  if (t.length > 256) t = `${t.slice(0, /[\uD800-\uDBFF]/.test(t[255]) ? 255 : 256)}…`;
  if (ctx.measureText(t).width <= maxW) return t;
  let lo = 1;
  let hi = t.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(`${t.slice(0, mid)}…`).width <= maxW) lo = mid; else hi = mid - 1;
  }
  if (/[\uD800-\uDBFF]/.test(t[lo - 1])) lo = Math.max(1, lo - 1);
  return `${t.slice(0, lo)}…`;
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
