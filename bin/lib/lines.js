// Line input for the CLI: one key per line, read in chunks and handed on in batches, so any
// number of lines passes through a bounded amount of memory. A line's key is its bytes without
// the trailing "\n" or "\r\n"; empty lines are skipped. Keys are Buffer views into the chunk
// (hashed as bytes, so a line's key is the same whatever its encoding), valid until the batch
// callback returns.
//
// Time is linear in the input: each chunk is searched for "\n" once, from where the last search
// stopped, and a line spread over several chunks is kept as a list of pieces, joined once when
// its end arrives. A key longer than MAX_KEY_BYTES is refused (CliError naming its line): the
// reader never holds more than that much of one line, plus a batch of at most BATCH keys from
// at most BATCH_BYTES of input (and a chunk).
import { createReadStream } from 'node:fs';
import { CliError, count, fsReason } from './common.js';

export const BATCH = 16384;
/** The longest key (line without its "\n" or "\r\n") the CLI reads: 16 MiB. */
export const MAX_KEY_BYTES = 16 * 2 ** 20;
export const MAX_KEY_TEXT = '16 MiB';
/**
 * A batch is handed on once this many bytes of input were read since the last one, even before
 * BATCH keys: its keys are views into those chunks, so it holds at most this much plus a chunk.
 */
const BATCH_BYTES = 16 * 2 ** 20;
const CHUNK = 1 << 20;

/** Whether `path` names this process's stdin: '-' or /dev/stdin (which may be a socket, not openable by name). */
export const isStdin = (path) => path === '-' || path === '/dev/stdin';

/** A readable stream of a file, or stdin for '-' and /dev/stdin. */
export function openInput(path) {
  return isStdin(path) ? process.stdin : createReadStream(path, { highWaterMark: CHUNK });
}

/** The CliError for a line whose key is longer than MAX_KEY_BYTES. */
export function tooLong(command, line) {
  return new CliError(`${command}: line ${count(line)} is longer than the key limit of ${MAX_KEY_TEXT} `
    + `(${count(MAX_KEY_BYTES)} bytes); a key is one line of the input: is it the right file?`);
}

/**
 * Calls `onBatch(keys)` (awaited) for every BATCH keys of `stream` (or BATCH_BYTES of input), then
 * for the rest, and `onProgress(bytesRead, keys, final)` after each chunk and once at the end.
 * A key longer than MAX_KEY_BYTES throws tooLong(command, its line number).
 * Returns { lines, bytes } (lines: the keys read).
 */
export async function forEachBatch(stream, onBatch, onProgress, command = 'build') {
  let pieces = [];      // the current line's bytes from earlier chunks
  let pending = 0;      // their total length
  let batch = [];
  let batchStart = 0;   // bytesRead when the last batch was handed on
  let keys = 0;
  let lineNo = 0;       // lines ended so far (empty ones too)
  let bytesRead = 0;

  // Adds a line's key to the batch; true when the batch is to be handed on (synchronous: an
  // await per line would cost a microtask per key).
  const take = (line) => {
    lineNo++;
    const end = line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length;
    if (end > MAX_KEY_BYTES) throw tooLong(command, lineNo);
    if (end === 0) return false;
    batch.push(end === line.length ? line : line.subarray(0, end));
    return batch.length === BATCH || bytesRead - batchStart >= BATCH_BYTES;
  };
  const flush = async () => {
    keys += batch.length;
    await onBatch(batch);
    batch = [];
    batchStart = bytesRead;
  };

  try {
    for await (const chunk of stream) {
      bytesRead += chunk.length;
      let start = 0;
      let nl;
      for (;;) {
        if (pieces.length === 0) {   // empty lines: skipped a byte at a time, not a search each
          while (start < chunk.length && chunk[start] === 10) { start++; lineNo++; }
        }
        if ((nl = chunk.indexOf(10, start)) === -1) break;
        let full;
        if (pieces.length === 0) {
          full = take(chunk.subarray(start, nl));
        } else {
          const length = pending + nl - start;
          if (length > MAX_KEY_BYTES + 1) throw tooLong(command, lineNo + 1);   // + 1: a "\r" before the "\n"
          pieces.push(chunk.subarray(start, nl));
          const line = Buffer.concat(pieces, length);
          pieces = [];
          pending = 0;
          full = take(line);
        }
        if (full) await flush();
        start = nl + 1;
      }
      if (start < chunk.length) {
        pending += chunk.length - start;
        if (pending > MAX_KEY_BYTES + 1) throw tooLong(command, lineNo + 1);
        pieces.push(chunk.subarray(start));
      }
      onProgress?.(bytesRead, keys + batch.length);
    }
  } catch (err) {
    if (err?.syscall === undefined) throw err;   // not the stream's: a CliError, a FilterError
    throw new CliError(`cannot read input '${stream.path ?? '-'}': ${fsReason(err)}`);
  }
  if (pieces.length > 0) take(Buffer.concat(pieces, pending));
  if (batch.length > 0) await flush();
  onProgress?.(bytesRead, keys, true);
  return { lines: keys, bytes: bytesRead };
}

/**
 * Counts the keys (non-empty lines) of a file, streaming, in linear time; a key longer than
 * MAX_KEY_BYTES throws tooLong('build', its line number) as soon as it is seen.
 */
export async function countKeys(path) {
  let n = 0;
  let lineNo = 0;
  let length = 0;       // bytes of the current line so far
  let lastCR = false;   // its last byte is "\r"
  const ended = () => {
    lineNo++;
    const key = lastCR ? length - 1 : length;
    if (key > MAX_KEY_BYTES) throw tooLong('build', lineNo);
    if (key > 0) n++;
  };
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK })) {
    let start = 0;
    let nl;
    for (;;) {
      if (length === 0) {   // empty lines: skipped a byte at a time
        while (start < chunk.length && chunk[start] === 10) { start++; lineNo++; }
      }
      if ((nl = chunk.indexOf(10, start)) === -1) break;
      if (nl > start) {
        length += nl - start;
        lastCR = chunk[nl - 1] === 13;
      }
      ended();
      length = 0;
      lastCR = false;
      start = nl + 1;
    }
    if (start < chunk.length) {
      length += chunk.length - start;
      lastCR = chunk[chunk.length - 1] === 13;
      if (length > MAX_KEY_BYTES + 1) throw tooLong('build', lineNo + 1);
    }
  }
  if (length > 0) ended();
  return n;
}
