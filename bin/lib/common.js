// Shared by the CLI commands: the one error type that exits 2, argument parsing with readable
// messages, number options, reading and writing filter files, and number formatting.
import { closeSync, createReadStream, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { FilterError, deserializeFrom, init } from '../../js/main/index.js';

/** A user-facing failure: printed as one line `bloomcuckoo: <message>`, exit status 2. */
export class CliError extends Error {}

/** node:util parseArgs, with its messages rewritten to one short line naming the command. */
export function parse(command, args, options) {
  try {
    return parseArgs({ args, options: { help: { type: 'boolean', short: 'h' }, ...options },
      allowPositionals: true, strict: true });
  } catch (err) {
    const name = /'([^']+)'/.exec(err.message)?.[1] ?? '';
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      throw new CliError(`${command}: unknown option ${name} (see 'bloomcuckoo ${command} --help')`);
    }
    if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const flag = name.split(', ').pop().replace(/ <value>$/, '');
      throw new CliError(`${command}: option ${flag} needs a value`);
    }
    throw new CliError(`${command}: ${err.message}`);
  }
}

/** A positive integer option: digits (with optional _ or , separators) or 1e7 notation. */
export function positiveInt(flag, text) {
  const clean = String(text).replace(/[_,]/g, '');
  const n = /^\d+(\.\d+)?(e\d+)?$/i.test(clean) ? Number(clean) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new CliError(`${flag} must be a positive integer, got '${text}'`);
  return n;
}

/** A non-negative integer option up to `max` (decimal or 0x hex). */
export function intIn(flag, text, min, max) {
  const s = String(text);
  const n = /^0x[0-9a-f]+$/i.test(s) ? Number.parseInt(s.slice(2), 16) : /^\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new CliError(`${flag} must be an integer from ${min} to ${max}, got '${text}'`);
  }
  return n;
}

/** A probability strictly between 0 and 1: 0.001, 1e-3 or 0.1%. */
export function probability(flag, text) {
  const s = String(text).trim();
  const n = s.endsWith('%') ? Number(s.slice(0, -1)) / 100 : Number(s);
  if (s === '' || !(n > 0 && n < 1)) throw new CliError(`${flag} must be a number between 0 and 1 (e.g. 0.01 or 1%), got '${text}'`);
  return n;
}

/** The reason of a file-system error, in a few words. */
export function fsReason(err) {
  switch (err?.code) {
    case 'ENOENT': return 'no such file or directory';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'EISDIR': return 'is a directory';
    case 'ENOTDIR': return 'a parent is not a directory';
    case 'ENXIO': return 'no such device or address (a socket cannot be opened by name: use - for stdin)';
    default: return err?.message ?? String(err);
  }
}

/** Fails with a CliError unless `path` is a readable regular file; returns its stat. */
export async function requireFile(path, what) {
  let st;
  try {
    st = await stat(path);
  } catch (err) {
    throw new CliError(`cannot read ${what} '${path}': ${fsReason(err)}`);
  }
  if (st.isDirectory()) throw new CliError(`cannot read ${what} '${path}': is a directory`);
  return st;
}

/** How a filter or input path is named in messages: '-' is stdin. */
export const nameOf = (path) => (path === '-' ? "'-' (stdin)" : `'${path}'`);

/** What a stat that is not a regular file is, in a few words. */
export function fileType(st) {
  if (st.isFIFO()) return 'pipe or FIFO';
  if (st.isCharacterDevice()) return 'character device';
  if (st.isSocket()) return 'socket';
  if (st.isBlockDevice()) return 'block device';
  return 'not a regular file';
}

/** The largest filter file read: no filter is larger than the wasm memory that holds it. */
const MAX_FILTER_BYTES = 2 ** 32;

/** A FilterError from deserializing `path` as one CliError line. */
function notAFilter(path, err) {
  const what = err.code === 'UNSUPPORTED_VERSION'
    ? 'was written by a newer bloomcuckoo or holds a kind this version cannot read'
    : 'is not a valid bloomcuckoo filter';
  return new CliError(`${nameOf(path)} ${what} (${err.code}: ${err.message})`);
}

/**
 * Reads and deserializes a filter file; every failure is one CliError line. A regular file's
 * bytes go straight from the file into the filter's wasm memory, 256 KiB at a time (no
 * whole-file buffer). '-' (stdin), a pipe, a FIFO or a device is read first, as a list of
 * chunks, only as far as its frame says (docs/FORMAT.md: magic, then the body length B at
 * offset 12, 24 + B bytes in all, at most 4 GiB), then copied into the filter.
 */
export async function readFilter(path) {
  const st = path === '-' ? null : await requireFile(path, 'filter');
  if (st === null || !st.isFile()) return readFilterStream(path);
  await init();
  let fd;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new CliError(`cannot read filter '${path}': ${fsReason(err)}`);
  }
  let readError = null;
  try {
    const size = fstatSync(fd).size;
    const filter = deserializeFrom(size, (target, offset) => {
      for (let at = 0; at < target.length;) {
        let n;
        try {
          n = readSync(fd, target, at, target.length - at, offset + at);
        } catch (err) {
          readError = err;
          throw err;
        }
        if (n === 0) throw (readError = new Error('the file is shorter than it was when opened'));
        at += n;
      }
    });
    return { filter, fileBytes: size };
  } catch (err) {
    if (err === readError) throw new CliError(`cannot read filter '${path}': ${fsReason(err)}`);
    if (err instanceof FilterError) throw notAFilter(path, err);
    throw err;
  } finally {
    closeSync(fd);
  }
}

/** The frame's first bytes: magic "BCFL", then (at offset 12) the u64 body length. */
const MAGIC = Buffer.from('BCFL', 'latin1');
const FRAME_HEAD = 20;
const FRAME_EXTRA = 24;   // the head and the CRC-32 after the body

/**
 * How many bytes a stream's filter takes, from its first FRAME_HEAD bytes: 24 + B; null when the
 * magic is wrong (nothing more is read: deserialize names the fault).
 */
function frameBytes(path, head) {
  if (!head.subarray(0, 4).equals(MAGIC)) return null;
  const claimed = Number(head.readBigUInt64LE(12)) + FRAME_EXTRA;
  if (claimed > MAX_FILTER_BYTES) {
    throw new CliError(`${nameOf(path)} is not a bloomcuckoo filter this version can hold: its frame claims ${count(claimed)} bytes, `
      + 'more than 4 GiB (the wasm memory limit)');
  }
  return claimed;
}

/**
 * readFilter for stdin and other streams: read as far as the frame says (one byte more, so that
 * trailing bytes are seen), then deserialized. Endless or oversized input stops early.
 */
async function readFilterStream(path) {
  if (path === '-' && process.stdin.isTTY) {
    throw new CliError("'-' reads a filter from stdin, which is a terminal: pipe or redirect a filter file into it");
  }
  await init();
  const chunks = [];
  let total = 0;
  let limit = null;   // the bytes the frame says, once its head has arrived
  try {
    for await (const chunk of path === '-' || path === '/dev/stdin' ? process.stdin : createReadStream(path)) {
      chunks.push(chunk);
      total += chunk.length;
      if (limit === null && total >= FRAME_HEAD) {
        limit = frameBytes(path, Buffer.concat(chunks, FRAME_HEAD));
        if (limit === null) break;
      }
      if (limit !== null && total > limit) break;   // more than the frame: enough to say so
    }
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read filter ${nameOf(path)}: ${fsReason(err)}`);
  }
  let index = 0;      // the chunk that holds `start`
  let start = 0;      // where chunks[index] begins
  try {
    const filter = deserializeFrom(total, (target, offset) => {
      if (offset < start) { index = 0; start = 0; }
      for (let at = 0; at < target.length;) {
        const pos = offset + at;
        while (pos >= start + chunks[index].length) start += chunks[index++].length;
        const from = chunks[index].subarray(pos - start, pos - start + target.length - at);
        target.set(from, at);
        at += from.length;
      }
    });
    return { filter, fileBytes: total };
  } catch (err) {
    if (err instanceof FilterError) throw notAFilter(path, err);
    throw err;
  }
}

/**
 * Writes a filter's bytes (a filter, streamed with serializeTo, or an ArrayBuffer) to `path`
 * atomically (temp file + rename), or to stdout for '-'. A filter goes to a file 256 KiB at a
 * time, straight from wasm memory, with no whole-filter buffer.
 */
export async function writeOutput(path, source) {
  const isFilter = typeof source?.serializeTo === 'function';
  if (path === '-') {
    const data = new Uint8Array(isFilter ? source.serialize() : source);
    await new Promise((resolve, reject) => process.stdout.write(data, (err) => (err ? reject(err) : resolve())));
    return;
  }
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    const fd = openSync(tmp, 'w');
    try {
      const write = (chunk) => {
        for (let at = 0; at < chunk.length;) at += writeSync(fd, chunk, at, chunk.length - at);
      };
      if (isFilter) source.serializeTo(write); else write(new Uint8Array(source));
    } finally {
      closeSync(fd);
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    if (err instanceof FilterError) throw err;
    throw new CliError(`cannot write '${path}': ${fsReason(err)}`);
  }
}

/** 1234567 → '1,234,567'. */
export const count = (n) => Math.round(n).toLocaleString('en-US');

/** Bytes as B, KiB, MiB or GiB. */
export function bytes(n) {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[i]}`;
}

/** A rate as a percentage with enough digits to be meaningful. */
export function percent(p) {
  if (!Number.isFinite(p)) return 'n/a';
  if (p === 0) return '0%';
  const v = p * 100;
  return `${v >= 1 ? v.toFixed(2) : v.toPrecision(3)}%`;
}
