// BlockedBloomFilter: split-block Bloom filter (Parquet layout): each key sets one bit in each
// of the eight 32-bit words of one 256-bit block; wasm SIMD inside.
import { BloomBase, bloomSizing, optimalShapeOf } from './bloom.js';
import { Filter, makeCore } from './filter.js';
import { integerIn } from './options.js';
import { throwIfError } from './loader.js';

export class BlockedBloomFilter extends BloomBase {
  /** @param options { capacity, errorRate } (sized by the split-block model) or { blocks }; optional seed. */
  constructor(options) {
    const { o, seed } = bloomSizing('BlockedBloomFilter', options, ['blocks'], (d) => {
      integerIn('blocks', d.blocks, 1, 2 ** 32 - 1);
    });
    super(makeCore('BlockedBloomFilterCore', (core) => throwIfError(core.init(o.capacity ?? 0, o.errorRate ?? 0, o.blocks ?? 0, seed), 'BlockedBloomFilter', o)));
  }

  /**
   * The shape `new BlockedBloomFilter({ capacity, errorRate })` would have, without allocating
   * it: { blocks, bits, byteLength } (32 bytes per block). Same errors as the constructor.
   */
  static optimalShape(options) {
    return optimalShapeOf('BlockedBloomFilter', options, 'blockedShape',
      ([blocks]) => ({ blocks, bits: blocks * 256, byteLength: blocks * 32 }));
  }

  /** Reads a BlockedBloomFilter from serialize() bytes; another kind is INVALID_ARGUMENT. */
  static deserialize(bytes) {
    return Filter._deserializeAs(BlockedBloomFilter, 'BlockedBloomFilterCore', bytes);
  }

  info() {
    return this._bloomInfo('blocked', 'blocks');
  }
}
