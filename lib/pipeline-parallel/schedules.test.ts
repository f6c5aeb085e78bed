import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import {
  naiveSchedule, gpipeSchedule, oneFOneBSchedule, interleavedSchedule, zbH1Schedule, generateSchedule, checkSchedule, assertValidSchedule,
  stepTime, busyTimes, bubbleFraction, bubbleFractionOfStep, peakInFlight, closedFormBubble, timeOrders, oneFOneBOrder, zbH1Order, p2pSendMs, resolveTimes,
  type Schedule,
} from "./index.js";

const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b)));

describe("worked examples (hand-drawn timelines, F = B = 1)", () => {
  it("naive, p = 2, m = 1: F0 F1 B1 B0 one after the other", () => {
    expect(naiveSchedule(2, 1).events.map((e) => `${e.kind}${e.stage}@${e.start}`)).toEqual(["F0@0", "F1@1", "B1@2", "B0@3"]);
  });
  it("GPipe p = 2, m = 2: stage 1 starts one pass late; step 2·(m + p − 1) = 6", () => {
    const s = gpipeSchedule(2, 2);
    const on = (st: number) => s.events.filter((e) => e.stage === st).map((e) => `${e.kind}${e.microBatch}[${e.start},${e.end}]`);
    expect(on(0)).toEqual(["F0[0,1]", "F1[1,2]", "B0[4,5]", "B1[5,6]"]);
    expect(on(1)).toEqual(["F0[1,2]", "F1[2,3]", "B0[3,4]", "B1[4,5]"]);
    expect(stepTime(s)).toBe(6);
  });
  it("1F1B orders of stage 0 with p = 2, m = 3 and ZB-H1's of stage 1", () => {
    expect(oneFOneBOrder(2, 0, 3).map((o) => o.kind + o.microBatch)).toEqual(["F0", "F1", "B0", "F2", "B1", "B2"]);
    expect(zbH1Order(2, 1, 2).map((o) => o.kind + o.microBatch)).toEqual(["F0", "B0", "F1", "B1", "W0", "W1"]);
  });
  it("a deadlocking order is reported", () => {
    expect(() => timeOrders([[{ kind: "B", microBatch: 0, chunk: 0 }, { kind: "F", microBatch: 0, chunk: 0 }]], 1, 1, 1, { forward: 1, backward: 1 }, false)).toThrow(/deadlocks/);
  });
  it("send time from the α-β model: 25 MB at 25 GB/s plus 5 µs is 1.005 ms", () => {
    close(p2pSendMs(25e6, { alphaS: 5e-6, bandwidthBytesPerS: 25e9 }), 1.005);
  });
});

const gen = (name: string, p: number, m: number, v: number): Schedule =>
  name === "naive" ? naiveSchedule(p, m) : name === "gpipe" ? gpipeSchedule(p, m) : name === "1f1b" ? oneFOneBSchedule(p, m) : name === "interleaved" ? interleavedSchedule(p, m * p, v) : zbH1Schedule(p, m);

describe("every generator passes the validity checker (random p, m, v, times, sends)", () => {
  for (const name of ["naive", "gpipe", "1f1b", "interleaved", "zb-h1"]) {
    it(name, () => {
      fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 8, maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 8, maxLength: 8 }), fc.integer({ min: 0, max: 3 }),
        (p, m, v, fw, bw, send) => {
          const times = { forward: fw.slice(0, p), backward: bw.slice(0, p), weight: bw.slice(0, p).map((x) => x / 2), sendMs: send / 2 };
          const mm = name === "interleaved" ? m * p : m;
          const s = generateSchedule(name as never, { p, m: mm, v, times });
          const limit = name === "gpipe" ? mm : name === "naive" ? 1 : name === "interleaved" ? Infinity : p;
          expect(checkSchedule(s, { times, maxInFlight: limit })).toEqual([]);
        }), { numRuns: 60 });
    });
  }
});

describe("the checker catches broken schedules", () => {
  const s = oneFOneBSchedule(3, 4);
  const mutate = (f: (e: Schedule["events"]) => Schedule["events"]) => ({ ...s, events: f(s.events.map((e) => ({ ...e }))) });
  it("B before its F", () => {
    const bad = mutate((es) => { const b = es.find((e) => e.kind === "B" && e.stage === 2)!; b.start -= 1; b.end -= 1; return es; });
    expect(checkSchedule(bad).join()).toMatch(/before its F ends|two passes at once/);
  });
  it("missing and duplicate passes", () => {
    expect(checkSchedule(mutate((es) => es.slice(1))).join()).toMatch(/is missing/);
    expect(checkSchedule(mutate((es) => [...es, es[0]])).join()).toMatch(/runs twice/);
  });
  it("cross-stage dependency and sends", () => {
    const times = { forward: 1, backward: 1, sendMs: 0.5 };
    expect(checkSchedule(s, { times }).join()).toMatch(/before F of the previous stage ends \(1 \+ send 0.5\)/);
  });
  it("overlap on one device, wrong durations, memory limit", () => {
    const bad = mutate((es) => { const e = es.find((x) => x.stage === 0 && x.kind === "F" && x.microBatch === 1)!; e.start = 0.5; return es; });
    expect(checkSchedule(bad, { times: { forward: 1, backward: 1 } }).join()).toMatch(/two passes at once.*|lasts 0.5, expected 1/);
    expect(checkSchedule(s, { maxInFlight: 2 }).join()).toMatch(/stage 0 holds 3 micro-batches/);
    expect(() => assertValidSchedule(s, { maxInFlight: 2 })).toThrow(/invalid schedule: stage 0 holds 3/);
  });
  it("fields out of range", () => {
    expect(checkSchedule(mutate((es) => { es[0].stage = 7; return es; })).join()).toMatch(/bad event/);
    expect(checkSchedule(mutate((es) => { es[0].kind = "W"; return es; })).join()).toMatch(/bad event/);
  });
});

describe("measures tie to the closed forms (equal stages, no sends)", () => {
  it("GPipe and 1F1B: bubble (p − 1)/m of the ideal, (p − 1)/(m + p − 1) of the step", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 4 }), (p, m, f) => {
      for (const s of [gpipeSchedule(p, m, { forward: f, backward: 2 * f }), oneFOneBSchedule(p, m, { forward: f, backward: 2 * f })]) {
        close(bubbleFraction(s), (p - 1) / m);
        close(bubbleFraction(s), closedFormBubble(s.name, p, m));
        close(bubbleFractionOfStep(s), (p - 1) / (m + p - 1));
        close(stepTime(s), (m + p - 1) * 3 * f);
      }
    }));
  });
  it("interleaved: (p − 1)/(v·m)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), (p, k, v) => {
      const m = k * p;
      close(bubbleFraction(interleavedSchedule(p, m, v)), (p - 1) / (v * m));
    }));
  });
  it("ZB-H1 with F = B = W: a third of 1F1B's bubble for m ≥ p (zeroBubble.test.ts covers m < p), same peak memory p", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 10 }), (p, extra) => {
      const m = p + extra;
      const z = zbH1Schedule(p, m);
      close(bubbleFraction(z), (p - 1) / (3 * m));
      close(bubbleFraction(z), closedFormBubble("zb-h1", p, m));
      const one = oneFOneBSchedule(p, m, { forward: 1, backward: 1, weight: 1 });
      close(stepTime(one) - 3 * m, 3 * (stepTime(z) - 3 * m));
      expect(Math.max(...peakInFlight(z))).toBe(Math.min(p, m));
    }));
  });
  it("in flight: m on every GPipe stage, min(p − s, m) on 1F1B stage s (≤ p)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 20 }), (p, m) => {
      expect(peakInFlight(gpipeSchedule(p, m))).toEqual(new Array(p).fill(m));
      expect(peakInFlight(oneFOneBSchedule(p, m))).toEqual(Array.from({ length: p }, (_, s) => Math.min(p - s, m)));
    }));
  });
  it("naive: only one stage busy at a time, bubble p − 1", () => {
    close(bubbleFraction(naiveSchedule(4, 3)), 3);
    expect(busyTimes(naiveSchedule(4, 3))).toEqual([6, 6, 6, 6]);
  });
  it("Narayanan et al. 2021, Fig. 4: p = 4, m = 8, v = 2 shortens the step from 22 to 19 passes", () => {
    expect(stepTime(oneFOneBSchedule(4, 8))).toBe(22);
    close(stepTime(interleavedSchedule(4, 8, 2)), 19);
  });
  it("a slow stage sets the pace: the step is at least m times its F + B, and its bubble is what the others add", () => {
    const s = oneFOneBSchedule(3, 6, { forward: [1, 3, 1], backward: [1, 3, 1] });
    expect(busyTimes(s)).toEqual([12, 36, 12]);
    expect(stepTime(s)).toBeGreaterThanOrEqual(1 + 36 + 1); // stage 0's first F before, its last B after
    expect(stepTime(s)).toBeLessThan(36 + 2 * 12);
  });
});

describe("errors name the field and the allowed values", () => {
  it("shapes", () => {
    expect(() => gpipeSchedule(0, 4)).toThrow(/p must be an integer >= 1, got 0/);
    expect(() => oneFOneBSchedule(2, 1.5)).toThrow(/m must be an integer >= 1, got 1.5/);
    expect(() => interleavedSchedule(4, 2, 2)).toThrow(/m must be >= p = 4 for the interleaved schedule, got m = 2/);
    expect(() => interleavedSchedule(4, 6, 2)).toThrow(/m must be a multiple of p = 4/);
    expect(() => interleavedSchedule(4, 8, 0)).toThrow(/v must be an integer >= 1, got 0/);
    expect(() => generateSchedule("x" as never, { p: 1, m: 1 })).toThrow(/schedule must be one of naive, gpipe, 1f1b, interleaved, zb-h1/);
    expect(() => closedFormBubble("gpipe", 2, 0)).toThrow(/m must be an integer >= 1, got 0/);
  });
  it("times", () => {
    expect(() => gpipeSchedule(2, 2, { forward: -1, backward: 1 })).toThrow(/times.forward must be a finite number >= 0, got -1/);
    expect(() => gpipeSchedule(3, 2, { forward: [1, 1, -2], backward: 1 })).toThrow(/times.forward\[2\] must be a finite number >= 0, got -2/);
    expect(() => gpipeSchedule(3, 2, { forward: 1, backward: [1, 1] })).toThrow(/times.backward must have p = 3 entries, got 2/);
    expect(() => gpipeSchedule(2, 2, { forward: 1, backward: 1, sendMs: NaN })).toThrow(/times.sendMs must be a finite number >= 0, got NaN/);
    expect(resolveTimes({ forward: 1, backward: [2, 3] }, 2)).toEqual({ forward: [1, 1], backward: [2, 3], weight: [0, 0], overlapped: [3, 4], sendMs: 0 });
  });
});

describe("the TSDoc examples", () => {
  it("step times of the generators' examples", () => {
    expect(stepTime(gpipeSchedule(4, 8))).toBe(22);
    expect(stepTime(oneFOneBSchedule(4, 8))).toBe(22);
    close(stepTime(interleavedSchedule(4, 8, 2)), 19);
    expect(stepTime(zbH1Schedule(4, 8))).toBe(27);
    expect(generateSchedule("1f1b", { p: 2, m: 4 }).events.length).toBe(16);
    expect(busyTimes(gpipeSchedule(2, 3))).toEqual([6, 6]);
    close(bubbleFractionOfStep(gpipeSchedule(4, 8)), 3 / 11);
    close(closedFormBubble("interleaved", 4, 8, 2), 0.1875);
    expect(checkSchedule(gpipeSchedule(2, 2), { maxInFlight: 1 })).toEqual(["stage 0 holds 2 micro-batches in flight at t = 1 (maxInFlight = 1)", "stage 1 holds 2 micro-batches in flight at t = 2 (maxInFlight = 1)"]);
    expect(timeOrders([[{ kind: "F", microBatch: 0, chunk: 0 }, { kind: "B", microBatch: 0, chunk: 0 }]], 1, 1, 1, { forward: 1, backward: 1 }, false).map((e) => [e.kind, e.start, e.end])).toEqual([["F", 0, 1], ["B", 1, 2]]);
  });
});
