import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { megatronRankGroups } from "./megatronRankGroups.js";

describe("megatronRankGroups", () => {
  it("megatronRankGroups reproduces Megatron's docstring: 8 GPUs, TP 4, CP 2 (worked example)", () => {
    const layout = { tp: 4, cp: 2, dp: 1, pp: 1 };
    expect(megatronRankGroups(layout, "cp")).toEqual([[0, 4], [1, 5], [2, 6], [3, 7]]);
    expect(megatronRankGroups(layout, "tp")).toEqual([[0, 1, 2, 3], [4, 5, 6, 7]]);
  });
  it("megatronRankGroups with Llama 3's order TP, CP, PP, DP puts GPU 0 with GPU 1 (TP), 2 (CP), 4 (PP) and 8 (DP) (Dubey et al. 2024, Figure 5)", () => {
    const layout = { tp: 2, cp: 2, pp: 2, dp: 2, order: "tp-cp-pp-dp" };
    expect(megatronRankGroups(layout, "tp")[0]).toEqual([0, 1]);
    expect(megatronRankGroups(layout, "cp")[0]).toEqual([0, 2]);
    expect(megatronRankGroups(layout, "pp")[0]).toEqual([0, 4]);
    expect(megatronRankGroups(layout, "dp")[0]).toEqual([0, 8]);
  });
  it("megatronRankGroups: Llama 3's 128K run (TP 8, CP 16, PP 16, DP 8: 16,384 GPUs) reduces gradients over DP·CP = 128 ranks", () => {
    const layout = { tp: 8, cp: 16, pp: 16, dp: 8, order: "tp-cp-pp-dp" };
    const dpCp = megatronRankGroups(layout, "dp-cp");
    expect(dpCp.length).toBe(16384 / 128);
    expect(dpCp[0].length).toBe(128);
    expect(dpCp[0].slice(0, 3)).toEqual([0, 8, 16]);
  });
  it("megatronRankGroups: each axis's groups partition the ranks, and a dp-cp group is the union of CP groups (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.constantFrom("tp-cp-dp-pp", "tp-cp-pp-dp", "cp-tp-dp-pp"), (tp, cp, dp, pp, order) => {
      const layout = { tp, cp, dp, pp, order };
      const world = tp * cp * dp * pp;
      for (const axes of ["tp", "cp", "dp", "pp", "dp-cp"]) {
        const g = megatronRankGroups(layout, axes);
        expect(g.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: world }, (_, i) => i));
      }
      const cpGroups = megatronRankGroups(layout, "cp");
      for (const group of megatronRankGroups(layout, "dp-cp")) {
        expect(cpGroups.filter((c) => group.includes(c[0])).every((c) => c.every((r) => group.includes(r)))).toBe(true);
      }
    }), { seed: 7, numRuns: 100 });
  });
  it("megatronRankGroups rejects bad sizes, orders and axes", () => {
    expect(() => megatronRankGroups({ tp: 0, cp: 1, dp: 1, pp: 1 }, "tp")).toThrow(/^tp must be an integer >= 1, got 0$/);
    expect(() => megatronRankGroups({ tp: 1, cp: 1, dp: 1, pp: 1, order: "tp-dp" }, "tp")).toThrow(/^order must name tp, cp, dp and pp once each, got "tp-dp"$/);
    expect(() => megatronRankGroups({ tp: 1, cp: 1, dp: 1, pp: 1 }, "ep")).toThrow(/^unknown axis "ep" in "ep"$/);
  });
});
