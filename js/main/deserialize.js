// deserialize(bytes): reads any filter's serialize() bytes back into the right class.
import { FilterError } from './errors.js';
import { requireWasm, throwIfError } from './loader.js';
import { ByteInput, streamIn } from './filter.js';
import { kindByNumber } from './kinds.js';

/** Runs the module-wide kind check `fn(byteLength)` over `input`; throws for a negative status. */
function kindFrom(input, fn) {
  const m = requireWasm();
  return throwIfError(streamIn(input, () => fn(m, input.byteLength)), 'deserialize');
}

/**
 * Validates the frame (magic, version, length, checksum) of serialized bytes and returns its
 * kind name ('bloom', 'cuckoo', ...). Throws FilterError CORRUPT_DATA / UNSUPPORTED_VERSION.
 */
export function kindOf(bytes) {
  return kindByNumber(kindFrom(ByteInput.of(bytes), (m, n) => m.checkedKind(n)))[1];
}

function deserializeInput(input) {
  const kind = kindFrom(input, (m, n) => m.headerKind(n));
  const Cls = kindByNumber(kind)?.[2];
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
