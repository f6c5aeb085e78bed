import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { allReduceSchedule, ddpStepTimeMs } from "./ddpStepTimeMs.js";

describe("allReduceSchedule / ddpStepTimeMs", () => {
  it("allReduceSchedule starts each bucket when it is ready and the previous one is done (worked example)", () => {
    // ready 1, 2, 6; durations 3, 1, 1 → [1,4], [4,5], [6,7]
    const s = allReduceSchedule([{ readyMs: 1, allReduceMs: 3 }, { readyMs: 2, allReduceMs: 1 }, { readyMs: 6, allReduceMs: 1 }], 6, true);
    expect(s).toEqual({ startMs: [1, 4, 6], endMs: [4, 5, 7], commEndMs: 7 });
    // without overlap everything waits for the end of backward (6): [6,9], [9,10], [10,11]
    expect(allReduceSchedule([{ readyMs: 1, allReduceMs: 3 }, { readyMs: 2, allReduceMs: 1 }, { readyMs: 6, allReduceMs: 1 }], 6, false).endMs).toEqual([9, 10, 11]);
  });

  it("ddpStepTimeMs = forward + max(backward, last all-reduce end) + optimizer", () => {
    const buckets = [{ readyMs: 1, allReduceMs: 3 }, { readyMs: 2, allReduceMs: 1 }, { readyMs: 6, allReduceMs: 1 }];
    expect(ddpStepTimeMs({ forwardMs: 2, backwardMs: 6, buckets, optimizerMs: 0.5, overlap: true })).toBe(2 + 7 + 0.5);
    expect(ddpStepTimeMs({ forwardMs: 2, backwardMs: 6, buckets, optimizerMs: 0.5, overlap: false })).toBe(2 + 6 + 5 + 0.5);
    expect(ddpStepTimeMs({ forwardMs: 2, backwardMs: 6, buckets: [], optimizerMs: 0.5, overlap: true })).toBe(8.5);
  });

  it("rejects negative or non-finite durations naming the field", () => {
    expect(() => ddpStepTimeMs({ forwardMs: Number.NaN, backwardMs: 1, buckets: [], optimizerMs: 0, overlap: true })).toThrow("forwardMs must be a finite number >= 0, got NaN");
    expect(() => allReduceSchedule([{ readyMs: 0, allReduceMs: -1 }], 1, true)).toThrow("buckets[0].allReduceMs must be a finite number >= 0, got -1");
  });

  it("property: overlap never loses; without overlap the time is forward + backward + Σ all-reduce + optimizer; with it at least the compute and the communication", () => {
    const arb = fc.array(fc.record({ readyMs: fc.integer({ min: 0, max: 100 }), allReduceMs: fc.integer({ min: 0, max: 50 }) }), { maxLength: 12 });
    fc.assert(
      fc.property(arb, fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 20 }), (raw, fwd, opt) => {
        const backwardMs = Math.max(0, ...raw.map((b) => b.readyMs));
        const buckets = raw.map((b) => ({ ...b })).sort((a, b) => a.readyMs - b.readyMs); // buckets become ready in order
        const comm = buckets.reduce((s, b) => s + b.allReduceMs, 0);
        const on = ddpStepTimeMs({ forwardMs: fwd, backwardMs, buckets, optimizerMs: opt, overlap: true });
        const off = ddpStepTimeMs({ forwardMs: fwd, backwardMs, buckets, optimizerMs: opt, overlap: false });
        expect(off).toBe(fwd + backwardMs + comm + opt);
        expect(on).toBeLessThanOrEqual(off);
        expect(on).toBeGreaterThanOrEqual(fwd + Math.max(backwardMs, comm) + opt);
      }),
      { seed: 51, numRuns: 200 },
    );
  });
});
