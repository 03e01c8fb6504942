// deserialize(bytes): reads any filter's serialize() bytes back into the right class.
import { FilterError, statusName } from './errors.js';
import { requireWasm } from './loader.js';
import { ByteInput, streamIn } from './filter.js';
import { BloomFilter } from './bloom.js';
import { BlockedBloomFilter } from './blocked-bloom.js';
import { CountingBloomFilter } from './counting-bloom.js';
import { ScalableBloomFilter } from './scalable-bloom.js';
import { CuckooFilter } from './cuckoo.js';
import { BinaryFuseFilter } from './binary-fuse.js';
import { RedisBloomFilter } from './redis-bloom.js';
import { RedisCuckooFilter } from './redis-cuckoo.js';

/** Filter classes by the kind byte of the format (docs/FORMAT.md). */
const CLASSES = {
  1: BloomFilter,
  2: BlockedBloomFilter,
  3: CountingBloomFilter,
  4: ScalableBloomFilter,
  5: CuckooFilter,
  6: BinaryFuseFilter,
  7: RedisBloomFilter,
  8: RedisCuckooFilter,
};

/** The kind names of the format, by kind byte. */
export const KIND_NAMES = { 1: 'bloom', 2: 'blocked', 3: 'counting', 4: 'scalable', 5: 'cuckoo', 6: 'fuse', 7: 'redis-bloom', 8: 'redis-cuckoo' };

/** Runs the module-wide kind check `fn(byteLength)` over `input`; throws for a negative status. */
function kindFrom(input, fn) {
  const m = requireWasm();
  const r = streamIn(input, () => fn(m, input.byteLength));
  if (r < 0) throw new FilterError(statusName(-r), `deserialize: ${m.lastStatusMessage()}`);
  return r;
}

/**
 * Validates the frame (magic, version, length, checksum) of serialized bytes and returns its
 * kind name ('bloom', 'cuckoo', ...). Throws FilterError CORRUPT_DATA / UNSUPPORTED_VERSION.
 */
export function kindOf(bytes) {
  return KIND_NAMES[kindFrom(ByteInput.of(bytes), (m, n) => m.checkedKind(n))];
}

function deserializeInput(input) {
  const kind = kindFrom(input, (m, n) => m.headerKind(n));
  const Cls = CLASSES[kind];
  if (!Cls) throw new FilterError('UNSUPPORTED_VERSION', `deserialize: filter kind ${kind} is not supported by this build`);
  return Cls.deserialize(input);
}

/**
 * Makes a filter of the right class from serialize() bytes (ArrayBuffer or any view).
 * Corrupt, truncated or foreign bytes throw FilterError CORRUPT_DATA or UNSUPPORTED_VERSION.
 */
export function deserialize(bytes) {
  return deserializeInput(ByteInput.of(bytes));
}

/**
 * deserialize() for bytes that are not in memory as a whole (a file, a stream): `byteLength`
 * bytes, which `read(target, offset)` copies on request into the Uint8Array `target` (a view
 * into wasm memory, filled completely) from position `offset`. They go straight into the
 * filter's memory. An error thrown by `read` stops it and is rethrown.
 */
export function deserializeFrom(byteLength, read) {
  return deserializeInput(new ByteInput(byteLength, read));
}
