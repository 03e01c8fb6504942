// The same checks, run on the installed package from Node ESM, Node CommonJS and a Vite-built
// page in Chromium (tests/pack/run-pack.mjs): it returns plain JSON, which must be identical
// everywhere. `bloomcuckoo` is the package's module namespace. Classes the package does not
// export yet are left out (so the probe covers more as the library grows).
const KEYS = ['alpha', 'beta', 'gamma', 'δέλτα', '🦆'];
const OTHERS = ['not-1', 'not-2', 'not-3'];
// Each class made for 1,000 keys at 0.1% (the fuse filter built from KEYS).
const sized = (C) => new C({ capacity: 1000, errorRate: 0.001 });
const FACTORIES = {
  BloomFilter: sized, BlockedBloomFilter: sized, CountingBloomFilter: sized, ScalableBloomFilter: sized, CuckooFilter: sized,
  BinaryFuseFilter: (C) => C.build(KEYS, { fingerprintBits: 16 }),
};

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export async function probe(bloomcuckoo) {
  const { init, murmur3, deserialize, kindOf, FilterError } = bloomcuckoo;
  await init();
  const errors = [];
  const result = {
    exports: Object.keys(bloomcuckoo).sort(),
    murmur3: { x86_32: murmur3.x86_32('geeky ogre', 42), x64_128: hex(murmur3.x64_128('geeky ogre', 42)) },
    filters: {},
    errors,
  };
  for (const [name, make] of Object.entries(FACTORIES)) {
    const Cls = bloomcuckoo[name];
    if (typeof Cls !== 'function') continue;
    const f = make(Cls);
    try {
      if (typeof f.addAll === 'function') f.addAll(KEYS);
      const bytes = f.serialize();
      const back = deserialize(new Uint8Array(bytes));
      result.filters[name] = {
        kind: kindOf(bytes),
        present: Array.from(f.hasAll(KEYS)),
        others: Array.from(f.hasAll(OTHERS)),
        roundTrip: Array.from(back.hasAll(KEYS)),
        sameClass: back instanceof Cls,
        bytes: bytes.byteLength,
        bytesHash: murmur3.x86_32(new Uint8Array(bytes), 1),
      };
      if (typeof back.remove === 'function') {   // counting and cuckoo: remove one key again
        result.filters[name].removed = [back.remove(KEYS[0]), back.has(KEYS[0]), back.has(KEYS[1])];
      }
      back.free();
      if (result.filters[name].present.some((x) => x !== 1)) errors.push(`${name}: a false negative`);
    } catch (err) {
      errors.push(`${name}: ${err?.message ?? err}`);
    } finally {
      f.free();
    }
    try {
      f.has('x');
      errors.push(`${name}: usable after free()`);
    } catch (err) {
      if (!(err instanceof FilterError) || err.code !== 'DISPOSED') errors.push(`${name}: after free(): ${err}`);
    }
  }
  try {
    deserialize(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]));
    errors.push('deserialize accepted garbage');
  } catch (err) {
    result.garbage = err instanceof FilterError ? err.code : String(err);
  }
  return result;
}

// What a bundler of the user's may rename but the package itself must not: class names (error
// messages show them) and some error messages. run-pack.mjs compares these between the installed
// package (the minified build) and the readable sources in js/, in Node.
export async function identity(bloomcuckoo) {
  await bloomcuckoo.init();
  const message = (fn) => {
    try { fn(); return 'no error'; } catch (err) { return `${err?.name} ${err?.code ?? ''} ${err?.message}`; }
  };
  const classes = Object.entries(bloomcuckoo)
    .filter(([, v]) => typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v)));
  const messages = {
    invalid: message(() => new bloomcuckoo.BloomFilter({ capacity: -1, errorRate: 0.01 })),
    badKey: message(() => { const f = new bloomcuckoo.BloomFilter({ bits: 1024, hashes: 3 }); try { f.add(new Map()); } finally { f.free(); } }),
  };
  for (const [name, make] of Object.entries(FACTORIES)) {
    const f = make(bloomcuckoo[name]);
    f.free();
    messages[name] = message(() => f.has('x'));
  }
  return { classes: classes.map(([k, v]) => `${k}:${v.name}`).sort(), messages };
}
