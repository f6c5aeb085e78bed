import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { simulateOptimizerStep, zbH2Schedule, zbVSchedule, zbH1Schedule, oneFOneBSchedule, dualPipeSchedule, stepTime, ordersOf, type Schedule, type StepFault } from "./index.js";

const U = { forward: 1, backward: 1, weight: 1 };
const base = { times: U, optimizerMs: 1, allReduceMs: 0.5, stateSendMs: 0 };

describe("simulateOptimizerStep: the synchronisation the all-reduce forces (worked example, ZB-H2, p = 4, m = 8)", () => {
  const s = zbH2Schedule(4, 8);
  it("synchronised: every iteration lasts the step (27) + the all-reduce + the optimizer step, the same on every device", () => {
    const r = simulateOptimizerStep(s, { ...base, iterations: 3, postValidation: false });
    expect(r.totalMs).toBe(3 * (stepTime(s) + 0.5 + 1));
    expect(r.events.filter((e) => e.kind === "allreduce").map((e) => e.start)).toEqual(new Array(4).fill(27).concat(new Array(4).fill(55.5), new Array(4).fill(84)));
  });
  it("post-validation: each device steps as soon as its partial state is in, so the parallelogram tiles: 3 iterations take 3(24 + 1) + 3 = 78", () => {
    const r = simulateOptimizerStep(s, { ...base, iterations: 3, postValidation: true });
    expect(r.totalMs).toBe(78);
    expect(r.events.filter((e) => e.kind === "step" && e.iteration === 0).map((e) => [e.stage, e.start])).toEqual([[0, 24], [1, 25], [2, 26], [3, 27]]);
    expect(r.events.filter((e) => e.kind === "validate").length).toBe(3 * 4); // every step validated once, in the next iteration or at the end
    expect(r.outcomes.flat().every((x) => x === "update")).toBe(true);
  });
  it("ZB-V too: 3(24 + 1) + (p − 1)·F/2 = 76.5 against 3(25.5 + 1.5) = 81 synchronised", () => {
    const v = zbVSchedule(4, 8);
    expect(simulateOptimizerStep(v, { ...base, iterations: 3, postValidation: true }).totalMs).toBe(76.5);
    expect(simulateOptimizerStep(v, { ...base, iterations: 3, postValidation: false }).totalMs).toBe(81);
  });
});

describe("the rollback path (an inf, a clip)", () => {
  const s = zbH2Schedule(4, 8);
  it("an inf on stage 2 in iteration 0: stages 0 and 1 stepped eagerly and roll back, 2 and 3 never stepped; the forwards 0 and 1 ran before the validation are discarded and rerun", () => {
    const r = simulateOptimizerStep(s, { ...base, iterations: 2, postValidation: true, faults: [{ iteration: 0, stage: 2, kind: "inf" }] });
    expect(r.rollbacks[0]).toEqual([true, true, false, false]);
    expect(r.outcomes[0]).toEqual(["skipped", "skipped", "skipped", "skipped"]);
    const discarded = r.events.filter((e) => e.discarded);
    expect(new Set(discarded.map((e) => e.stage))).toEqual(new Set([0, 1]));
    expect(discarded.every((e) => e.kind === "F" && e.iteration === 1)).toBe(true);
    // stage 0 validated when the global state came back from stage 3 (27), then rolled back for 1 unit, then restarted
    const v0 = r.events.find((e) => e.kind === "validate" && e.stage === 0 && e.iteration === 0)!;
    expect(v0.start).toBe(Math.max(27, 25 + 7)); // the state arrives at 27; stage 0's seven warm-up forwards end at 32
    expect(Math.min(...r.events.filter((e) => e.stage === 0 && e.iteration === 1 && !e.discarded && e.kind === "F").map((e) => e.start))).toBe(v0.start + 1);
  });
  it("a clip first seen on stage 1: stage 0 rolls back and steps again with clipped gradients, the others step once, clipped", () => {
    const r = simulateOptimizerStep(s, { ...base, iterations: 2, postValidation: true, faults: [{ iteration: 1, stage: 1, kind: "clip" }] });
    expect(r.outcomes).toEqual([new Array(4).fill("update"), new Array(4).fill("clipped")]);
    expect(r.rollbacks[1]).toEqual([true, false, false, false]);
  });
  it("what stands after every check equals the synchronised run, for random schedules and faults (post-validation keeps synchronous semantics)", () => {
    const scheds: Schedule[] = [oneFOneBSchedule(3, 5, U), zbH1Schedule(4, 6), zbH2Schedule(3, 7), zbVSchedule(3, 6), dualPipeSchedule(4, 8)];
    fc.assert(fc.property(fc.integer({ min: 0, max: scheds.length - 1 }), fc.array(fc.record({ iteration: fc.integer({ min: 0, max: 2 }), stage: fc.nat(), kind: fc.constantFrom<"inf" | "clip">("inf", "clip") }), { maxLength: 3 }), fc.constantFrom(0, 0.25, 2), (i, fs, send) => {
      const sc = scheds[i];
      const faults: StepFault[] = fs.map((f) => ({ ...f, stage: f.stage % sc.p }));
      const o = { ...base, stateSendMs: send, iterations: 3, faults };
      const pv = simulateOptimizerStep(sc, { ...o, postValidation: true }), sync = simulateOptimizerStep(sc, { ...o, postValidation: false });
      expect(pv.outcomes).toEqual(sync.outcomes);
      expect(pv.outcomes.flat()).not.toContain("invalid");
    }), { numRuns: 60 });
  });
  it("without faults and with free state messages, post-validation is never slower than the all-reduce (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 12 }), fc.constantFrom("1f1b", "zb-h1", "zb-h2", "zb-v"), fc.constantFrom(0, 0.5, 3), (p, m, name, ar) => {
      const sc = name === "1f1b" ? oneFOneBSchedule(p, m, U) : name === "zb-h1" ? zbH1Schedule(p, m) : name === "zb-h2" ? zbH2Schedule(p, m) : zbVSchedule(p, m);
      const o = { ...base, allReduceMs: ar, iterations: 2 };
      expect(simulateOptimizerStep(sc, { ...o, postValidation: true }).totalMs).toBeLessThanOrEqual(simulateOptimizerStep(sc, { ...o, postValidation: false }).totalMs + 1e-9);
    }), { numRuns: 60 });
  });
});

describe("inputs", () => {
  it("ordersOf reads back the orders a schedule was generated from (pairs as one op)", () => {
    const d = dualPipeSchedule(4, 8);
    expect(ordersOf(d).flat().filter((o) => o.with).length).toBe(d.events.filter((e) => e.overlapped).length / 2);
  });
  it("names the bad field", () => {
    const s = zbH2Schedule(2, 3);
    expect(() => simulateOptimizerStep(s, { ...base, optimizerMs: -1, postValidation: true })).toThrow("optimizerMs must be a finite number >= 0, got -1");
    expect(() => simulateOptimizerStep(s, { ...base, iterations: 0, postValidation: true })).toThrow("iterations must be an integer >= 1, got 0");
    expect(() => simulateOptimizerStep(s, { ...base, postValidation: true, faults: [{ iteration: 0, stage: 4, kind: "inf" }] })).toThrow("faults[0].stage must be an integer from 0 to 1, got 4");
  });
});
