// FilterError: every failure of a filter operation, with a stable `code`.
export class FilterError extends Error {
  /**
   * @param {string} code one of INVALID_ARGUMENT, FULL, OUT_OF_MEMORY, CORRUPT_DATA,
   *   UNSUPPORTED_VERSION, DISPOSED, NOT_INITIALIZED, REDIS (bloomcuckoo/redis)
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.name = 'FilterError';
    this.code = code;
  }
}

/** Shows a value in an error message (strings quoted, objects as JSON, bigint as is). */
export function show(value) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  try {
    return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Throws FilterError('INVALID_ARGUMENT') naming the option and its value. */
export function invalidOption(name, value, rule) {
  throw new FilterError('INVALID_ARGUMENT', `${name} ${rule}, got ${show(value)}`);
}
