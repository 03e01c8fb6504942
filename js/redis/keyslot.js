// Redis Cluster hash slots, computed as the server computes them (the Redis Cluster
// specification, "Keys distribution model"): CRC16/XMODEM (polynomial 0x1021, initial value 0,
// no reflection, no final xor) of the key's bytes, mod 16384. When the key has a hash tag, only
// the tag is hashed: the bytes between the first '{' and the first '}' after it, if there is at
// least one byte between them. An empty tag ('x{}y') or a '{' with no '}' after it means the whole
// key is hashed. Keys are bytes: a string is its UTF-8 encoding (as node-redis and ioredis send
// it), a Uint8Array (Buffer) is taken as it is.
// FilterError from the package's main entry, as js/redis/client.js does: the shipped redis.min.js
// imports that entry, so there is one FilterError class.
import { FilterError } from '../main/index.js';

/** The number of hash slots of a Redis Cluster. */
export const SLOTS = 16384;

const OPEN = 0x7b;    // '{'
const CLOSE = 0x7d;   // '}'

const TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let b = 0; b < 8; b++) c = c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1;
    t[i] = c & 0xffff;
  }
  return t;
})();

const encoder = new TextEncoder();

function bytesOf(key, what) {
  if (typeof key === 'string') return encoder.encode(key);
  if (key instanceof Uint8Array) return key;
  throw new FilterError('INVALID_ARGUMENT', `${what}: a key is a string or a Uint8Array (Buffer), got ${key === null ? 'null' : typeof key}`);
}

/** CRC16/XMODEM of bytes[start, end): the checksum Redis Cluster hashes keys with. */
export function crc16(bytes, start = 0, end = bytes.length) {
  let crc = 0;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ bytes[i]) & 0xff];
  return crc;
}

/** [start, end) of the bytes Redis hashes: the hash tag's when it has a non-empty one, else the whole key. */
function hashedRange(bytes) {
  const open = bytes.indexOf(OPEN);
  if (open >= 0) {
    const close = bytes.indexOf(CLOSE, open + 1);
    if (close > open + 1) return [open + 1, close];
  }
  return [0, bytes.length];
}

/** The bytes of `key` that Redis hashes (a view, not a copy): its non-empty hash tag, else all of it. */
export function hashedPart(key) {
  const bytes = bytesOf(key, 'hashedPart');
  const [start, end] = hashedRange(bytes);
  return bytes.subarray(start, end);
}

/** The hash slot of `key` (0..16383), as CLUSTER KEYSLOT answers. */
export function keySlot(key) {
  const bytes = bytesOf(key, 'keySlot');
  const [start, end] = hashedRange(bytes);
  return crc16(bytes, start, end) % SLOTS;
}

// Anchors: for each slot, the first string of 1 to 3 characters of [0-9A-Za-z] (shorter first, then
// in alphabet order) that hashes to it. Every slot has one (tests/js/redis-keyslot.test.js checks
// all 16384); none contains a brace, so '{anchor}' is always a non-empty hash tag.
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
let anchors = null;

/** The shortest, first [0-9A-Za-z]{1,3} string in slot `slot`: a hash tag that pins a key there. */
export function slotAnchor(slot) {
  if (!Number.isInteger(slot) || slot < 0 || slot >= SLOTS) {
    throw new FilterError('INVALID_ARGUMENT', `slotAnchor: a slot is an integer from 0 to ${SLOTS - 1}, got ${slot}`);
  }
  if (!anchors) {
    anchors = new Array(SLOTS).fill(null);
    const n = ALPHABET.length;
    const buf = new Uint8Array(3);
    for (let len = 1; len <= 3; len++) {
      for (let i = 0; i < n ** len; i++) {   // bounded: 62 + 62^2 + 62^3 strings
        for (let d = 0, v = i; d < len; d++, v = Math.floor(v / n)) buf[len - 1 - d] = ALPHABET.charCodeAt(v % n);
        const s = crc16(buf, 0, len) % SLOTS;
        if (anchors[s] === null) anchors[s] = String.fromCharCode(...buf.subarray(0, len));
      }
    }
  }
  const a = anchors[slot];
  if (a === null) throw new FilterError('INVALID_ARGUMENT', `slotAnchor: no anchor for slot ${slot}`);   // never: every slot is covered
  return a;
}

function join(parts, asBytes) {
  if (!asBytes) return parts.join('');
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? encoder.encode(p) : p)));
}

/**
 * The name of a key in the same hash slot as `key`, ending in `suffix` (e.g. the stream that logs
 * a filter's writes, which a Lua script or a MULTI must reach together with the filter key).
 * A string key and suffix give a string; a Uint8Array (Buffer) for either gives a Buffer. The rule, in order:
 * 1. `key` has a non-empty hash tag: `key + suffix` (the tag still comes first, so it is still
 *    what is hashed; `suffix` may contain anything);
 * 2. the whole key is hashed, it is not empty and contains no '}': `{key}suffix` (the first '{' is
 *    the added one and the first '}' after it is the added one, so the tag is exactly `key`);
 * 3. otherwise (an empty key, or a key hashed whole that contains a '}', such as 'x{}y' or
 *    'a}b'): `{A}key suffix` with A = slotAnchor(keySlot(key)), a tag of 1 to 3 letters or digits
 *    in the key's slot (wrapping as in 2 would end the tag at the key's own '}').
 * Rules 1 and 2 are the names the library has used since it had a log; 3 is new (the old rule
 * put 'x{}y' in slot 16116 and its log '{x{}y}:…' in slot 3596). Distinct keys get distinct
 * companions except, as with rule 2 since the start ('a' and '{a}' both give '{a}suffix'), where
 * one key is the other behind the tag this function adds: k and '{k}', k and '{A}k', '' and the
 * anchor of slot 0.
 */
export function companionKey(key, suffix) {
  const bytes = bytesOf(key, 'companionKey');
  const asBytes = typeof key !== 'string' || typeof suffix !== 'string';
  if (typeof suffix !== 'string' && !(suffix instanceof Uint8Array)) {
    throw new FilterError('INVALID_ARGUMENT', `companionKey: the suffix is a string or a Uint8Array, got ${typeof suffix}`);
  }
  const [start, end] = hashedRange(bytes);
  if (end - start < bytes.length) return join([key, suffix], asBytes);
  if (bytes.length > 0 && bytes.indexOf(CLOSE) < 0) return join(['{', key, '}', suffix], asBytes);
  return join(['{', slotAnchor(crc16(bytes) % SLOTS), '}', key, suffix], asBytes);
}
