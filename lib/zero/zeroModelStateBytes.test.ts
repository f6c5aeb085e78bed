import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { zeroModelStateBytes } from "./zeroModelStateBytes.js";
import { shardOwner, zeroPartition } from "./shardRanges.js";
import { trainZero } from "./trainZero.js";
import { wrapUnits } from "./wrapUnits.js";

describe("zeroModelStateBytes", () => {
  it("the ZeRO paper's Figure 1: Ψ = 7.5B on 64 GPUs gives 120, 31.4, 16.6 and 1.9 GB", () => {
    const gb = [0, 1, 2, 3].map((s) => zeroModelStateBytes(7.5e9, 64, s).total / 1e9);
    expect(gb[0]).toBe(120);
    expect(gb[1]).toBeCloseTo(31.4, 1);
    expect(gb[2]).toBeCloseTo(16.6, 1);
    expect(gb[3]).toBeCloseTo(1.9, 1);
  });

  it("equals rank 0's resident memory in the simulation (params + fp32 master + moments at t = 0), P not dividing Ψ", () => {
    for (const [P, stage] of [[4, 0], [4, 1], [6, 2], [7, 3], [8, 3]]) {
      const run = trainZero({ numRanks: P, stage, steps: 1, knobs: { stage3_param_persistence_threshold: 0 } });
      const resident = run.records[0].memory.filter((e) => e.t === 0 && e.rank === 0).reduce((n, e) => n + e.bytes, 0);
      const want = zeroModelStateBytes(run.numParams, P, stage);
      expect(resident, `P=${P} stage ${stage}`).toBe(want.params + want.optimizerStates);
    }
  });

  it("errors name the field", () => {
    expect(() => zeroModelStateBytes(10, 0, 1)).toThrow(/numRanks must be an integer >= 1, got 0/);
    expect(() => zeroModelStateBytes(1.5, 2, 1)).toThrow(/numParams must be an integer >= 0, got 1.5/);
  });
});

describe("shardOwner", () => {
  it("agrees with zeroPartition for every element (property, P not dividing Ψ)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 9 }), (n, P) => {
      const shards = zeroPartition(n, P);
      for (let i = 0; i < n; i++) {
        const r = shards.findIndex((s) => i >= s.start && i < s.end);
        expect(shardOwner(n, P, i)).toEqual({ rank: r, offset: i - shards[r].start });
      }
    }), { numRuns: 60 });
    expect(shardOwner(10, 4, 7)).toEqual({ rank: 2, offset: 1 });
    expect(() => shardOwner(10, 0, 1)).toThrow(/numRanks must be an integer >= 1, got 0/);
    expect(() => shardOwner(10, 4, 10)).toThrow(/index must be an integer in \[0, 10\), got 10/);
  });
});

describe("wrapUnits", () => {
  const layers = [3, 5, 2, 7, 1].map((n, i) => ({ name: `l${i}`, params: [{ name: `l${i}.W`, numel: n }] }));
  it("by size: consecutive layers until min_num_params, the rest in the root's unit; root: one unit; layer: one each", () => {
    expect(wrapUnits(layers, { minNumParams: 6 }, 0).map((u) => u.layers)).toEqual([[0, 1], [2, 3], [4]]);
    expect(wrapUnits(layers, "root", 0).map((u) => u.gatheredElements)).toEqual([18]);
    expect(wrapUnits(layers, "layer", 0).length).toBe(5);
    expect(wrapUnits(layers, "layer", 3).map((u) => u.gatheredElements)).toEqual([3, 5, 0, 7, 0]);
    expect(() => wrapUnits(layers, { minNumParams: 0 }, 0)).toThrow(/minNumParams must be an integer >= 1, got 0/);
  });
});
