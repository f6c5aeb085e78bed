import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { replayEvents } from "./replayEvents.js";
import { ringAllReduce } from "./ringAllReduce.js";
import { parameterServerAllReduce } from "./parameterServerAllReduce.js";
import { broadcast } from "./broadcast.js";
import { firstMismatch, randomBuffers } from "./testing.js";

describe("replayEvents", () => {
  it("replayEvents(inputs, events, 1) shows the first reduce-scatter step of a 3-rank ring", () => {
    // chunks [0,1) [1,2) [2,3); step 0: rank r sends chunk r−1 to r+1, which adds it:
    // rank 2 → 0 chunk 1 (+200), rank 0 → 1 chunk 2 (+3), rank 1 → 2 chunk 0 (+10)
    const inputs = [[1, 2, 3], [10, 20, 30], [100, 200, 300]];
    const after1 = replayEvents(inputs, ringAllReduce(inputs).events, 1);
    expect(after1).toEqual([Float32Array.of(1, 202, 3), Float32Array.of(10, 20, 33), Float32Array.of(110, 200, 300)]);
    expect(replayEvents(inputs, [], 0)).toEqual(inputs.map((x) => Float32Array.from(x)));
    expect(() => replayEvents(inputs, [], -1)).toThrow("numSteps must be an integer >= 0, got -1");
  });

  it("property: replaying every step reproduces the collective's result", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 50 }), fc.integer(), (P, n, seed) => {
      const inputs = randomBuffers(P, n, seed);
      for (const out of [ringAllReduce(inputs), parameterServerAllReduce(inputs), broadcast(inputs)]) {
        const replayed = replayEvents(inputs, out.events, Number.POSITIVE_INFINITY);
        replayed.forEach((r, i) => expect(firstMismatch(r, out.result[i])).toBe(-1));
      }
    }), { seed: 61, numRuns: 60 });
  });
});
