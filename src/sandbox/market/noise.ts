/**
 * Deterministic noise: every figure of the sandbox market is a pure function of (seed, time), so any
 * instant can be computed directly, in any order, with the same answer every time.
 */

/** A 32-bit integer hash of two integers (a murmur3-style finaliser; fast and well mixed). */
function hash2(seed: number, n: number): number {
  let h =
    Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(n | 0, 0xc2b2ae35) ^ Math.floor(n / 4294967296);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Uniform in [0, 1). */
export function unit(seed: number, n: number): number {
  return hash2(seed, n) / 4294967296;
}

/** Uniform in [-1, 1). */
function signed(seed: number, n: number): number {
  return hash2(seed, n) / 2147483648 - 1;
}

/** A seed from a string, so assets and currencies get stable, distinct noise. */
export function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * Value noise: a random value at each multiple of `scale` seconds, joined by a smoothstep curve so
 * that prices move continuously between knots. Result in [-1, 1].
 */
export function valueNoise(seed: number, t: number, scale: number): number {
  const x = t / scale;
  const i = Math.floor(x);
  const f = x - i;
  const a = signed(seed, i);
  const b = signed(seed, i + 1);
  return a + (b - a) * f * f * (3 - 2 * f);
}

/** One layer of a fractal noise: its knot spacing in seconds and its amplitude. */
export interface Octave {
  scale: number;
  amplitude: number;
}

/** Sum of value-noise octaves, each with its own seed derived from `seed`. */
export function fractal(seed: number, t: number, octaves: readonly Octave[]): number {
  let sum = 0;
  for (let k = 0; k < octaves.length; k++) {
    const o = octaves[k]!;
    sum += o.amplitude * valueNoise(seed + k * 7919, t, o.scale);
  }
  return sum;
}
