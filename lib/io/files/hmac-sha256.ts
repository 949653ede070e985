/**
 * HMAC-SHA256 (RFC 2104 over FIPS 180-4's SHA-256) in plain JavaScript, for the MACs of
 * directory-key.ts: loading node:crypto costs a start ~20 M instructions, a fifth of what Node
 * itself costs, where hashing a revive marker or a config of a few hundred bytes here costs a
 * fraction of one. `deadman status` checks every marker's MAC (issue 36.1). The same answers
 * as node:crypto, byte for byte: test/io/files/hmac-sha256.test.ts.
 */

const BLOCK_BYTES = 64;

/** The first 64 (or 8) primes. */
function primes(count: number): number[] {
  const found: number[] = [];
  for (let n = 2; found.length < count; n++) if (found.every((p) => n % p !== 0)) found.push(n);
  return found;
}

/** The first 32 bits of a number's fractional part: the standard's constants, computed as it defines them. */
const fraction32 = (x: number) => Math.floor((x - Math.floor(x)) * 2 ** 32) >>> 0;

/** Round constants: the cube roots of the first 64 primes. */
const K = Uint32Array.from(primes(64), (p) => fraction32(Math.cbrt(p)));
/** Initial hash value: the square roots of the first 8 primes. */
const INITIAL = Uint32Array.from(primes(8), (p) => fraction32(Math.sqrt(p)));

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

export function sha256(message: Uint8Array): Uint8Array {
  const blocks = Math.ceil((message.length + 9) / BLOCK_BYTES);
  const padded = new Uint8Array(blocks * BLOCK_BYTES);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  // The message's length in bits, a 64-bit big-endian number.
  view.setUint32(padded.length - 8, Math.floor(message.length / 2 ** 29));
  view.setUint32(padded.length - 4, (message.length * 8) >>> 0);
  const hash = INITIAL.slice();
  const w = new Uint32Array(64);
  for (let offset = 0; offset < padded.length; offset += BLOCK_BYTES) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      w[i] = w[i - 16]! + (rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)) + w[i - 7]! + (rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10));
    }
    compress(hash, w);
  }
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  hash.forEach((word, i) => out.setUint32(i * 4, word));
  return digest;
}

/** One block's 64 rounds over its message schedule `w`, added into `hash` (a Uint32Array wraps each sum). */
function compress(hash: Uint32Array, w: Uint32Array): void {
  let [a, b, c, d, e, f, g, h] = [hash[0]!, hash[1]!, hash[2]!, hash[3]!, hash[4]!, hash[5]!, hash[6]!, hash[7]!];
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  [a, b, c, d, e, f, g, h].forEach((word, i) => (hash[i] = hash[i]! + word));
}

export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  const block = new Uint8Array(BLOCK_BYTES);
  block.set(key.length > BLOCK_BYTES ? sha256(key) : key);
  const padWith = (byte: number, tail: Uint8Array) => {
    const padded = new Uint8Array(BLOCK_BYTES + tail.length);
    block.forEach((k, i) => (padded[i] = k ^ byte));
    padded.set(tail, BLOCK_BYTES);
    return padded;
  };
  return sha256(padWith(0x5c, sha256(padWith(0x36, message))));
}

/** Whether two MACs are equal, in a time that does not depend on where they differ. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
