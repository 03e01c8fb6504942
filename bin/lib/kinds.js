// The filter kinds as the CLI sees them: which flags each takes, how they become constructor
// options, which info() fields are its options, and its estimated false-positive rate.
import * as bc from '../../js/main/index.js';
import { KIND_TABLE } from '../../js/shared/kind-table.js';
import { CliError, intIn, positiveInt, probability } from './common.js';

/** Flags of `build` that set filter options: flag → [option name, parser]. */
export const OPTION_FLAGS = {
  'capacity': ['capacity', positiveInt],
  'error-rate': ['errorRate', probability],
  'bits': ['bits', positiveInt],
  'hashes': ['hashes', (f, v) => intIn(f, v, 1, 64)],
  'blocks': ['blocks', positiveInt],
  'counters': ['counters', positiveInt],
  'expansion': ['expansion', (f, v) => intIn(f, v, 0, 1 << 20)],
  'non-scaling': ['nonScaling', (_f, v) => v],
  'fingerprint-bits': ['fingerprintBits', (f, v) => intIn(f, v, 1, 64)],
  'bucket-size': ['bucketSize', (f, v) => intIn(f, v, 1, 1 << 20)],
  'max-iterations': ['maxIterations', (f, v) => intIn(f, v, 1, 2 ** 31 - 1)],
  'seed': ['seed', (f, v) => intIn(f, v, 0, 0xffffffff)],
};

/**
 * A kind: its library class and `build` flags; `direct`: the flags that size it without
 * --capacity/--error-rate; `shown`: the info() fields printed as its options, by default the
 * options its flags set; `help`: its lines under "Per kind:" in `build --help` (bin/lib/help.js).
 */
function kind(className, flags, { direct = [], shown = flags.map((f) => OPTION_FLAGS[f][0]), ...more } = {}) {
  return { className, flags, direct, shown, ...more };
}

export const KINDS = {
  bloom: kind('BloomFilter', ['capacity', 'error-rate', 'bits', 'hashes', 'seed'], {
    direct: ['bits', 'hashes'],
    help: '  bloom      --bits <m> --hashes <k>       instead of --capacity/--error-rate\n',
  }),
  blocked: kind('BlockedBloomFilter', ['capacity', 'error-rate', 'blocks', 'seed'], {
    direct: ['blocks'], shown: ['capacity', 'errorRate', 'blocks', 'bits', 'seed'],
    help: '  blocked    --blocks <n>                  256-bit blocks, instead of --capacity/--error-rate\n',
  }),
  counting: kind('CountingBloomFilter', ['capacity', 'error-rate', 'counters', 'hashes', 'seed'], {
    direct: ['counters', 'hashes'],
    help: '  counting   --counters <n> --hashes <k>   4-bit counters, instead of --capacity/--error-rate\n',
  }),
  scalable: kind('ScalableBloomFilter', ['capacity', 'error-rate', 'expansion', 'non-scaling', 'seed'], {
    help: `  scalable   --expansion <n>               capacity factor of each new layer (default 2)
             --non-scaling                 never add a layer: fail when full
`,
  }),
  cuckoo: kind('CuckooFilter', ['capacity', 'error-rate', 'fingerprint-bits', 'bucket-size', 'max-iterations', 'expansion', 'seed'], {
    help: `  cuckoo     --fingerprint-bits 8|12|16    (default: from --error-rate)
             --bucket-size 1|2|4|8         (default 4)
             --max-iterations <n>          kicks before an insert fails (default 500)
             --expansion <n>               size factor of new sub-filters; 0 = never grow (default 1)
             --unique                      a set: add a key only if it is not already maybe-present.
                                           Default: add every line (duplicates too; a multiset:
                                           a line repeated more than 2 x bucket-size times fills
                                           its buckets; remove repeats first, e.g. sort -u).
                                           Hazard: a key whose fingerprint matches one already
                                           there is not stored, and removing that other key later
                                           makes it read absent: false negatives after removals.
                                           Use --unique only for a filter you never remove from
             --multiset                    the default (kept for old scripts)
`,
  }),
  'redis-bloom': kind('RedisBloomFilter', ['capacity', 'error-rate', 'expansion', 'non-scaling'], {
    shown: ['capacity', 'expansion', 'nonScaling'],
    help: `  redis-bloom  RedisBloom's BF bit for bit (BF.RESERVE): --error-rate, --capacity,
             --expansion <n> (default 2) or --non-scaling; push it with 'bloomcuckoo redis push'
`,
  }),
  'redis-cuckoo': kind('RedisCuckooFilter', ['capacity', 'bucket-size', 'max-iterations', 'expansion'], {
    noErrorRate: true, shown: ['bucketSize', 'maxIterations', 'expansion'],
    help: `  redis-cuckoo RedisBloom's CF bit for bit (CF.RESERVE): --capacity, --bucket-size 1..255
             (default 2), --max-iterations (default 20), --expansion 0..32768 (default 1);
             every line added (CF.ADD) unless --unique (CF.ADDNX; the hazard as for cuckoo)
`,
  }),
  fuse: kind('BinaryFuseFilter', ['fingerprint-bits', 'seed'], {
    static: true,
    help: `  fuse       --fingerprint-bits 8|16       (default 8: FPR ~0.39%; 16: ~0.0015%)
             A binary fuse filter is built from all keys at once: the input is streamed, but
             every key's 8-byte hash is held in memory (8-24 B/key: the buffer doubles), then
             ~33 B/key more while building. From stdin it says how many keys fit.
`,
  }),
};

// A kind of the library's table (js/shared/kind-table.js) without a row above is built from the
// options every sized class takes, --capacity, --error-rate and --seed (tests/js/kinds.test.js
// checks that its class takes them); a row of its own gives it flags of its own.
for (const [, name, className] of KIND_TABLE) {
  KINDS[name] ??= kind(className, ['capacity', 'error-rate', 'seed'], {
    derived: true,
    help: `  ${name.padEnd(10)} --capacity, --error-rate and --seed only\n`,
  });
}

export const KIND_NAMES = Object.keys(KINDS);

/** The library class of a kind, or a CliError when this build of the library lacks it. */
export function classOf(kind) {
  const spec = KINDS[kind];
  if (!spec) throw new CliError(`unknown kind '${kind}' (kinds: ${KIND_NAMES.join(', ')})`);
  const Cls = bc[spec.className];
  if (typeof Cls !== 'function') {
    throw new CliError(`kind '${kind}' (${spec.className}) is not available in this version of the bloomcuckoo library`);
  }
  return Cls;
}

/**
 * Turns parsed flag values into constructor options for `kind`; rejects flags the kind does not
 * take. Returns { options, needsCapacity } (needsCapacity: sized by capacity, none given).
 */
export function optionsFor(kind, values) {
  const spec = KINDS[kind];
  const options = {};
  for (const [flag, [name, parseValue]] of Object.entries(OPTION_FLAGS)) {
    if (values[flag] === undefined) continue;
    if (!spec.flags.includes(flag)) {
      throw new CliError(`build: --${flag} does not apply to --kind ${kind} (it takes ${spec.flags.map((f) => `--${f}`).join(', ')})`);
    }
    options[name] = parseValue(`--${flag}`, values[flag]);
  }
  const direct = spec.direct.some((f) => options[f] !== undefined);
  if (direct && (options.capacity !== undefined || options.errorRate !== undefined)) {
    throw new CliError(`build: give either --capacity/--error-rate or ${spec.direct.map((f) => `--${f}`).join('/')}, not both`);
  }
  const sized = !spec.static && !direct;
  if (sized && !spec.noErrorRate && options.errorRate === undefined) options.errorRate = 0.01;
  return { options, needsCapacity: sized && options.capacity === undefined };
}

/** The options part of info(), as `name=value` pairs for display. */
export function shownOptions(kind, info) {
  return KINDS[kind].shown
    .filter((k) => info[k] !== undefined)
    .map((k) => `${k}=${k === 'seed' ? `0x${(info[k] >>> 0).toString(16)}` : info[k]}`);
}

/**
 * The false-positive rate the filter has now: measured from the fill for the Bloom kinds, the
 * standard estimate 1 − (1 − 1/(2^f − 1))^(2·b·load) per sub-filter for cuckoo, 2^−f for fuse.
 */
export function estimatedFpr(filter, info) {
  if (typeof filter.estimatedErrorRate === 'function') return filter.estimatedErrorRate();
  if (info.kind === 'cuckoo') {
    const perSlot = 1 / (2 ** info.fingerprintBits - 1);
    const compared = 2 * info.bucketSize * info.loadFactor * Math.max(1, info.filters);
    return 1 - (1 - perSlot) ** compared;
  }
  if (info.kind === 'redis-bloom') {
    // each link: (1 − e^(−k·n/m))^k; the chain: 1 − Π(1 − link)
    return 1 - info.links.reduce((p, l) => p * (1 - (1 - Math.exp(-l.hashes * l.items / l.bits)) ** l.hashes), 1);
  }
  if (info.kind === 'redis-cuckoo') {
    // 8-bit fingerprints 1..255; a lookup compares 2·b slots per sub-filter at the average load
    const load = info.items / Math.max(1, info.byteLength);
    return 1 - (1 - 1 / 255) ** (2 * info.bucketSize * load * info.filters);
  }
  if (info.kind === 'fuse') return info.size > 0 ? (info.expectedErrorRate ?? 2 ** -info.fingerprintBits) : 0;
  throw new CliError(`no false-positive estimate for --kind ${info.kind}: give ${filter.constructor.name} estimatedErrorRate(), or add a branch to estimatedFpr in bin/lib/kinds.js`);
}
