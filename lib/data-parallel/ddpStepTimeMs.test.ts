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

  it("rejects a bucket ready after the end of backward (precondition readyMs <= backwardMs), with a RangeError", () => {
    const step = { forwardMs: 1, backwardMs: 4, buckets: [{ readyMs: 2, allReduceMs: 1 }, { readyMs: 5, allReduceMs: 1 }], optimizerMs: 0, overlap: true };
    expect(() => ddpStepTimeMs(step)).toThrow(RangeError);
    expect(() => ddpStepTimeMs(step)).toThrow("buckets[1].readyMs must be <= backwardMs (4), got 5 (a bucket's gradients come from backward)");
    expect(() => ddpStepTimeMs({ ...step, overlap: false })).toThrow(/buckets\[1\]\.readyMs must be <= backwardMs/);
    expect(ddpStepTimeMs({ ...step, backwardMs: 5 })).toBe(1 + 6 + 0); // ready exactly at the end is allowed
  });

  it("buckets need not become ready in bucket order: a later bucket ready earlier still waits its turn", () => {
    // bucket 0 ready at 5, bucket 1 ready at 1: the stream runs bucket 0 first, [5,7], then bucket 1, [7,8]
    expect(allReduceSchedule([{ readyMs: 5, allReduceMs: 2 }, { readyMs: 1, allReduceMs: 1 }], 5, true)).toEqual({ startMs: [5, 7], endMs: [7, 8], commEndMs: 8 });
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
