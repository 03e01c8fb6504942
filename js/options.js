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
  if (value === undefined) return requireWasm().defaultSeed >>> 0;
  return integerIn('seed', value, 0, 0xffffffff);
}

export function booleanOption(name, value, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') invalidOption(name, value, 'must be true or false');
  return value;
}

/** The RedisBloom server whose rules a Redis class follows: '2.6' (the default) or '8'. */
export function serverOption(value) {
  if (value === undefined) return '2.6';
  if (value !== '2.6' && value !== '8') invalidOption('server', value, "must be '2.6' or '8'");
  return value;
}

/** A capacity of a RedisBloom class: a positive integer, at most 2^30 on Redis 8. */
export function redisCapacity(value, v8) {
  return v8 ? integerIn('capacity', value, 1, 2 ** 30) : positiveInteger('capacity', value);
}

