import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { routeLength, routeStep, routePosition, passShare, checkPlacement, checkSchedule, zbVSchedule, dualPipeSchedule, timeOrders, type Placement, type Schedule } from "./index.js";

describe("routes of the three placements (worked examples)", () => {
  it("V, p = 4: device 0 holds the first and the last of the 8 chunks (layers 1–2 and 15–16 of 16, Qi et al. §6)", () => {
    const l = { p: 4, m: 1, v: 2, placement: "v" as const };
    expect(Array.from({ length: 8 }, (_, k) => routeStep(l, k, 0).stage)).toEqual([0, 1, 2, 3, 3, 2, 1, 0]);
    expect(routePosition(l, 0, 1, 0)).toBe(7);
    expect(passShare(l)).toBe(0.5);
  });
  it("DualPipe, p = 4, m = 8: micro-batches 0–3 run chunk 0 from device 0, 4–7 run chunk 1 from device 3; each pass is a whole stage", () => {
    const l = { p: 4, m: 8, v: 2, placement: "dualpipe" as const };
    expect(Array.from({ length: 4 }, (_, k) => routeStep(l, k, 2))).toEqual([0, 1, 2, 3].map((s) => ({ stage: s, chunk: 0 })));
    expect(Array.from({ length: 4 }, (_, k) => routeStep(l, k, 5))).toEqual([3, 2, 1, 0].map((s) => ({ stage: s, chunk: 1 })));
    expect(routePosition(l, 0, 1, 2)).toBe(-1); // micro-batch 2 never visits chunk 1
    expect([routeLength(l), passShare(l)]).toEqual([4, 1]);
  });
  it("names the bad placement", () => {
    expect(() => checkPlacement({ p: 2, m: 2, v: 2, placement: "w" as Placement })).toThrow('placement must be one of loop, v, dualpipe, got "w"');
    expect(() => checkPlacement({ p: 2, m: 2, v: 1, placement: "dualpipe" })).toThrow('placement "dualpipe" needs v = 2 (two stages per device), got v = 1');
  });
});

describe("routePosition inverts routeStep (property)", () => {
  it("for every placement, p, v, micro-batch and position", () => {
    fc.assert(fc.property(fc.constantFrom<Placement>("loop", "v", "dualpipe"), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 10 }), fc.nat(), fc.nat(), (pl, p, v0, m, j0, k0) => {
      const l = { p, m, v: pl === "dualpipe" ? 2 : v0, placement: pl }, j = j0 % m, k = k0 % routeLength(l);
      const at = routeStep(l, k, j);
      expect(routePosition(l, at.stage, at.chunk, j)).toBe(k);
    }));
  });
});

describe("the checker knows the V and the two directions", () => {
  const v = zbVSchedule(3, 5), d = dualPipeSchedule(4, 8);
  const mutate = (s: Schedule, f: (e: Schedule["events"]) => Schedule["events"]): Schedule => ({ ...s, events: f(s.events.map((e) => ({ ...e }))) });
  it("read with the loop placement, ZB-V's events break the dependencies (chunk 1 would run 0 → p − 1)", () => {
    expect(checkSchedule(v)).toEqual([]);
    expect(checkSchedule({ ...v, placement: "loop" }).join()).toMatch(/before F of the previous stage ends/);
  });
  it("a chunk the micro-batch's direction never visits is a bad event; a missing W, a W after a full B and an unpaired overlapped pass are reported", () => {
    expect(checkSchedule(mutate(d, (es) => { es[0].chunk = 1 - es[0].chunk; return es; })).join()).toMatch(/bad event/);
    expect(checkSchedule(mutate(d, (es) => es.filter((e, i) => i !== es.findIndex((x) => x.kind === "W")))).join()).toMatch(/W of micro-batch \d+ on stage \d+, chunk \d is missing/);
    const fullB = d.events.find((e) => e.kind === "B" && e.full)!;
    expect(checkSchedule(mutate(d, (es) => [...es, { ...fullB, kind: "W", full: undefined, overlapped: undefined, start: 1000, end: 1001 }])).join()).toMatch(/but its B was full/);
    expect(checkSchedule(mutate(d, (es) => { es.find((e) => e.overlapped && e.kind === "B")!.overlapped = undefined; return es; })).join()).toMatch(/flagged overlapped|two passes at once/);
  });
  it("an overlapped pair lasts F&B: with times given, a pair stretched to F + B + W fails when F&B is 2", () => {
    const t = { forward: 1, backward: 1, weight: 1, overlapped: 2 };
    expect(checkSchedule(dualPipeSchedule(4, 8, t), { times: t })).toEqual([]);
    expect(checkSchedule(d, { times: t }).join()).toMatch(/\(overlapped\) of micro-batch \d+ on stage \d+, chunk \d lasts 3, expected 2/);
  });
  it("timeOrders refuses a pass off the route and a pair that is not an F with a B", () => {
    expect(() => timeOrders([[{ kind: "F", microBatch: 0, chunk: 1 }]], 1, 2, 2, { forward: 1, backward: 1 }, false, { placement: "dualpipe" })).toThrow(/not on that micro-batch's route/);
    expect(() => timeOrders([[{ kind: "F", microBatch: 0, chunk: 0, with: { kind: "W", microBatch: 0, chunk: 0 } }]], 1, 1, 1, { forward: 1, backward: 1 }, true)).toThrow(/an overlapped pair is an F with a B/);
  });
});
