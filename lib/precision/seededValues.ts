/**
 * Seeded test data for the figures, the in-browser check and the benchmark:
 * the same seed gives the same values in Node and in the browser.
 */
import { round } from "./round.js";
import { mulberry32 } from "../random.js";

/**
 * n values uniform on [lo, hi), each rounded to `format` (default fp32).
 * @param n count, integer ≥ 0
 * @param seed generator seed
 * @param lo lower bound
 * @param hi upper bound
 * @param format the format the values are rounded to
 * @returns (n,) Float32Array
 * @throws {RangeError} `n must be an integer >= 0, got -1`
 * @example uniformValues(3, 1, 0, 1, "fp16").length // 3
 * @see lib/random.ts mulberry32 (the generator); the page's section "Accumulation: why sums need more precision than storage" (src/precision.md)
 */
export function uniformValues(n: number, seed: number, lo = 0, hi = 1, format = "fp32"): Float32Array {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be an integer >= 0, got ${n}`);
  const rand = mulberry32(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = round(format, lo + (hi - lo) * rand());
  return out;
}

/**
 * n float32 values spread over many magnitudes: sign random, magnitude
 * 2^e with e a uniform integer in [minLog2, maxLog2), mantissa uniform;
 * every 16th value has an 11-bit significand 1 + k/2048, an exact tie for
 * fp16/tf32 when k is odd (and for bf16 when k ≡ 8 mod 16), to exercise
 * round-half-even.
 * @param n count
 * @param seed generator seed
 * @param minLog2 smallest binade
 * @param maxLog2 largest binade (exclusive)
 * @returns (n,) Float32Array
 * @example logUniformValues(4, 7, -30, 20).length // 4
 * @throws {RangeError} `n must be an integer >= 0, got -1`
 * @see lib/random.ts mulberry32 (the generator); IEEE 754-2008 §4.3.1 (the ties it exercises); the page's section "The quantize kernel, checked in your browser" (src/precision.md)
 */
export function logUniformValues(n: number, seed: number, minLog2: number, maxLog2: number): Float32Array {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be an integer >= 0, got ${n}`);
  const rand = mulberry32(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const sign = rand() < 0.5 ? -1 : 1;
    const e = Math.floor(minLog2 + (maxLog2 - minLog2) * rand());
    if (i % 16 === 15) {
      const k = Math.floor(rand() * 2048);
      out[i] = sign * (1 + k / 2048) * 2 ** e;
    } else {
      out[i] = sign * (1 + rand()) * 2 ** e;
    }
  }
  return out;
}
