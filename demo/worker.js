// The playground's Web Worker: receives the compiled wasm module and a filter's bytes
// (transferred), deserializes them and answers checks. Every failure is answered, never thrown.
import { BinaryFuseFilter, deserialize, init } from './lib.js';
import { visitUrls } from './sample-urls.js';

let filter = null;
let fuse = null;   // a binary fuse filter being staged for the builder: its builder, fed in chunks


function reply(id, body, transfer = []) {
  self.postMessage({ id, ...body }, transfer);
}

self.onmessage = async ({ data: msg }) => {
  const { id } = msg;
  try {
    switch (msg.type) {
      case 'load': {
        await init({ module: msg.module });
        const t0 = performance.now();
        const next = deserialize(msg.bytes);
        filter?.free();
        filter = next;
        reply(id, { info: filter.info(), size: filter.size, received: msg.bytes.byteLength, deserializeMs: performance.now() - t0 });
        break;
      }
      case 'has':
        if (!filter) throw new Error('the worker holds no filter yet');
        reply(id, { answer: filter.has(msg.key) });
        break;
      case 'hasAll': {
        if (!filter) throw new Error('the worker holds no filter yet');
        const answers = filter.hasAll(msg.keys);
        reply(id, { answers }, [answers.buffer]);
        break;
      }
      case 'visit': {
        // the big check of the page's "why a worker": the URLs are made here, as on the main thread,
        // before the clock starts: the time is the check's alone
        if (!filter) throw new Error('the worker holds no filter yet');
        const urls = visitUrls(msg.count);
        const t0 = performance.now();
        const answers = filter.hasAll(urls);
        let present = 0;
        for (const a of answers) present += a;
        reply(id, { present, ms: performance.now() - t0 });
        break;
      }
      // the builder's "Add random" for a fuse filter: the keys arrive in chunks (each a short
      // structured clone on the page's side), the solve (peeling) runs here, the bytes go back
      case 'fuse-begin': {
        await init({ module: msg.module });
        fuse?.free();
        fuse = null;
        fuse = BinaryFuseFilter.builder(msg.options);
        if (msg.reserve > 0) fuse.reserve(msg.reserve);
        reply(id, {});
        break;
      }
      case 'fuse-keys':
        if (!fuse) throw new Error('no fuse build in progress');
        fuse.addAll(msg.keys);
        reply(id, {});
        break;
      case 'fuse-build': {
        if (!fuse) throw new Error('no fuse build in progress');
        const t0 = performance.now();
        let built = null;
        try {
          built = fuse.build();
        } finally {
          fuse.free();
          fuse = null;
        }
        const bytes = built.serialize();
        const size = built.size;
        built.free();
        reply(id, { bytes, size, ms: performance.now() - t0 }, [bytes]);
        break;
      }
      default:
        throw new Error(`unknown request ${JSON.stringify(msg.type)}`);
    }
  } catch (err) {
    reply(id, { error: { code: err?.code, name: err?.name, message: err?.message ?? String(err) } });
  }
};
