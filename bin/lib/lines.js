// Line input for the CLI: one key per line, read in chunks and handed on in batches, so any
// number of lines passes through a bounded amount of memory. A line's key is its bytes without
// the trailing "\n" or "\r\n"; empty lines are skipped. Keys are Buffer views into the chunk
// (hashed as bytes, so a line's key is the same whatever its encoding), valid until the batch
// callback returns.
import { createReadStream } from 'node:fs';

export const BATCH = 16384;
const CHUNK = 1 << 20;

/** A readable stream of a file, or stdin for '-'. */
export function openInput(path) {
  return path === '-' ? process.stdin : createReadStream(path, { highWaterMark: CHUNK });
}

/**
 * Calls `onBatch(keys)` (awaited) for every BATCH keys of `stream`, then for the rest, and
 * `onProgress(bytesRead, keys, final)` after each chunk and once at the end. Returns { lines, bytes }.
 */
export async function forEachBatch(stream, onBatch, onProgress) {
  let rest = null;
  let batch = [];
  let lines = 0;
  let bytesRead = 0;
  for await (const chunk of stream) {
    bytesRead += chunk.length;
    const buf = rest === null ? chunk : Buffer.concat([rest, chunk]);
    let start = 0;
    let nl;
    while ((nl = buf.indexOf(10, start)) !== -1) {
      const end = nl > start && buf[nl - 1] === 13 ? nl - 1 : nl;
      if (end > start) {
        batch.push(buf.subarray(start, end));
        if (batch.length === BATCH) {
          lines += batch.length;
          await onBatch(batch);
          batch = [];
        }
      }
      start = nl + 1;
    }
    rest = start < buf.length ? buf.subarray(start) : null;
    onProgress?.(bytesRead, lines + batch.length);
  }
  if (rest !== null) {
    const end = rest[rest.length - 1] === 13 ? rest.length - 1 : rest.length;
    if (end > 0) batch.push(rest.subarray(0, end));
  }
  if (batch.length > 0) {
    lines += batch.length;
    await onBatch(batch);
  }
  onProgress?.(bytesRead, lines, true);
  return { lines, bytes: bytesRead };
}

/** Counts the keys (non-empty lines) of a file, streaming. */
export async function countKeys(path) {
  let n = 0;
  let atLineStart = true; // the previous byte was "\n" (or the start of the file)
  let lone13 = false;     // the line so far is exactly "\r"
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK })) {
    let start = 0;
    let nl;
    while ((nl = chunk.indexOf(10, start)) !== -1) {
      const len = nl - start;
      const empty = atLineStart ? (len === 0 || (len === 1 && chunk[start] === 13)) : (len === 0 && lone13);
      if (!empty) n++;
      atLineStart = true;
      lone13 = false;
      start = nl + 1;
    }
    if (start < chunk.length) {
      const len = chunk.length - start;
      lone13 = atLineStart ? len === 1 && chunk[start] === 13 : false;
      atLineStart = false;
    }
  }
  if (!atLineStart && !lone13) n++;
  return n;
}
