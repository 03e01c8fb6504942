// Compiled with lib es2022 only (no DOM, no @types/node): the declarations must not need either.
import { init, getWasmModule, BloomFilter, type InitOptions } from 'bloomcuckoo';

export async function bare(): Promise<boolean> {
  const options: InitOptions = { url: 'bloomcuckoo.wasm' };
  await init(options);
  await init({ module: getWasmModule() });
  using f = new BloomFilter({ capacity: 100, errorRate: 0.01 });
  f.add('x');
  return f.has('x');
}
