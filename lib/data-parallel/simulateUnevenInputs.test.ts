import { describe, expect, it } from "vitest";
import { simulateUnevenInputs } from "./simulateUnevenInputs.js";

describe("simulateUnevenInputs", () => {
  it("without Join, ranks with more batches wait forever in the first all-reduce the others skip", () => {
    const { result, events } = simulateUnevenInputs([5, 3, 5], { join: false });
    expect(result.completedIterations).toBe(3);
    expect(result.hang).toMatchObject({ iteration: 3, waitingRanks: [0, 2], exitedRanks: [1] });
    expect(events.filter((e) => e.kind === "wait").map((e) => e.rank)).toEqual([0, 2]);
  });

  it("with Join, joined ranks shadow the all-reduces until all finish; the divisor stays P by default", () => {
    const { result, events } = simulateUnevenInputs([5, 3, 4], { join: true });
    expect(result.hang).toBeUndefined();
    expect(result.completedIterations).toBe(5);
    expect(events.filter((e) => e.kind === "shadow").map((e) => [e.rank, e.iteration])).toEqual([[1, 3], [1, 4], [2, 4]]);
    expect(result.divisors.map((d) => [d.contributingRanks, d.divisor])).toEqual([[3, 3], [3, 3], [3, 3], [2, 3], [1, 3]]);
    const own = simulateUnevenInputs([5, 3, 4], { join: true, divideByInitialWorldSize: false }).result;
    expect(own.divisors.map((d) => d.divisor)).toEqual([3, 3, 3, 2, 1]);
  });

  it("equal inputs never hang; bad counts are rejected", () => {
    expect(simulateUnevenInputs([2, 2], { join: false }).result).toEqual({ completedIterations: 2, divisors: [] });
    expect(() => simulateUnevenInputs([], { join: true })).toThrow(/numRanks >= 1/);
    expect(() => simulateUnevenInputs([1, -2], { join: true })).toThrow("batchesPerRank[1] must be an integer >= 0, got -2");
  });
});
