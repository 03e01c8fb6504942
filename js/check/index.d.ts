// Types of bloomcuckoo/check (js/check/index.js), written by hand: the read-only checker.

import type { FilterKind } from '../main/index.js';

/** The kind of filter a checker holds: the main entry's `FilterKind` (as its `kindOf` gives). */
export type CheckKind = FilterKind;

/** A key: a `string` (its UTF-8 bytes), an `ArrayBuffer` or any `ArrayBufferView` (their bytes). */
export type CheckKey = string | ArrayBuffer | ArrayBufferView;

/** Options of {@link open}: where this kind's module is, for pages that serve it elsewhere. */
export interface CheckOpenOptions {
  /** The URL of `check-<kind>.wasm` for the bytes' kind (default: `wasm/` beside this file). */
  url?: string | URL;
  /** That module already compiled (e.g. imported as a wasm module by workerd). */
  module?: WebAssembly.Module;
}

/**
 * An error of the checker, with the main entry's codes: `CORRUPT_DATA` (corrupt, truncated or
 * inconsistent bytes), `UNSUPPORTED_VERSION` (a newer format version or hash id),
 * `INVALID_ARGUMENT` (bytes of another kind than the module given with `{ module }` or `{ url }`
 * was built for, as the main entry's `Class.deserialize` of another kind; that module is then not
 * kept for the bytes' kind), `OUT_OF_MEMORY`, `DISPOSED` (used after `free()`), `NOT_INITIALIZED`
 * (the module could not be found or fetched). Never `OK`. Its own class: `instanceof` the main
 * entry's `FilterError` is false; compare `code`.
 */
export class FilterError extends Error {
  name: 'FilterError';
  /** What went wrong (see the class). */
  code: string;
}

/**
 * A filter read by {@link open}: answers `has`/`hasAll` exactly as the main library's filter of
 * the same bytes does (false positives included). It lives in wasm memory: call `free()` when done.
 */
export interface CheckFilter extends Disposable {
  /** The filter's kind, from its bytes. */
  readonly kind: CheckKind;
  /** Bytes of filter storage in wasm memory (as the main filter's `byteLength`). */
  readonly byteLength: number;
  /** `true` after `free()`. */
  readonly freed: boolean;
  /** `false`: certainly absent; `true`: maybe present (false positives by design). A key of another type is a `TypeError`. */
  has(key: CheckKey): boolean;
  /** One byte per key, 1 = maybe present, 0 = certainly absent; one wasm call per 16,384 keys. One string is a `TypeError`. */
  hasAll(keys: Iterable<CheckKey> & { charAt?: never }): Uint8Array;
  /** Releases the filter's wasm memory; idempotent; later use throws `FilterError` `DISPOSED`. */
  free(): void;
  /** Same as `free()`, for `using`. */
  [Symbol.dispose](): void;
}

/**
 * Reads a filter's bytes (any kind, as the main entry's `serialize()` wrote them, checksum and
 * all) and loads the small wasm module of that kind, once per kind.
 * @throws FilterError `CORRUPT_DATA` or `UNSUPPORTED_VERSION` for bytes the main `deserialize`
 *   refuses, with the same code; `INVALID_ARGUMENT` when the `module` or `url` given is another
 *   kind's module; `NOT_INITIALIZED` when the module cannot be found (pass `url`). Any bytes are
 *   judged in time linear in their length (docs/FORMAT.md, "Cost of reading").
 */
export function open(bytes: ArrayBuffer | ArrayBufferView, options?: CheckOpenOptions): Promise<CheckFilter>;
