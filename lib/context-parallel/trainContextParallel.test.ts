import { describe, expect, it } from "vitest";
import { trainContextParallel } from "./trainContextParallel.js";
import { CP_LAYOUTS } from "./sequenceShards.js";

describe("trainContextParallel", () => {
  it("trainContextParallel matches one device step by step for every layout at C = 2 and 4 (|Δloss|, |Δw| ≤ 1e-4 after 8 AdamW steps)", () => {
    for (const layout of CP_LAYOUTS) for (const cpSize of [2, 4]) {
      const r = trainContextParallel({ cpSize, layout, steps: 8 });
      r.lossCp.forEach((l, i) => expect(Math.abs(l - r.lossSingle[i])).toBeLessThanOrEqual(1e-4));
      expect(r.maxWeightDiff).toBeLessThanOrEqual(1e-4);
      expect(r.lossSingle[7]).toBeLessThan(r.lossSingle[0]); // it trains
      expect(r.lastRingEvents.length).toBe(cpSize * (3 * cpSize - 2)); // recomputed forward C−1, K/V C−1, dK/dV C steps of C messages
      expect(r.lastAllReduceEvents.length).toBe(2 * (cpSize - 1) * cpSize);
    }
  });
  it("trainContextParallel rejects a bad step count", () => {
    expect(() => trainContextParallel({ cpSize: 2, layout: "zigzag", steps: 0 })).toThrow(/^steps must be an integer >= 1, got 0$/);
  });
});
