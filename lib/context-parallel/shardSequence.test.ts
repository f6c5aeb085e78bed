import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { gatherSequence, shardSequence } from "./shardSequence.js";
import { sequenceShards, CP_LAYOUTS } from "./sequenceShards.js";
import { randomTensor } from "../flash-attention/randomTensor.js";

describe("shardSequence and gatherSequence", () => {
  it("shardSequence keeps the rows of the rank's positions, in their order (worked example)", () => {
    expect(shardSequence(Float32Array.of(10, 11, 12, 13), { B: 1, H: 1, N: 4, d: 1 }, [0, 3])).toEqual(Float32Array.of(10, 13));
    // (B, H, N, d) = (1, 2, 2, 2): head 1's rows are 4…7
    expect(shardSequence(Float32Array.of(0, 1, 2, 3, 4, 5, 6, 7), { B: 1, H: 2, N: 2, d: 2 }, [1])).toEqual(Float32Array.of(2, 3, 6, 7));
  });
  it("gatherSequence(shardSequence(x)) is x for every layout (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.constantFrom(...CP_LAYOUTS), fc.integer({ min: 0, max: 1e6 }), (C, B, d, layout, seed) => {
      const dims = { B, H: 2, N: 4 * C, d };
      const x = randomTensor(B * 2 * 4 * C * d, seed);
      const shards = sequenceShards(dims.N, C, layout);
      expect(gatherSequence(shards.map((p) => shardSequence(x, dims, p)), dims, shards)).toEqual(x);
    }), { seed: 3, numRuns: 100 });
  });
  it("shardSequence and gatherSequence reject wrong lengths and positions", () => {
    expect(() => shardSequence(new Float32Array(23), { B: 1, H: 2, N: 3, d: 4 }, [0])).toThrow(/^x must have length 24 \(B·H·N·d\), got 23$/);
    expect(() => shardSequence(new Float32Array(6), { B: 1, H: 1, N: 6, d: 1 }, [7])).toThrow(/^positions\[0\] = 7 is outside \[0, 6\)$/);
    expect(() => gatherSequence([new Float32Array(2)], { B: 1, H: 1, N: 4, d: 1 }, [[0, 1], [2, 3]])).toThrow(/^parts must hold one tensor per shard \(2\), got 1$/);
    expect(() => gatherSequence([new Float32Array(2), new Float32Array(3)], { B: 1, H: 1, N: 4, d: 1 }, [[0, 1], [2, 3]])).toThrow(/^parts\[1\] must have length 2/);
  });
});
