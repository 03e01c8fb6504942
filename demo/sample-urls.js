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
