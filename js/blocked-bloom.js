// BlockedBloomFilter: split-block Bloom filter (Parquet layout): each key sets one bit in each
// of the eight 32-bit words of one 256-bit block; wasm SIMD inside.
import { BloomBase, bloomSizing } from './bloom.js';
import { Filter, makeCore } from './filter.js';
import { initError, integerIn } from './options.js';

export class BlockedBloomFilter extends BloomBase {
  /** @param options { capacity, errorRate } (sized by the split-block model) or { blocks }; optional seed. */
  constructor(options) {
    const { o, seed } = bloomSizing('BlockedBloomFilter', options, ['blocks'], (d) => {
      integerIn('blocks', d.blocks, 1, 2 ** 32 - 1);
    });
    super(makeCore('BlockedBloomFilterCore', (core) => {
      const status = core.init(o.capacity ?? 0, o.errorRate ?? 0, o.blocks ?? 0, seed);
      if (status !== 0) throw initError('BlockedBloomFilter', status, o);
    }));
  }

  /** Reads a BlockedBloomFilter from serialize() bytes; another kind is INVALID_ARGUMENT. */
  static deserialize(bytes) {
    return Filter._deserializeAs(BlockedBloomFilter, 'BlockedBloomFilterCore', bytes);
  }

  info() {
    const c = this._core;
    return this._bloomInfo('blocked', { blocks: c.blocks(), bits: c.bits() });
  }
}
