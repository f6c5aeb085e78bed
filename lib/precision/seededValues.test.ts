import { describe, expect, it } from "vitest";
import { uniformValues, logUniformValues } from "./seededValues.js";
import { mulberry32 } from "../random.js";
import { isRepresentable } from "./round.js";

describe("seeded values", () => {
  it("mulberry32(seed) is deterministic and uniform on [0, 1) (mean of 100,000 draws within 0.005 of 1/2)", () => {
    const a = mulberry32(42), b = mulberry32(42);
    let sum = 0, differ = 0, outside = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = a();
      if (x !== b()) differ++;
      if (!(x >= 0 && x < 1)) outside++;
      sum += x;
    }
    expect({ differ, outside }).toEqual({ differ: 0, outside: 0 });
    expect(Math.abs(sum / 100_000 - 0.5)).toBeLessThan(0.005);
  });

  it("uniformValues(n, seed, lo, hi, 'fp16') gives fp16 values in [lo, hi]", () => {
    const xs = uniformValues(1000, 3, -2, 2, "fp16");
    expect(xs.length).toBe(1000);
    for (const x of xs) {
      expect(isRepresentable("fp16", x)).toBe(true);
      expect(x >= -2 && x <= 2).toBe(true);
    }
    expect(() => uniformValues(-1, 1)).toThrow("n must be an integer >= 0, got -1");
  });

  it("logUniformValues spans its binades and includes exact fp16 ties", () => {
    const xs = logUniformValues(16_000, 5, -20, 10);
    const binades = new Set(Array.from(xs, (x) => Math.floor(Math.log2(Math.abs(x)))));
    expect(Math.min(...binades)).toBe(-20);
    expect(Math.max(...binades)).toBe(9);
    const isFp16Tie = (x: number) => {
      const e = Math.floor(Math.log2(Math.abs(x)));
      const units = Math.abs(x) / 2 ** (e - 11); // significand in units of half an fp16 ulp (normal binades)
      return e >= -14 && Number.isInteger(units) && units % 2 === 1;
    };
    const ties = Array.from(xs).filter(isFp16Tie);
    expect(ties.length).toBeGreaterThan(100);
  });
});
