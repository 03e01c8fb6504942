import { readFileSync, statSync } from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig } from 'vite';

const root = new URL('.', import.meta.url).pathname;

// What the preview server (`npm start`, the e2e test) sends compressed, and as what type.
const TYPES = { '.wasm': 'application/wasm', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/**
 * `vite preview` sends files as they are: the wasm went out as 116 KB, not the 44.6 KB it is
 * gzipped. This serves the built wasm, JS and CSS brotli- or gzip-compressed to a browser that
 * accepts it (each file compressed once, then kept), with `Vary: Accept-Encoding`; anything else,
 * and a client that accepts neither, falls through to Vite's own static server.
 */
function compressedPreview() {
  const cache = new Map();   // path → { mtime, br, gzip }
  return {
    name: 'bloomcuckoo-compressed-preview',
    configurePreviewServer(server) {
      const outDir = resolve(root, server.config.build.outDir);
      server.middlewares.use((req, res, next) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return next();
        const path = decodeURIComponent((req.url ?? '').split(/[?#]/)[0]);
        const ext = Object.keys(TYPES).find((e) => path.endsWith(e));
        const accept = String(req.headers['accept-encoding'] ?? '');
        const encoding = /\bbr\b/.test(accept) ? 'br' : /\bgzip\b/.test(accept) ? 'gzip' : null;
        if (!ext || !encoding) return next();
        const file = normalize(join(outDir, path));
        if (!file.startsWith(outDir + sep)) return next();
        let st;
        try { st = statSync(file); } catch { return next(); }
        if (!st.isFile()) return next();
        let entry = cache.get(file);
        if (!entry || entry.mtime !== st.mtimeMs) {
          const raw = readFileSync(file);
          entry = {
            mtime: st.mtimeMs,
            br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
            gzip: gzipSync(raw, { level: 9 }),
          };
          cache.set(file, entry);
        }
        const body = entry[encoding];
        res.statusCode = 200;
        res.setHeader('Content-Type', TYPES[ext]);
        res.setHeader('Content-Encoding', encoding);
        res.setHeader('Vary', 'Accept-Encoding');
        res.setHeader('Content-Length', String(body.length));
        res.setHeader('Cache-Control', 'no-cache');
        res.end(req.method === 'HEAD' ? undefined : body);
        return undefined;
      });
    },
  };
}

export default defineConfig({
  root,
  base: './',
  worker: { format: 'es' },
  server: { fs: { allow: ['..'] } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  plugins: [compressedPreview()],
});
