// Validation of constructor options: types and ranges checked here give messages that name the
// option and its value; the C++ core checks ranges again (and is the authority for sizes).
import { FilterError, invalidOption, show } from './errors.js';
import { requireWasm } from './loader.js';

/**
 * Returns a plain copy of `options` after checking that it is an object whose keys are all in
 * `allowed` (a misspelt option is an error, not silently ignored).
 */
export function readOptions(className, options, allowed) {
  if (options === undefined) options = {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new FilterError('INVALID_ARGUMENT', `${className}: options must be an object, got ${show(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw new FilterError('INVALID_ARGUMENT',
        `${className}: unknown option ${show(key)} (known: ${allowed.join(', ')})`);
    }
  }
  return { ...options };
}

/**
 * The options of `Class.from(keys, options)`, as given. A number there is bloom-filters'
 * positional error rate (`from(items, 0.001)`): a TypeError naming the fix, never a filter
 * silently built at the default rate.
 */
export function fromOptions(className, options, hasErrorRate = true) {
  if (typeof options === 'number') {
    throw new TypeError(`${className}.from(keys, ${options}): options are an object${hasErrorRate
      ? `: pass { errorRate: ${options} }` : `, and ${className} has no errorRate option`}`);
  }
  return options;
}

/** A positive safe integer (capacity, bits, ...). */
export function positiveInteger(name, value) {
  if (!Number.isSafeInteger(value) || value < 1) invalidOption(name, value, 'must be a positive safe integer');
  return value;
}

/** An integer in [min, max]. */
export function integerIn(name, value, min, max) {
  if (!Number.isInteger(value) || value < min || value > max) {
    invalidOption(name, value, `must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** A probability strictly between 0 and 1. */
export function rate(name, value) {
  if (typeof value !== 'number' || !(value > 0 && value < 1)) {
    invalidOption(name, value, 'must be a number strictly between 0 and 1');
  }
  return value;
}

/** A 32-bit unsigned seed; undefined → the library default. */
export function seedOption(value) {
  if (value === undefined) return requireWasm().defaultSeed();
  return integerIn('seed', value, 0, 0xffffffff);
}

export function booleanOption(name, value, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') invalidOption(name, value, 'must be true or false');
  return value;
}

/**
 * The `server` option's values: the names of the rows of the server table (kRedisServers,
 * cpp/include/bloomcuckoo/redis_server.h), in its order; the first is the default. The core
 * holds each row's rules; tests/js/redis-server-limits.test.js checks these names against it.
 */
export const REDIS_SERVERS = ['2.6', '8'];

/** The row of the server table whose rules a Redis class follows (the core applies them). */
export function serverOption(value) {
  const row = value === undefined ? 0 : REDIS_SERVERS.indexOf(value);
  if (row < 0) invalidOption('server', value, `must be ${REDIS_SERVERS.map((s) => `'${s}'`).join(' or ')}`);
  return row;
}

