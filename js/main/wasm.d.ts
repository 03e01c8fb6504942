// Types of the `bloomcuckoo/bloomcuckoo.wasm` subpath: the compiled module, as runtimes that import
// .wasm files as modules give it (Cloudflare workerd, wrangler). Pass it to `init({ module })`.
/** bloomcuckoo's WebAssembly module, compiled by the runtime: pass it to `init({ module })`. */
declare const bloomcuckooWasm: WebAssembly.Module;
export default bloomcuckooWasm;
