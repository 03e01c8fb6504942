// Deterministic sample URLs for the blacklist checker (also imported by the e2e test in Node).

/** A small deterministic generator (xorshift32), so the sample list is the same on every visit. */
function generator(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
}

const WORDS = ['login', 'secure', 'account', 'verify', 'update', 'bank', 'pay', 'wallet', 'prize', 'free',
  'support', 'mail', 'cloud', 'drive', 'shop', 'deal', 'bonus', 'auth', 'signin', 'reset'];
const TLDS = ['com', 'net', 'org', 'info', 'biz', 'xyz', 'top', 'click', 'online', 'site'];
const PATHS = ['', 'login', 'index.php', 'wp-admin', 'verify/account', 'download.exe', 'promo', 'session/renew'];

/** `count` distinct sample URLs, one per line. */
export function sampleUrls(count = 100_000, seed = 0x5eed) {
  const next = generator(seed);
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    const a = WORDS[next() % WORDS.length];
    const b = WORDS[next() % WORDS.length];
    const tld = TLDS[next() % TLDS.length];
    const path = PATHS[next() % PATHS.length];
    out[i] = `https://${a}-${b}-${(next() % 1e6).toString(36)}${i.toString(36)}.${tld}/${path}`;
  }
  return out;
}

/**
 * `count` URLs to check against the sample list, as a browser would meet them: every fourth is on
 * the list (its first count / 4 URLs), the others are different sites.
 */
export function visitUrls(count) {
  const listed = sampleUrls(Math.ceil(count / 4));
  const others = sampleUrls(count, 0x0ff51de);
  for (let i = 0; i < count; i += 4) others[i] = listed[i / 4];
  return others;
}
