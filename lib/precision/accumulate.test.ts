import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { accumulate } from "./accumulate.js";
import { accumulateReference } from "./accumulateReference.js";
import { round } from "./round.js";

describe("accumulate(values, lengths, accumulator) and accumulateReference", () => {
  it("adding 1 to an fp16 accumulator stagnates at 2048 (ulp(2048) = 2: 2048 + 1 is a tie, even is 2048); bf16 stops at 256", () => {
    const ones = new Float32Array(5000).fill(1);
    const lengths = [0, 1, 1000, 2048, 2049, 5000];
    expect(Array.from(accumulateReference(ones, lengths, "fp16"))).toEqual([0, 1, 1000, 2048, 2048, 2048]);
    expect(Array.from(accumulateReference(ones, lengths, "bf16"))).toEqual([0, 1, 256, 256, 256, 256]);
    expect(Array.from(accumulateReference(ones, lengths, "fp32"))).toEqual(lengths);
    for (const mode of [undefined, "cpu"]) {
      expect(Array.from(accumulate(ones, lengths, "fp16", { mode }))).toEqual([0, 1, 1000, 2048, 2048, 2048]);
      expect(Array.from(accumulate(ones, lengths, "fp32", { mode }))).toEqual(lengths);
    }
  });

  it("accumulateReference with an fp32 accumulator equals a Math.fround running sum", () => {
    fc.assert(fc.property(fc.array(fc.float({ min: -1e6, max: 1e6, noNaN: true }), { maxLength: 200 }), (xs) => {
      const values = Float32Array.from(xs);
      let acc = 0;
      for (const x of values) acc = Math.fround(acc + x);
      expect(accumulateReference(values, [values.length], "fp32")[0]).toBe(acc);
    }), { seed: 13, numRuns: 200 });
  });

  it("accumulate equals accumulateReference bit for bit on fp16-valued inputs, every accumulator, default backend and mode 'cpu'", () => {
    const values = Float32Array.from(fc.sample(fc.float({ min: -4, max: 4, noNaN: true }), { numRuns: 8192, seed: 17 }), (x) => round("fp16", x));
    const uniform = Float32Array.from(fc.sample(fc.float({ min: 0, max: 1, noNaN: true }), { numRuns: 8192, seed: 19 }), (x) => round("fp16", x));
    const lengths = [0, 1, 2, 3, 10, 100, 777, 1024, 4096, 8192];
    for (const xs of [values, uniform]) {
      for (const acc of ["fp16", "bf16", "fp32"] as const) {
        const want = accumulateReference(xs, lengths, acc);
        for (const mode of [undefined, "cpu"]) {
          expect({ acc, mode, got: Array.from(accumulate(xs, lengths, acc, { mode })) }).toEqual({ acc, mode, got: Array.from(want) });
        }
      }
    }
  });

  it("an fp16 accumulator loses far more than an fp32 one on a long sum of uniform [0, 1) values (it stops at 2048)", () => {
    const xs = Float32Array.from(fc.sample(fc.integer({ min: 0, max: 1023 }), { numRuns: 8192, seed: 23 }), (k) => k / 1024); // uniform on [0, 1), fp16 values
    let exact = 0;
    for (const x of xs) exact += x; // float64: exact for these 8192 fp16 values
    const [h] = accumulateReference(xs, [8192], "fp16");
    const [s] = accumulateReference(xs, [8192], "fp32");
    expect(exact).toBeGreaterThan(3500);
    expect(h).toBeLessThanOrEqual(2048); // once acc ≥ 2048, ulp = 2 and every x < 1 rounds away
    expect(Math.abs(s - exact) / exact).toBeLessThan(1e-5);
    expect(Math.abs(h - exact) / exact).toBeGreaterThan(0.4);
  });

  it("accumulate and accumulateReference reject bad arguments, naming the field", () => {
    const xs = new Float32Array(4);
    expect(() => accumulateReference(xs, [5], "fp16")).toThrow("lengths must hold integers in [0, 4] (values.length), got 5");
    expect(() => accumulateReference(xs, [1.5], "fp16")).toThrow(RangeError);
    expect(() => accumulate(xs, [1], "fp8-e4m3" as "fp16")).toThrow('accumulator must be one of fp32, fp16, bf16, got "fp8-e4m3"');
    expect(() => accumulate([1] as unknown as Float32Array, [1], "fp16")).toThrow(/values must be a Float32Array/);
    expect(accumulate(xs, [], "fp16").length).toBe(0);
  });
});
