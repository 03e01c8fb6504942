// `npm start` (after scripts/setup.sh): builds the playground and serves it on 127.0.0.1, the wasm,
// JS and CSS brotli- or gzip-compressed (the preview plugin in demo/vite.config.js; checked by tests/e2e/serve.mjs).
import { build, preview } from 'vite';

const root = new URL('../demo/', import.meta.url).pathname;
const port = Number(process.env.PORT ?? 5173);
await build({ root, configFile: `${root}vite.config.js`, logLevel: 'warn' });
const server = await preview({ root, configFile: `${root}vite.config.js`, preview: { host: '127.0.0.1', port, strictPort: false } });
console.log(`bloomcuckoo playground: ${server.resolvedUrls.local[0]}`);
