import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bestByDimension } from "./bestByDimension.js";
import type { PlanResult } from "./evaluatePlan.js";

// Only the fields bestByDimension reads: the plan's sizes, a label and a speed.
const r = (C: number | undefined, tokensPerS: number, fits = true) => ({ plan: { contextParallel: C }, label: `cp${C ?? 1} ${tokensPerS}`, tokensPerS, fits } as unknown as PlanResult);

describe("bestByDimension", () => {
  it("worked example: the fastest fitting plan per C, the closest rejected one where none fits", () => {
    const ranked = [r(4, 300), r(2, 250), r(4, 200)], rejected = [r(undefined, 0, false), r(8, 0, false)];
    const rows = bestByDimension({ ranked, rejected }, "contextParallel");
    expect(rows.map((x) => x.size)).toEqual([1, 2, 4, 8]);
    expect(rows[0]).toEqual({ size: 1, closest: rejected[0] }); // no C = 1 plan fits: context parallelism is needed
    expect(rows[2].best).toBe(ranked[0]);
    expect(rows[3].closest).toBe(rejected[1]);
  });
  it("edge cases: an empty search has no rows; a dimension the search never varied has one (size 1)", () => {
    expect(bestByDimension({ ranked: [], rejected: [] }, "expertParallel")).toEqual([]);
    expect(bestByDimension({ ranked: [r(4, 1)], rejected: [] }, "expertParallel").map((x) => x.size)).toEqual([1]);
  });
  it("property: each row's best is the fastest ranked plan of its size, and every size appears once", () => {
    fc.assert(fc.property(fc.array(fc.record({ C: fc.constantFrom(1, 2, 4, 8), v: fc.integer({ min: 1, max: 1000 }) }), { maxLength: 30 }), (xs) => {
      const ranked = xs.map((x) => r(x.C, x.v)).sort((a, b) => b.tokensPerS - a.tokensPerS);
      const rows = bestByDimension({ ranked, rejected: [] }, "contextParallel");
      expect(new Set(rows.map((x) => x.size)).size).toBe(rows.length);
      for (const row of rows) expect(row.best!.tokensPerS).toBe(Math.max(...ranked.filter((x) => (x.plan.contextParallel ?? 1) === row.size).map((x) => x.tokensPerS)));
    }));
  });
});
