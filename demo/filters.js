// What the playground knows about each filter class: its options form, how to read its stats,
// the false-positive formulas, and how its storage maps onto the canvas. A class appears in the
// page only when the library exports it (feature detection), so the page works with any build.
import * as lib from './lib.js';


/** (1 − e^(−k·n/m))^k: the classic Bloom false-positive rate after n keys. */
export function bloomFpr(n, m, k) {
  if (!(m > 0) || !(k > 0)) return NaN;
  return (1 - Math.exp((-k * n) / m)) ** k;
}

/**
 * Split-block Bloom filter (8 bits per key, one in each 32-bit word of a 256-bit block):
 * Σ_i Poisson(i; n/B) · (1 − (1 − 1/32)^i)^8, the load of a block being Poisson distributed.
 */
export function blockedFpr(n, blocks) {
  if (!(blocks > 0)) return NaN;
  const lambda = n / blocks;
  if (lambda === 0) return 0;
  const hi = Math.ceil(lambda + 12 * Math.sqrt(lambda) + 30);
  let logP = -lambda; // log Poisson(0)
  let sum = 0;
  for (let i = 0; i <= hi; i++) {
    if (i > 0) logP += Math.log(lambda) - Math.log(i);
    sum += Math.exp(logP) * (1 - (31 / 32) ** i) ** 8;
  }
  return Math.min(1, sum);
}

/** The cuckoo bound 2b·α / 2^f per sub-filter (α = load factor), summed over sub-filters. */
export function cuckooFpr(load, bucketSize, fingerprintBits, filters = 1) {
  return Math.min(1, (filters * 2 * bucketSize * load) / 2 ** fingerprintBits);
}

const num = (label, key, def = '', hint = '') => ({ key, label, def, hint, type: 'number' });
const bool = (label, key, def = 'false') => ({ key, label, def, type: 'bool' });
const seedField = num('seed', 'seed', '', 'default 0x9747b28c');
const SIZING = [num('capacity', 'capacity', '1000'), num('error rate', 'errorRate', '0.01')];

/**
 * What the Bloom and Counting Bloom filters share: m units (bits or counters) of which each key
 * sets k, sized by capacity + error rate or by m + k, and the classic formula.
 */
function kProbes(units, unit, setWhat) {
  return {
    fields: [...SIZING, num(units, units, '', 'instead of capacity'), num('hashes', 'hashes', '', `with ${units}`), seedField],
    unit, probe: 'positions',
    units: (i) => i[units],
    fill: (i) => ({ label: `fill ratio (${setWhat})`, value: i.fillRatio }),
    theory: (i) => ({ value: bloomFpr(i.size, i[units], i.hashes), formula: '(1 − e^(−kn/m))^k' }),
    estimate: (i) => ({ value: i.estimatedErrorRate, how: `(${units} set / m)^k` }),
  };
}

const KINDS = [
  {
    className: 'BloomFilter', kind: 'bloom', label: 'Bloom',
    blurb: 'm bits, k probes by double hashing. Give capacity + errorRate, or bits + hashes.',
    explain: 'Adding a key sets k bits picked by hashing it; checking reads the same k bits. All set: maybe present (other keys may have set them: a false positive). Any bit clear: certainly absent. Bits are never cleared, so keys cannot be removed.',
    ...kProbes('bits', 'bit', 'bits set'), removable: false,
  },
  {
    className: 'BlockedBloomFilter', kind: 'blocked', label: 'Blocked Bloom',
    blurb: 'Split-block (cache-line) Bloom: each key sets 8 bits in one 256-bit block.',
    fields: [...SIZING, num('blocks', 'blocks', '', 'instead of capacity'), seedField],
    explain: 'Hashing picks one 256-bit block (a cache line), then one bit in each of its eight 32-bit words: a single memory access per key. Blocks fill unevenly, so it needs a little more memory than a classic Bloom filter for the same false-positive rate.',
    unit: 'bit', probe: 'positions', removable: false,
    units: (i) => i.bits,
    fill: (i) => ({ label: 'fill ratio (bits set)', value: i.fillRatio }),
    theory: (i) => ({ value: blockedFpr(i.size, i.blocks), formula: 'Σ Poisson(i; n/B)·(1 − (31/32)^i)^8' }),
    estimate: (i) => ({ value: i.estimatedErrorRate, how: 'from the bits set' }),
  },
  {
    className: 'CountingBloomFilter', kind: 'counting', label: 'Counting Bloom',
    blurb: '4-bit saturating counters instead of bits, so keys can be removed.',
    explain: 'Each position is a 4-bit counter: adding increments k counters, removing decrements them, checking tests that all k are non-zero. Four times the memory of a Bloom filter; a counter that reaches 15 stays there (it can no longer be decremented safely).',
    ...kProbes('counters', 'counter', 'counters > 0'), removable: true,
  },
  {
    className: 'ScalableBloomFilter', kind: 'scalable', label: 'Scalable Bloom',
    blurb: 'Adds a larger, tighter Bloom layer whenever the newest one is full (RedisBloom BF).',
    fields: [...SIZING, num('expansion', 'expansion', '2'), bool('non-scaling', 'nonScaling'), seedField],
    explain: 'A chain of Bloom layers: when the newest reaches its capacity a new one is added, expansion times larger with half the error rate, so the total stays under the target. A check reads every layer. Non-scaling: a full filter refuses keys (FULL).',
    noMap: 'The library draws no map of a Scalable Bloom filter (fillMap is offered by Bloom, Blocked, Counting and Cuckoo filters): its layers are Bloom filters of growing size.',
    unit: 'bit', probe: null, removable: false,
    units: (i) => (i.layers ?? []).reduce((a, l) => a + l.bits, 0),
    fill: (i) => {
      const top = i.layers?.[i.layers.length - 1];
      return { label: `load of newest layer (${i.layers?.length ?? 0} layer${i.layers?.length === 1 ? '' : 's'})`,
        value: top ? top.size / top.capacity : NaN };
    },
    theory: (i) => ({
      value: 1 - (i.layers ?? []).reduce((a, l) => a * (1 - bloomFpr(l.size, l.bits, l.hashes)), 1),
      formula: '1 − Π over layers (1 − (1 − e^(−kn/m))^k)',
    }),
    estimate: (i) => ({ value: i.estimatedErrorRate, how: 'from the bits set' }),
  },
  {
    className: 'CuckooFilter', kind: 'cuckoo', label: 'Cuckoo',
    blurb: 'Buckets of b fingerprints, two candidate buckets per key; supports remove. Expansion 0 = fixed size.',
    fields: [...SIZING, num('fingerprint bits', 'fingerprintBits', '', '8, 12 or 16'), num('bucket size', 'bucketSize', '4'),
      num('max kicks', 'maxIterations', '500'), num('expansion', 'expansion', '1', '0 = never grow'), seedField],
    explain: 'A key is stored as an f-bit fingerprint in one of two buckets: i1 from its hash, i2 = i1 XOR hash(fingerprint). When both are full a stored fingerprint is kicked to its other bucket, up to max kicks; then the filter grows, or (expansion 0) reports FULL and changes nothing. A check looks for the fingerprint in the two buckets: false positives ≈ 2b·load / 2^f.',
    unit: 'slot', probe: 'locate', removable: true,
    units: (i) => i.buckets * i.bucketSize,
    fill: (i) => ({ label: `load factor (${i.filters} sub-filter${i.filters === 1 ? '' : 's'})`, value: i.loadFactor }),
    theory: (i) => ({
      value: cuckooFpr(i.loadFactor, i.bucketSize, i.fingerprintBits, i.filters),
      formula: '2b·α / 2^f per sub-filter',
    }),
    estimate: (i) => ({
      value: 1 - (1 - 1 / (2 ** i.fingerprintBits - 1)) ** (2 * i.bucketSize * i.loadFactor * i.filters),
      how: '1 − (1 − 1/(2^f−1))^(2bα)',
    }),
  },
  {
    className: 'BinaryFuseFilter', kind: 'fuse', label: 'Binary Fuse',
    blurb: 'Static: built once from all keys (the page rebuilds it after every add). Smallest per key.',
    fields: [num('fingerprint bits', 'fingerprintBits', '8', '8 or 16'), seedField],
    explain: "Built once from the whole set: each key maps to three slots whose fingerprints XOR to the key's fingerprint (solved by peeling). About 9 bits per key at 8-bit fingerprints for large sets, false positives 1/256. No adds after building.",
    noMap: 'A Binary Fuse filter has no empty slots to draw: every slot holds a fingerprint share, and a key is the XOR of its three slots.',
    unit: 'fingerprint', probe: null, removable: false, static: true,
    staticNote: 'A binary fuse filter is static: it is solved once from the whole set, so it has no add and no remove. '
      + 'This page keeps the keys you add and builds the filter again from all of them; to drop a key, Clear and add the others again. '
      + 'Create filter rebuilds from the same keys with the new options.',
    units: (i) => i.arrayLength,
    fill: (i) => ({ label: 'keys per fingerprint slot', value: i.arrayLength ? i.size / i.arrayLength : NaN }),
    theory: (i) => ({ value: i.size ? 2 ** -i.fingerprintBits : 0, formula: '2^−f' }),
    estimate: (i) => ({ value: i.size ? 2 ** -i.fingerprintBits : 0, how: '2^−f (0 when empty)' }),
  },
];

/** The filter kinds of the page, in display order, each with its class. */
export function pageKinds() {
  return KINDS.map((k) => ({ ...k, Class: lib[k.className] }));
}

export function kindByName(kind) {
  return pageKinds().find((k) => k.kind === kind) ?? null;
}

const invalid = (message) => Object.assign(new RangeError(message), { code: 'INVALID_ARGUMENT' });

/**
 * An error rate as typed: a number strictly between 0 and 1 ("0.01", "1e-3", ".5"), else an
 * INVALID_ARGUMENT error that names the range and quotes what was typed (never "got NaN").
 */
export function parseErrorRate(text) {
  const raw = String(text ?? '').trim();
  const range = 'a number strictly between 0 and 1, e.g. 0.01 for 1 %';
  if (raw === '') throw invalid(`The error rate (errorRate) is empty: give ${range}.`);
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n >= 1) {
    throw invalid(`The error rate (errorRate) must be ${range}; got "${raw}"${Number.isFinite(n) ? '' : ', which is not a number'}.`);
  }
  return n;
}

/**
 * Reads option values from strings; empty fields are left out, non-numbers passed as typed (the
 * library's message names them). The error rate is checked here: with a capacity it is required
 * (except by a cuckoo filter, whose default is 1 %).
 */
export function parseOptions(spec, values) {
  const options = {};
  for (const f of spec.fields) {
    const raw = (values[f.key] ?? '').trim();
    if (f.key === 'errorRate') {
      const needed = spec.kind !== 'cuckoo' && (values.capacity ?? '').trim() !== '';
      if (raw !== '' || needed) options.errorRate = parseErrorRate(raw);
      continue;
    }
    if (raw === '') continue;
    if (f.type === 'bool') {
      options[f.key] = raw === 'true';
      continue;
    }
    const n = Number(raw);
    // hand an unparsable value to the library as typed: its error message names it
    options[f.key] = raw !== '' && Number.isFinite(n) ? n : raw;
  }
  return options;
}

/** Makes a filter of `spec` with `options`; static filters are built from `keys`. */
export function createFilter(spec, options, keys = []) {
  if (spec.static) return spec.Class.build(keys, options);
  return new spec.Class(options);
}

/**
 * How many keys a filter's memory was sized for: its capacity (a scalable filter's layers, a grown
 * cuckoo filter's sub-filters added up), a fuse filter's own keys; NaN when it was sized in bits.
 */
export function sizedFor(info) {
  if (info.kind === 'fuse') return info.size;
  if (info.kind === 'scalable') return (info.layers ?? []).reduce((a, l) => a + l.capacity, 0);
  if (!(info.capacity > 0)) return NaN;
  if (info.kind === 'cuckoo') return info.capacity * (info.buckets / cuckooSubFilterBuckets(info)[0]);
  return info.capacity;
}

/** Bits per key is shown once a filter holds this share of what it was sized for (else "—"). */
export const BPK_MIN_SHARE = 0.1;
/** ... or, for a filter sized in bits (no capacity), this many keys. */
export const BPK_MIN_KEYS = 100;

/** Every number the stats panel shows, from a filter of kind `spec`. */
export function statsOf(spec, filter) {
  const info = filter.info();
  const items = filter.size;
  const byteLength = filter.byteLength;
  const fill = spec.fill(info);
  const theory = spec.theory(info);
  const estimate = spec.estimate(info);
  const sized = sizedFor(info);
  return {
    info,
    items,
    bytes: byteLength,
    bitsPerKey: items > 0 ? (byteLength * 8) / items : NaN,
    // with very few keys bits per key says little (24,576 for one key in a 3 KiB filter): it is
    // shown from 10 % of the capacity on, and the figure at capacity next to it
    sizedFor: sized,
    bitsAtCapacity: info.kind !== 'fuse' && sized > 0 ? (byteLength * 8) / sized : NaN,
    bitsPerKeyFrom: info.kind === 'fuse' ? 1 : sized > 0 ? Math.max(1, Math.ceil(BPK_MIN_SHARE * sized)) : BPK_MIN_KEYS,
    fillLabel: fill.label,
    fill: fill.value,
    estimatedFpr: typeof estimate.value === 'number' ? estimate.value : NaN,
    estimateHow: estimate.how,
    theoreticalFpr: theory.value,
    theoryFormula: theory.formula,
  };
}

/**
 * Where the last key landed, as unit indices (bits, counters or slots) in storage order, plus a
 * description. null when the class has no introspection method in this build.
 */
export function touchedBy(spec, filter, key) {
  if (spec.probe === 'positions' && typeof filter.positions === 'function') {
    const pos = Array.from(filter.positions(key));
    return {
      units: pos,
      groups: pos.map((p) => [p, p + 1]),
      text: `${spec.unit}s ${pos.map((p) => p.toLocaleString('en-US')).join(', ')} (k = ${pos.length})`,
    };
  }
  if (spec.probe === 'locate' && typeof filter.locate === 'function') {
    const info = filter.info();
    const { fingerprint, buckets } = filter.locate(key);
    const b = info.bucketSize;
    const offsets = cuckooSubFilterOffsets(info);
    const groups = [];
    const parts = [];
    buckets.forEach(([i1, i2], j) => {
      for (const i of [i1, i2]) groups.push([(offsets[j] + i) * b, (offsets[j] + i + 1) * b]);
      parts.push(`${buckets.length > 1 ? `sub-filter ${j}: ` : ''}buckets ${i1.toLocaleString('en-US')} and ${i2.toLocaleString('en-US')}`);
    });
    const hex = `0x${fingerprint.toString(16).padStart(Math.ceil(info.fingerprintBits / 4), '0')}`;
    return { units: groups.map((g) => g[0]), groups, fingerprint, label: hex, text: `fingerprint ${hex} (${fingerprint}) · ${parts.join(' · ')}` };
  }
  return null;
}

/**
 * Buckets of each cuckoo sub-filter in storage order: sub-filter i has B0·expansion^i buckets
 * (info.buckets is the total over all sub-filters).
 */
export function cuckooSubFilterBuckets(info) {
  const e = info.expansion || 1;
  let weights = 0;
  for (let i = 0; i < info.filters; i++) weights += e ** i;
  return Array.from({ length: info.filters }, (_, i) => (info.buckets / weights) * e ** i);
}

/** First bucket of each cuckoo sub-filter in storage order. */
export function cuckooSubFilterOffsets(info) {
  let at = 0;
  return cuckooSubFilterBuckets(info).map((n) => { at += n; return at - n; });
}
