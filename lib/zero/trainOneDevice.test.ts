import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { trainOneDevice } from "./trainOneDevice.js";
import { trainZero } from "./trainZero.js";

describe("trainOneDevice", () => {
  it("one rank, one micro-batch: the same weights as DDP on one rank in fp32, bit for bit", () => {
    expect(trainOneDevice({ numRanks: 1, steps: 2 })).toEqual(trainZero({ numRanks: 1, stage: 0, steps: 2, precision: "fp32" }).master);
  });

  it("property: only the global batch counts, P ranks × K micro-batches give the same weights for the same P·K", () => {
    fc.assert(fc.property(fc.constantFrom([1, 4], [2, 2], [4, 1]), ([P, K]) => {
      expect(trainOneDevice({ numRanks: P, gradAccumSteps: K, steps: 2 })).toEqual(trainOneDevice({ numRanks: 4, steps: 2 }));
    }), { numRuns: 3, seed: 1 });
  });

  it("a different global batch trains to different weights; bad K is refused", () => {
    expect(trainOneDevice({ numRanks: 2, steps: 1 })).not.toEqual(trainOneDevice({ numRanks: 3, steps: 1 }));
    expect(() => trainOneDevice({ numRanks: 2, gradAccumSteps: 0 })).toThrow("gradAccumSteps must be an integer >= 1, got 0");
  });
});
