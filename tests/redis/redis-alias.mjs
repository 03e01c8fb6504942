// For running the CLI (bin/) with a given node-redis release: `node --import <this file> bin/...`
// with BLOOMCUCKOO_TEST_REDIS=redis4 (or redis5, redis) makes the CLI's import('redis') load that
// aliased devDependency instead, so tests/js/redis-clients.test.js runs `redis pull|push` on every
// major. Test-only: nothing in bin/ or js/ knows of it.
import { register } from 'node:module';

const alias = process.env.BLOOMCUCKOO_TEST_REDIS;
if (alias && alias !== 'redis') {
  const hooks = `export async function resolve(specifier, context, next) {
  return next(specifier === 'redis' ? ${JSON.stringify(alias)} : specifier, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, import.meta.url);
}
