import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { gaussian, mulberry32, randomInt } from "./random.js";

describe("mulberry32", () => {
  it("mulberry32(seed) matches the reference C code, transcribed with BigInt arithmetic mod 2^32", () => {
    // uint32_t z = (x += 0x6D2B79F5); z = (z ^ z >> 15) * (z | 1); z ^= z + (z ^ z >> 7) * (z | 61); return z ^ z >> 14;
    const M = 2n ** 32n;
    for (const seed of [0, 1, 42, 123456789]) {
      let x = BigInt(seed) % M;
      const r = mulberry32(seed);
      for (let i = 0; i < 5; i++) {
        x = (x + 0x6d2b79f5n) % M;
        let z = x;
        z = ((z ^ (z >> 15n)) * (z | 1n)) % M;
        z = (z ^ ((z + ((z ^ (z >> 7n)) * (z | 61n))) % M)) % M;
        z = z ^ (z >> 14n);
        expect(r()).toBe(Number(z) / 2 ** 32);
      }
    }
  });
  it("mulberry32(seed) repeats its sequence for the same seed and differs for another", () => {
    const a = mulberry32(7), b = mulberry32(7), c = mulberry32(8);
    const xa = [a(), a(), a()], xb = [b(), b(), b()], xc = [c(), c(), c()];
    expect(xa).toEqual(xb);
    expect(xa).not.toEqual(xc);
  });
  it("mulberry32 rejects a non-integer seed", () => {
    expect(() => mulberry32(1.5)).toThrow(/seed must be a finite integer, got 1.5/);
  });
  it("mulberry32(seed)() is always in [0, 1)", () => {
    fc.assert(fc.property(fc.integer(), (s) => { const r = mulberry32(s); for (let i = 0; i < 20; i++) { const x = r(); if (!(x >= 0 && x < 1)) return false; } return true; }), { seed: 1, numRuns: 200 });
  });
  it("gaussian(rng) has mean ≈ 0 and variance ≈ 1 over 20,000 samples", () => {
    const r = mulberry32(3); let s = 0, s2 = 0; const n = 20000;
    for (let i = 0; i < n; i++) { const x = gaussian(r); s += x; s2 += x * x; }
    expect(Math.abs(s / n)).toBeLessThan(0.03); // 4 standard errors (1/√n = 0.007)
    expect(Math.abs(s2 / n - 1)).toBeLessThan(0.05);
  });
  it("randomInt(rng, n) returns integers in [0, n) and rejects n < 1", () => {
    const r = mulberry32(5);
    for (let i = 0; i < 100; i++) { const k = randomInt(r, 3); expect([0, 1, 2]).toContain(k); }
    expect(() => randomInt(r, 0)).toThrow(/n must be an integer >= 1, got 0/);
  });
});
