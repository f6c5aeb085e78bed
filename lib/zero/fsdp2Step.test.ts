import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { fsdp2Step, type Fsdp2StepModel } from "./fsdp2Step.js";
import { fsdpModel, trainFsdp } from "./trainFsdp.js";
import { AMP_LIVE_MODEL } from "../amp/index.js";

const two: Fsdp2StepModel = {
  layers: [{ name: "a", params: [{ name: "a.W", shape: [5, 2] }, { name: "a.b", shape: [3] }] }, { name: "b", params: [{ name: "b.W", shape: [2, 4] }, { name: "b.b", shape: [4] }] }],
  groups: [{ name: "root", isRoot: true, layers: [1], reshardAfterForward: null }, { name: "a", isRoot: false, layers: [0], reshardAfterForward: true }],
};

describe("fsdp2Step (exercise 8.5's reference)", () => {
  it("the page's 2-layer model on P = 4, by hand", () => {
    const { shards, ops } = fsdp2Step(two, 4);
    expect(shards["a.W"]).toEqual({ rows: [{ start: 0, end: 2 }, { start: 2, end: 4 }, { start: 4, end: 5 }, { start: 5, end: 5 }], paddedRows: 2 });
    expect(shards["b.W"].rows.map((r) => r.end - r.start)).toEqual([1, 1, 0, 0]);
    expect(ops.map((o) => o.op)).toEqual(["unshard", "unshard", "forward", "reshard", "forward", "unshard", "backward", "reshard", "reduce-scatter", "backward", "reshard", "reduce-scatter", "step"]);
  });

  it("an int that does not divide G is refused; P = 1 needs no padding", () => {
    expect(() => fsdp2Step({ ...two, groups: [two.groups[0], { ...two.groups[1], reshardAfterForward: 3 }] }, 4)).toThrow("reshard_after_forward as an int must be a factor of 4");
    expect(fsdp2Step(two, 1).shards["a.W"]).toEqual({ rows: [{ start: 0, end: 5 }], paddedRows: 5 });
  });

  it("property: its operations are the ones trainFsdp runs for the same groups (any G, reshard)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.constantFrom<boolean | null>(true, false, null), (G, r) => {
      const { layers } = fsdpModel({ ...AMP_LIVE_MODEL, numBlocks: 2 });
      const model: Fsdp2StepModel = { layers, groups: [{ name: "root", isRoot: true, layers: [0, 1, 4], reshardAfterForward: null }, { name: "blocks.0", isRoot: false, layers: [2], reshardAfterForward: r }, { name: "blocks.1", isRoot: false, layers: [3], reshardAfterForward: r }] };
      const run = trainFsdp({ mesh: { shard: G }, model: { ...AMP_LIVE_MODEL, numBlocks: 2 }, reshardAfterForward: r, steps: 1 });
      expect(fsdp2Step(model, G).ops).toEqual(run.records[0].ops.map((o) => o.op));
    }), { numRuns: 12, seed: 85 });
  });
});
