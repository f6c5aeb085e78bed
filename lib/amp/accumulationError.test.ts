import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { accumulationError } from "./accumulationError.js";

describe("accumulationError", () => {
  it("accumulationError: fp16 accumulation error grows with K, fp32 accumulation stays near fp16's output rounding", () => {
    const [small, large] = accumulationError([16, 4096], { trials: 4 });
    expect(large!.lowAccumulate).toBeGreaterThan(10 * large!.fp32Accumulate);
    expect(large!.lowAccumulate).toBeGreaterThan(small!.lowAccumulate);
    expect(large!.fp32Accumulate).toBeLessThan(2 ** -11); // one fp16 rounding of the result
  });

  it("accumulationError with fp16 inputs: the fp16 accumulator stagnates once the sum passes 2048 (error above 5% at K = 16384)", () => {
    // Sums of K products of uniform [0,1) values grow like K/4: at K = 16384 the running sum reaches 2048 after ~8192 terms,
    // where the fp16 spacing is 2 and products below 1 round away; the relative error must then exceed a few percent.
    const [p] = accumulationError([16384], { trials: 2 });
    expect(p!.lowAccumulate).toBeGreaterThan(0.05);
  });

  it("accumulationError in bf16: both errors bounded, fp32 accumulation within one bf16 rounding (property over seeds)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), (seed) => {
        const [p] = accumulationError([256], { precision: "bf16", trials: 1, seed });
        expect(p!.fp32Accumulate).toBeLessThanOrEqual(2 ** -8);
        expect(p!.lowAccumulate).toBeGreaterThanOrEqual(0);
      }),
      { seed: 4, numRuns: 20 },
    );
  });

  it("accumulationError rejects K = 0 with matmul's message", () => {
    expect(() => accumulationError([0])).toThrow(/K must be an integer >= 1, got 0/);
  });
});
