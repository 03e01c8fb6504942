// A one-line progress bar on stderr: keys done, rate, and (when the input size is known) a bar,
// the percentage and the ETA. Redrawn at most 10 times a second; `done()` erases it.
import { count } from './common.js';

function duration(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (x) => String(x).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

function rate(perSecond) {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M keys/s`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)} k keys/s`;
  return `${Math.round(perSecond)} keys/s`;
}

export class Progress {
  /**
   * @param {string} label shown first
   * @param {number | null} totalBytes input size when known (a file), for the bar and the ETA
   * @param {NodeJS.WriteStream} stream normally process.stderr
   */
  constructor(label, totalBytes, stream = process.stderr) {
    this.label = label;
    this.total = totalBytes;
    this.stream = stream;
    this.started = performance.now();
    this.last = 0;
    this.shown = false;
  }

  /** Reports progress; draws when 100 ms passed since the last draw (or `force`). */
  update(bytesDone, keysDone, force = false) {
    const now = performance.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    const elapsed = (now - this.started) / 1000;
    const parts = [this.label];
    if (this.total) {
      const frac = Math.min(1, bytesDone / this.total);
      const width = 24;
      const filled = Math.round(frac * width);
      parts.push(`[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`, `${(frac * 100).toFixed(1).padStart(5)}%`);
      parts.push(`${count(keysDone)} keys`, elapsed > 0 ? rate(keysDone / elapsed) : '');
      const eta = frac > 0 ? elapsed * (1 - frac) / frac : NaN;
      parts.push(`ETA ${duration(eta)}`);
    } else {
      parts.push(`${count(keysDone)} keys`, elapsed > 0 ? rate(keysDone / elapsed) : '', `elapsed ${duration(elapsed)}`);
    }
    let line = parts.filter(Boolean).join('  ');
    const cols = this.stream.columns;
    if (cols && line.length > cols - 1) line = line.slice(0, cols - 1);
    this.stream.write(`\r${line}\x1b[K`);
    this.shown = true;
  }

  /** Erases the bar. */
  done() {
    if (this.shown) this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}
