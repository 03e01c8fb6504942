// How much wasm memory `build` needs, worked out from the kind and its options before any key is
// read, and the one limit it has to fit in. Filter sizes come from the library's own shape
// functions, computed by the core (optimalShape of Bloom, blocked, counting, cuckoo, RedisBloom CF
// and fuse; the scalable filter's first layer and RedisBloom's BF are Bloom filters at half the
// error rate); the tests compare every estimate with the filter the library then makes.
import {
  BinaryFuseFilter, BlockedBloomFilter, BloomFilter, CountingBloomFilter, CuckooFilter, FilterError, RedisBloomFilter,
  RedisCuckooFilter, ScalableBloomFilter,
} from '../../js/main/index.js';
import { CliError, bytes, count } from './common.js';
import { KINDS, classOf } from './kinds.js';
import { BATCH } from './lines.js';

/**
 * The most memory the wasm module can have: its -sMAXIMUM_MEMORY (CMakeLists.txt). The only
 * place the CLI takes it from; tests/js/cli.test.js checks it against dist/wasm/bloomcuckoo.wasm.
 */
export const WASM_MEMORY_LIMIT = 4 * 2 ** 30;
/** The limit as the messages say it: '4 GiB'. */
export const LIMIT_TEXT = `${Number((WASM_MEMORY_LIMIT / 2 ** 30).toFixed(2))} GiB`;

/** Memory the module holds before any filter: its initial memory (static data, stack, key scratch). */
export const MODULE_BYTES = 16 * 2 ** 20;

/** The file is written with serializeTo (common.js writeOutput): pieces of at most 256 KiB of wasm memory. */
const SERIALIZE_PIECE = 256 * 1024;

const LN2_SQUARED = Math.LN2 * Math.LN2;

/** Bytes of a classic Bloom filter for n keys at rate p, in 64-bit words (for sizes the library refuses to shape). */
const bloomFormulaBytes = (n, p) => Math.ceil(Math.ceil((-n * Math.log(p)) / LN2_SQUARED) / 64) * 8;

/** A library shape's byteLength; past what it can allocate, the textbook size (so the message can say how much). */
function shapeBytes(Cls, capacity, errorRate) {
  try {
    return Cls.optimalShape({ capacity, errorRate }).byteLength;
  } catch (err) {
    if (err instanceof FilterError && err.code === 'OUT_OF_MEMORY') return bloomFormulaBytes(capacity, errorRate);
    throw err;
  }
}

// The cuckoo filters' and the fuse filter's sizes are the core's own (optimalShape): past what it
// can allocate, Infinity (the build is then refused as needing more than any memory).
function coreBytes(shape, tooLarge = ['OUT_OF_MEMORY']) {
  try {
    return shape().byteLength;
  } catch (err) {
    if (err instanceof FilterError && tooLarge.includes(err.code)) return Infinity;
    throw err;
  }
}

const cuckooBytes = ({ capacity, errorRate, bucketSize, fingerprintBits }) =>
  coreBytes(() => CuckooFilter.optimalShape({ capacity, errorRate, bucketSize, fingerprintBits }));
const redisCuckooBytes = ({ capacity, bucketSize }) => coreBytes(() => RedisCuckooFilter.optimalShape({ capacity, bucketSize }));

/**
 * The fuse builder's hash buffers for n keys. Reserved (the keys in a file are counted first,
 * builder.reserve): exactly 8 bytes a key. Otherwise (stdin) its buffer starts at one batch and
 * doubles as keys arrive (js/main/binary-fuse.js): 8 bytes a key for up to twice the keys. The smaller
 * buffers it left behind form one free region just below it, which later arrays may reuse when
 * they fit; all of that region is counted as lost (this errs high).
 */
function fuseHashBytes(n, reserved) {
  if (n === 0) return 0;
  if (reserved) return 8 * n;
  let cap = BATCH;   // the first builder.addAll call's keys
  while (cap < n) cap *= 2;
  return 8 * cap + 8 * (cap - BATCH);
}

/**
 * Wasm memory of a fuse build from n keys, in bytes: { filter, hashes, peeling, building }. The
 * core builds in the builder's hashes and needs peakBuildBytes more (the remixed hashes and
 * peeling order, and per slot the xor, count and stack of the peeling). `reserved`: whether the
 * key count is known before the keys are read (a file), so the hashes take exactly 8n.
 */
export function fuseMemory(n, fingerprintBits = 8, reserved = true) {
  const peak = BinaryFuseFilter.peakBuildBytes(n);
  const hashes = fuseHashBytes(n, reserved);
  const peeling = peak >= 2 ** 64 ? Infinity : peak;
  return { filter: coreBytes(() => BinaryFuseFilter.optimalShape(n, { fingerprintBits }), ['INVALID_ARGUMENT']), hashes, peeling, building: hashes + peeling };
}

// the first layer / link: a Bloom filter at half the error rate (all of it when non-scaling)
const firstLayerBytes = (o) => shapeBytes(BloomFilter, o.capacity, o.nonScaling ? o.errorRate : o.errorRate / 2);

/**
 * Filter bytes of a dynamic kind's class with these constructor options (capacity known): a class
 * not here is sized by its optimalShape({ capacity, errorRate }), as the Bloom filters are.
 */
const FILTER_BYTES = new Map([
  [BloomFilter, (o) => (o.bits !== undefined ? Math.ceil(o.bits / 64) * 8 : shapeBytes(BloomFilter, o.capacity, o.errorRate))],
  [BlockedBloomFilter, (o) => (o.blocks !== undefined ? o.blocks * 32 : shapeBytes(BlockedBloomFilter, o.capacity, o.errorRate))],
  [CountingBloomFilter, (o) => (o.counters !== undefined ? Math.ceil(o.counters / 2) : shapeBytes(CountingBloomFilter, o.capacity, o.errorRate))],
  [ScalableBloomFilter, firstLayerBytes],
  [RedisBloomFilter, firstLayerBytes],
  [CuckooFilter, cuckooBytes],
  [RedisCuckooFilter, redisCuckooBytes],
]);

function filterBytes(kind, o) {
  const Cls = classOf(kind);
  const estimate = FILTER_BYTES.get(Cls) ?? (typeof Cls.optimalShape === 'function' && ((x) => shapeBytes(Cls, x.capacity, x.errorRate)));
  if (!estimate) {
    throw new CliError(`no memory estimate for --kind ${kind}: give ${Cls.name} a static optimalShape({ capacity, errorRate }), or add it to FILTER_BYTES in bin/lib/memory.js`);
  }
  return estimate(o);
}

/**
 * The wasm memory a build needs, before any key is read: { kind, keys, filter, building, total,
 * what, grows }. `keys` is the number of keys the filter is sized for (the capacity; for fuse,
 * the keys counted in the file), null when only the options are known (--bits and the like).
 * `building` is what is needed on top of the filter while building: for the dynamic kinds what
 * serialize() needs to write the file out, for fuse the key hashes and the peeling arrays.
 */
export function buildMemory(kind, options, fuseKeys, { reserved = true } = {}) {
  let filter;
  let building;
  let what;
  if (kind === 'fuse') {
    ({ filter, building } = fuseMemory(fuseKeys, options.fingerprintBits, reserved));
    what = 'the key hashes and the peeling';
  } else {
    filter = filterBytes(kind, options);
    building = SERIALIZE_PIECE;
    what = 'the pieces its bytes are written out in';
  }
  const keys = kind === 'fuse' ? fuseKeys : options.capacity ?? null;
  return {
    kind, keys, filter, building, what, total: MODULE_BYTES + filter + building, fingerprintBits: options.fingerprintBits, reserved,
    // the kinds that take --expansion grow unless it is 0 or they are non-scaling
    grows: KINDS[kind].flags.includes('expansion') && !options.nonScaling && options.expansion !== 0,
  };
}

const sized = (plan) => (plan.keys === null ? `a ${plan.kind} filter` : `a ${plan.kind} filter for ${count(plan.keys)} keys`);

/** The line `build` prints before it starts. */
export function memoryNote(plan) {
  return `memory: ${sized(plan)}: about ${bytes(plan.filter)} of filter memory (+ ${bytes(plan.building)} while building: `
    + `${plan.what})${plan.grows ? ', more if it has to grow' : ''}; the wasm memory limit is ${LIMIT_TEXT}`;
}

/** Whether a build's memory fits the wasm memory limit. */
export const fits = (plan) => plan.total <= WASM_MEMORY_LIMIT;

/** Why a build that does not fit is refused, in one line (after 'build: '). */
export function refusal(plan) {
  const need = Number.isFinite(plan.total) ? `about ${bytes(plan.total)}` : 'more than any';
  const hint = plan.kind === 'fuse'
    ? `at most ${count(fuseMaxKeys(plan.fingerprintBits, plan.reserved))} keys fit: split the keys, or use --kind bloom or blocked`
    : plan.keys === null ? `lower --${KINDS[plan.kind].direct[0]}` : 'lower --capacity or raise --error-rate, or split the keys';
  return `${sized(plan)} needs ${need} of wasm memory (${bytes(plan.filter)} of filter + ${bytes(plan.building)} while building), `
    + `more than the ${LIMIT_TEXT} a wasm module can have; ${hint}`;
}

/** The most keys a fuse build fits in the wasm memory limit; reserved: false for stdin, where the count is not known in advance. */
export function fuseMaxKeys(fingerprintBits = 8, reserved = true) {
  const total = (n) => buildMemory('fuse', { fingerprintBits }, n, { reserved }).total;
  let lo = 1;
  let hi = 2 ** 32;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (total(mid) <= WASM_MEMORY_LIMIT) lo = mid; else hi = mid;
  }
  return lo;
}

/**
 * For a fuse build from stdin, where the number of keys is not known in advance: the most keys
 * that fit, and the line `build` prints before reading.
 */
export function fuseStdinPlan(fingerprintBits = 8) {
  const most = fuseMaxKeys(fingerprintBits, false);
  const { filter } = fuseMemory(most, fingerprintBits, false);
  const perKey = (filter + BinaryFuseFilter.peakBuildBytes(most)) / most;
  return {
    most,
    text: 'memory: a fuse filter is built from all keys at once; from stdin their number is not known in advance: '
      + `about ${perKey.toFixed(0)} bytes per key of wasm memory while building, plus 8 to 24 for the keys' hashes `
      + `(their buffer doubles as keys arrive); at most ${count(most)} keys fit in the ${LIMIT_TEXT} wasm memory limit`,
  };
}
