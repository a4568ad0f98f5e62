/**
 * Little-endian byte writer and reader for snapshots and replays, and the 64-bit state hash.
 *
 * The hash: two 32-bit lanes of a multiply–rotate mix (Murmur3's constants) over 32-bit words,
 * so it is the same on every JavaScript engine (integer arithmetic only: Math.imul and shifts) and
 * fast (no BigInt). Doubles are hashed by their exact bits, so −0 and 0 differ and every NaN
 * payload counts: the hash says "bit-identical", nothing weaker.
 */

/** A growable little-endian byte buffer. */
export class ByteWriter {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.length + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.reserve(1);
    this.view.setUint8(this.length, v);
    this.length += 1;
  }
  u32(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, v >>> 0, true);
    this.length += 4;
  }
  i32(v: number): void {
    this.reserve(4);
    this.view.setInt32(this.length, v | 0, true);
    this.length += 4;
  }
  f64(v: number): void {
    this.reserve(8);
    this.view.setFloat64(this.length, v, true);
    this.length += 8;
  }
  /** A string as its UTF-16 code units (u16 each) with their count (u32) in front (no TextEncoder: not in every engine). */
  str(s: string): void {
    this.u32(s.length);
    this.reserve(2 * s.length);
    for (let i = 0; i < s.length; i++) this.view.setUint16(this.length + 2 * i, s.charCodeAt(i), true);
    this.length += 2 * s.length;
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  /** n entries of a typed array, element by element (little-endian whatever the platform). */
  f64s(a: ArrayLike<number>, n = a.length): void {
    this.reserve(8 * n);
    for (let i = 0; i < n; i++) this.view.setFloat64(this.length + 8 * i, a[i]!, true);
    this.length += 8 * n;
  }
  i32s(a: ArrayLike<number>, n = a.length): void {
    this.reserve(4 * n);
    for (let i = 0; i < n; i++) this.view.setInt32(this.length + 4 * i, a[i]! | 0, true);
    this.length += 4 * n;
  }
  u8s(a: ArrayLike<number>, n = a.length): void {
    this.reserve(n);
    for (let i = 0; i < n; i++) this.buf[this.length + i] = a[i]!;
    this.length += n;
  }
  /** A typed array with its length (u32) in front. */
  f64Array(a: Float64Array): void {
    this.u32(a.length);
    this.f64s(a);
  }
  i32Array(a: Int32Array): void {
    this.u32(a.length);
    this.i32s(a);
  }
  /** Overwrite a u32 written earlier (lengths and checksums). */
  patchU32(at: number, v: number): void {
    this.view.setUint32(at, v >>> 0, true);
  }
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** Thrown by ByteReader when the bytes end early or hold an impossible value. */
export class ByteFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ByteFormatError';
  }
}

/** Reads what ByteWriter wrote; every read checks the remaining length. */
export class ByteReader {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  pos = 0;

  constructor(bytes: Uint8Array, start = 0) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = start;
  }

  get remaining(): number {
    return this.bytes.byteLength - this.pos;
  }
  private need(n: number, what: string): void {
    if (!(n >= 0) || this.pos + n > this.bytes.byteLength) {
      throw new ByteFormatError(`truncated at byte ${this.pos}: ${what} needs ${n} bytes, ${this.remaining} left`);
    }
  }
  u8(what = 'a byte'): number {
    this.need(1, what);
    return this.view.getUint8(this.pos++);
  }
  u32(what = 'a u32'): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  i32(what = 'an i32'): number {
    this.need(4, what);
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }
  f64(what = 'a f64'): number {
    this.need(8, what);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }
  str(what = 'a string'): string {
    const n = this.u32(`${what} length`);
    this.need(2 * n, what);
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(this.view.getUint16(this.pos + 2 * i, true));
    this.pos += 2 * n;
    return s;
  }
  /** A count that must be at most `max` (guards allocations from corrupted lengths). */
  count(max: number, what: string): number {
    const n = this.u32(what);
    if (n > max) throw new ByteFormatError(`${what} is ${n}, more than the ${max} the rest of the data can hold`);
    return n;
  }
  /** What ByteWriter.f64Array / i32Array wrote (the length checked against what is left). */
  f64Array(what: string): Float64Array {
    const n = this.count(this.remaining / 8, `${what} length`);
    const a = new Float64Array(n);
    this.f64s(a, n, what);
    return a;
  }
  i32Array(what: string): Int32Array {
    const n = this.count(this.remaining / 4, `${what} length`);
    const a = new Int32Array(n);
    this.i32s(a, n, what);
    return a;
  }
  f64s(out: Float64Array, n: number, what: string): void {
    this.need(8 * n, what);
    for (let i = 0; i < n; i++) out[i] = this.view.getFloat64(this.pos + 8 * i, true);
    this.pos += 8 * n;
  }
  i32s(out: Int32Array, n: number, what: string): void {
    this.need(4 * n, what);
    for (let i = 0; i < n; i++) out[i] = this.view.getInt32(this.pos + 4 * i, true);
    this.pos += 4 * n;
  }
  u8s(out: Uint8Array, n: number, what: string): void {
    this.need(n, what);
    out.set(this.bytes.subarray(this.pos, this.pos + n));
    this.pos += n;
  }
}

// ---- 64-bit hash ------------------------------------------------------------------------------

const C1 = 0xcc9e2d51, C2 = 0x1b873593;

/** A running 64-bit hash (two 32-bit lanes); feed words, bytes or doubles' bits, read hex(). */
export class Hash64 {
  private h1 = 0x9747b28c;
  private h2 = 0x2545f491;
  private n = 0;
  private readonly f = new Float64Array(1);
  private readonly w = new Uint32Array(this.f.buffer);

  /** Mix one 32-bit word into both lanes (different rotations, so the lanes are independent). */
  word(k: number): void {
    let a = Math.imul(k | 0, C1);
    a = (a << 15) | (a >>> 17);
    a = Math.imul(a, C2);
    let h1 = this.h1 ^ a;
    h1 = (h1 << 13) | (h1 >>> 19);
    this.h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
    let b = Math.imul(k ^ 0x5bd1e995, C2);
    b = (b << 17) | (b >>> 15);
    b = Math.imul(b, C1);
    let h2 = this.h2 ^ b;
    h2 = (h2 << 19) | (h2 >>> 13);
    this.h2 = (Math.imul(h2, 5) + 0x561ccd1b) | 0;
    this.n++;
  }
  /** The exact bits of a double (low word first, whatever the platform's byte order). */
  f64(v: number): void {
    this.f[0] = v;
    // Float64Array and Uint32Array share the platform's byte order: word 0 is the low half on
    // little-endian machines (every JavaScript engine we run on); swap on big-endian ones
    if (LITTLE_ENDIAN) {
      this.word(this.w[0]!);
      this.word(this.w[1]!);
    } else {
      this.word(this.w[1]!);
      this.word(this.w[0]!);
    }
  }
  f64s(a: ArrayLike<number>, n = a.length): void {
    for (let i = 0; i < n; i++) this.f64(a[i]!);
  }
  i32s(a: ArrayLike<number>, n = a.length): void {
    for (let i = 0; i < n; i++) this.word(a[i]!);
  }
  bytes(b: Uint8Array): void {
    let i = 0;
    for (; i + 4 <= b.length; i += 4) this.word(b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24));
    let k = 0;
    for (let s = 0; i < b.length; i++, s += 8) k |= b[i]! << s;
    this.word(k ^ b.length);
  }
  /** 16 hex digits (the lanes finalized with Murmur3's fmix, each with the word count). */
  hex(): string {
    return hex32(fmix(this.h1 ^ this.n)) + hex32(fmix(this.h2 ^ Math.imul(this.n, 0x27d4eb2d)));
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hex32(v: number): string {
  return (v >>> 0).toString(16).padStart(8, '0');
}

/** The 64-bit hash of a byte array (snapshot checksums). */
export function hashBytes(b: Uint8Array): string {
  const h = new Hash64();
  h.bytes(b);
  return h.hex();
}
