import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import {
  zbH2Schedule, zbH2Order, zbVSchedule, zbVOrder, dualPipeSchedule, dualPipeVSchedule, zbH1Schedule, oneFOneBSchedule, generateSchedule,
  checkSchedule, stageSpans, busyTimes, stepTime, peakInFlight, spanBubbleFraction, bubbleFraction, scheduleClosedForm, closedFormBubble,
  type Schedule, type ScheduleName,
} from "./index.js";

const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b)));
const U = { forward: 1, backward: 1, weight: 1 };
/** Idle time inside the busiest device's span. */
const spanBubble = (s: Schedule) => Math.max(...stageSpans(s)) - Math.max(...busyTimes(s));
/** One device's passes in time order, as the papers' figures label them: micro-batch numbers from 1. */
const labels = (s: Schedule, d: number) => s.events.filter((e) => e.stage === d && !(e.overlapped && e.kind === "B")).sort((a, b) => a.start - b.start).map((e) => e.microBatch + 1).join(" ");

describe("published figures as oracles (p = 4, m = 8, F = B = W)", () => {
  it("ZB-H2's four rows equal Qi et al.'s Figure 3 (bottom), and each device works 24 units without a gap, starting one unit after the previous one (a parallelogram)", () => {
    const fig = [
      "1 2 3 4 5 6 7 1 1 8 2 2 3 3 4 4 5 5 6 6 7 7 8 8",
      "1 2 3 4 5 1 6 2 7 3 1 8 4 2 5 3 6 4 7 5 8 6 7 8",
      "1 2 3 1 4 2 5 3 6 4 7 5 1 8 6 2 7 3 8 4 5 6 7 8",
      "1 1 2 2 3 3 4 4 5 5 6 6 7 7 1 8 8 2 3 4 5 6 7 8",
    ];
    const s = zbH2Schedule(4, 8);
    fig.forEach((row, d) => expect(labels(s, d)).toBe(row));
    expect(stageSpans(s)).toEqual([24, 24, 24, 24]);
    expect([0, 1, 2, 3].map((d) => Math.min(...s.events.filter((e) => e.stage === d).map((e) => e.start)))).toEqual([0, 1, 2, 3]);
  });
  it("ZB-V's four rows equal Qi et al.'s Figure 8 (arXiv v2), chunk 0 on devices 0 → 3 and chunk 1 back from 3 → 0", () => {
    const fig = [
      "1 2 3 4 5 6 7 1 1 1 2 2 2 3 3 3 4 4 4 8 1 1 5 5 5 2 2 6 6 6 3 3 7 7 7 4 4 8 8 8 5 5 6 6 7 7 8 8",
      "1 2 3 4 5 1 6 2 1 1 3 2 2 4 3 3 7 1 1 5 4 4 8 2 2 6 5 5 3 3 7 6 6 4 4 8 7 7 5 8 6 5 7 8 8 6 7 8",
      "1 2 3 1 4 2 5 3 1 1 4 2 2 6 1 1 5 3 3 7 2 2 6 4 4 8 3 3 7 5 5 4 4 8 6 6 5 7 6 8 7 5 8 7 6 8 7 8",
      "1 1 2 2 3 3 4 4 1 1 5 1 1 5 2 2 6 2 2 6 3 3 7 3 3 7 4 4 8 4 4 8 5 5 5 6 6 7 7 8 8 5 6 6 7 7 8 8",
    ];
    const s = zbVSchedule(4, 8);
    fig.forEach((row, d) => expect(labels(s, d)).toBe(row));
    const f0 = s.events.filter((e) => e.kind === "F" && e.microBatch === 0).sort((a, b) => a.start - b.start).map((e) => `${e.stage}${e.chunk}`);
    expect(f0).toEqual(["00", "10", "20", "30", "31", "21", "11", "01"]);
    expect(spanBubble(s)).toBe(0);
    expect(peakInFlight(s)).toEqual([4, 4, 4, 4]);
  });
  it("DualPipe with 8 ranks and 20 micro-batches equals the figure of the deepseek-ai/DualPipe README (F, B, W one cell, full backward two, F&B three)", () => {
    const s = dualPipeSchedule(8, 20);
    // Device 0 as drawn: 7 forwards, 3 reverse-direction F-B-W groups, F, then F&B pairs, the idle cells, full backwards, then B-W pairs
    const d0 = s.events.filter((e) => e.stage === 0).sort((a, b) => a.start - b.start || (a.kind < b.kind ? 1 : -1));
    const cell = (e: (typeof d0)[number]) => `${e.kind}${e.full ? "′" : ""}${e.overlapped ? "*" : ""}${e.microBatch < 10 ? e.microBatch : "r"}@${e.start}`;
    expect(d0.slice(0, 19).map(cell).join(" ")).toBe("F0@0 F1@1 F2@2 F3@3 F4@4 F5@5 F6@6 Fr@7 Br@8 Wr@9 Fr@10 Br@11 Wr@12 Fr@13 Br@14 Wr@15 Fr@16 F*7@17 B′*r@17");
    expect(d0.slice(-8).map(cell).join(" ")).toBe("B6@58 W6@59 B7@60 W7@61 B8@62 W8@63 B9@64 W9@65");
    // the last columns of device 1: B of the reverse micro-batch, B7, W, B8, W7, B9, W8, W9
    const d1 = s.events.filter((e) => e.stage === 1).sort((a, b) => a.start - b.start).slice(-8).map((e) => `${e.kind}${e.microBatch < 10 ? e.microBatch : "r"}`);
    expect(d1.join(" ")).toBe("Br B7 Wr B8 W7 B9 W8 W9");
    expect(stepTime(s)).toBe(66);
    expect(busyTimes(s)).toEqual(new Array(8).fill(60));
    expect(spanBubble(s)).toBe(scheduleClosedForm("dualpipe", 8, U).bubbleMs); // (8/2 − 1)(3 + 2 − 3) = 6
    expect(Math.max(...peakInFlight(s))).toBe(9); // PP + 1
  });
});

describe("edge cases: few micro-batches, one device", () => {
  it("ZB-H2 and ZB-V compute for any m ≥ 1 (m < 2p − 1 cuts the warm-up; ZB-V drops the missing micro-batches' passes as PyTorch does)", () => {
    for (const m of [1, 2, 3]) for (const s of [zbH2Schedule(4, m), zbVSchedule(4, m)]) expect(checkSchedule(s, { times: U })).toEqual([]);
    expect(zbH2Order(4, 0, 1).map((o) => o.kind).join("")).toBe("FBW");
    expect(zbVOrder(4, 3, 1).map((o) => `${o.kind}${o.chunk}`).join(" ")).toBe("F0 F1 B1 W1 B0 W0");
    // m = 1 leaves nothing to overlap: the step is the dependency chain, forward along the route and
    // backward back along it, then the last W: p(F + B) + W for ZB-H2; for ZB-V the chunks are half a
    // device, and device 0 runs chunk 1's W (its F-B-W group) between its two backwards: p(F + B) + 2·W/2
    expect(stepTime(zbH2Schedule(4, 1))).toBe(4 * 2 + 1);
    expect(stepTime(zbVSchedule(4, 1))).toBe(4 * 2 + 1);
  });
  it("p = 1: every zero-bubble schedule is one device running F, B, W with no bubble", () => {
    for (const s of [zbH2Schedule(1, 5), zbVSchedule(1, 5), dualPipeVSchedule(1, 2)]) {
      expect(checkSchedule(s, { times: U })).toEqual([]);
      expect(spanBubble(s)).toBe(0);
    }
  });
  it("DualPipe refuses what deepseek-ai/DualPipe refuses: odd p, odd m, m < 2p (DualPipeV: m < 2p)", () => {
    expect(() => dualPipeSchedule(3, 12)).toThrow("p must be even for DualPipe (half the devices feed each direction), got p = 3");
    expect(() => dualPipeSchedule(4, 9)).toThrow("m must be even for DualPipe (half the micro-batches go each way), got m = 9");
    expect(() => dualPipeSchedule(4, 6)).toThrow("m must be >= 2p = 8 for DualPipe (deepseek-ai/DualPipe asserts num_chunks >= num_ranks * 2), got m = 6");
    expect(() => dualPipeVSchedule(4, 7)).toThrow("m must be >= 2p = 8 for DualPipeV");
    expect(() => zbVSchedule(0, 4)).toThrow("p must be an integer >= 1, got 0");
    expect(() => closedFormBubble("zb-v", 4, 8)).toThrow(/use scheduleClosedForm/);
  });
});

const arbTimes = fc.record({ forward: fc.integer({ min: 1, max: 6 }), backward: fc.integer({ min: 1, max: 6 }), weight: fc.integer({ min: 0, max: 6 }), overlapped: fc.integer({ min: 0, max: 20 }), sendMs: fc.constantFrom(0, 0, 0.25, 1) });

describe("every generated schedule passes the validity checker (random p, m, times, sends)", () => {
  const cases: [ScheduleName, (p: number, m: number) => [number, number]][] = [
    ["zb-h2", (p, m) => [p, m]], ["zb-v", (p, m) => [p, m]], ["dualpipe", (p, m) => [2 * Math.ceil(p / 2), 2 * Math.max(m, 2 * Math.ceil(p / 2))]], ["dualpipe-v", (p, m) => [p, Math.max(m, 2 * p)]],
  ];
  for (const [name, shape] of cases) {
    it(name, () => {
      fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 20 }), arbTimes, (p0, m0, times) => {
        const [p, m] = shape(p0, m0);
        const s = generateSchedule(name, { p, m, times });
        expect(checkSchedule(s, { times })).toEqual([]);
      }), { numRuns: 40 });
    });
  }
});

describe("measured bubble and memory against the sources' closed forms (property)", () => {
  const arbPm = fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 10 }));
  const arbFBW = fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 6 })).map(([F, B, W0]) => ({ forward: F, backward: B, weight: Math.min(W0, F, B) }));
  it("ZB-H2: the bubble inside each span is (p − 1)(F + B − 2W) and 2p − 1 micro-batches are in flight, for m ≥ 2p − 1 and W ≤ F, B (Qi et al., Table 2)", () => {
    fc.assert(fc.property(arbPm, arbFBW, ([p, extra], t) => {
      const s = zbH2Schedule(p, 2 * p - 1 + extra, t), c = scheduleClosedForm("zb-h2", p, t);
      close(spanBubble(s), c.bubbleMs!);
      expect(Math.max(...peakInFlight(s))).toBe(c.activations);
    }));
  });
  it("ZB-V: zero bubble inside the spans with F = B = W and m ≥ 2p − 1, and never more in flight than 1F1B's p (§6), for any m and times", () => {
    fc.assert(fc.property(arbPm, ([p, extra]) => { expect(spanBubble(zbVSchedule(p, 2 * p - 1 + extra))).toBe(0); }));
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 20 }), arbFBW, (p, m, t) => {
      expect(Math.max(...peakInFlight(zbVSchedule(p, m, t)))).toBeLessThanOrEqual(Math.max(...peakInFlight(oneFOneBSchedule(p, m, t))));
    }));
  });
  it("ZB-V's bubble is at most ZB-H1's for any times with W ≤ F, B (Qi et al., Table 8 ranks it below ZB-H1 in every setting)", () => {
    fc.assert(fc.property(arbPm, arbFBW, ([p, extra], t) => {
      const m = 2 * p - 1 + extra;
      expect(spanBubble(zbVSchedule(p, m, t))).toBeLessThanOrEqual(spanBubble(zbH1Schedule(p, m, t)) + 1e-9);
    }));
  });
  it("DualPipe: (PP/2 − 1)(F&B + B′ − 3W) and PP + 1 in flight when F = B and F&B ≥ F + B + W (the README figure's setting); DualPipeV the same on 2p stages of half a device", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 4 }), (half, extra, FB0, W0, gain) => {
      const p = 2 * half, t = { forward: FB0, backward: FB0, weight: Math.min(W0, FB0), overlapped: 2 * FB0 + Math.min(W0, FB0) + gain };
      const d = dualPipeSchedule(p, 2 * p + 2 * extra, t), c = scheduleClosedForm("dualpipe", p, t);
      close(spanBubble(d), c.bubbleMs!);
      expect(Math.max(...peakInFlight(d))).toBe(c.activations);
      const dv = dualPipeVSchedule(half, 2 * half + extra, t), cv = scheduleClosedForm("dualpipe-v", half, t);
      close(spanBubble(dv), cv.bubbleMs!);
      expect(Math.max(...peakInFlight(dv))).toBe(cv.activations);
    }), { numRuns: 60 });
  });
  it("with an overlap that gains time (F&B < F + B + W) DualPipe's measured bubble departs from the README's form: p = 8, F = B = W = 1, F&B = 2 gives 1, not 3", () => {
    const t = { ...U, overlapped: 2 };
    expect(spanBubble(dualPipeSchedule(8, 24, t))).toBe(1);
    expect(scheduleClosedForm("dualpipe", 8, t).bubbleMs).toBe(3);
  });
  it("a synchronised step keeps ZB-H2's ramp: from first pass to last it is no shorter than ZB-H1's (p = 4, m = 8: both 27), while inside the spans it is 0", () => {
    close(stepTime(zbH2Schedule(4, 8)), stepTime(zbH1Schedule(4, 8)));
    expect(spanBubbleFraction(zbH2Schedule(4, 8))).toBe(0);
    close(bubbleFraction(zbH2Schedule(4, 8)), 3 / 24);
  });
});
