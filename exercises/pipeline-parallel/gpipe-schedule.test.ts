import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { gpipeSchedule, checkSchedule } from "../../lib/pipeline-parallel/index.js";
import type { gpipeEvents, PassEvent } from "./gpipe-schedule.js";

type F = typeof gpipeEvents;
const reference: F = (p, m, times) => gpipeSchedule(p, m, times).events as PassEvent[];
const order = (es: PassEvent[]) => (Array.isArray(es) ? [...es].sort((a, b) => a.stage - b.stage || a.start - b.start || a.kind.localeCompare(b.kind) || a.microBatch - b.microBatch) : es);
const sorted = (g: F): F => (p, m, t) => order(g(p, m, t));
const TOL = { abs: 1e-9, rel: 1e-9 };
const same = (f: F, args: Parameters<F>, hint: string) => expectSame(sorted(f), sorted(reference), args, { tol: TOL, hint, name: "gpipeEvents (sorted by stage, start)" });
const times = (p: number, rnd: number[], send = 0) => ({ forward: rnd.slice(0, p), backward: rnd.slice(p, 2 * p).map((x) => x + 0.5), sendMs: send });
const arb = fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 10 }), fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 12, maxLength: 12 }), fc.constantFrom(0, 0.25, 1.5));

/** expectThrows, and the error's class must be RangeError (the contract names it). */
async function expectRangeError<G extends (...a: never[]) => unknown>(f: G, args: Parameters<G>, pattern: RegExp, hint?: string): Promise<void> {
  await expectThrows(f as never, args as never, pattern, { class: RangeError, hint: hint ?? "the stub's contract names the error class" });
}

export default defineExercise<F>({
  id: "7.2",
  kind: "concept",
  title: "GPipe schedule",
  chapter: "pipeline-parallel",
  section: "g-pipe",
  file: "exercises/pipeline-parallel/gpipe-schedule.ts",
  exportName: "gpipeEvents",
  signature: "gpipeEvents(p: number, m: number, times: { forward: number[], backward: number[], sendMs: number }): PassEvent[]",
  summary:
    "All forwards, then all backwards, on p stages for m micro-batches, each pass as early as its stage and its input allow (sends take sendMs). Return the 2·p·m timed events {stage, microBatch, kind, chunk: 0, start, end}. Stages may differ in speed. Bad p, m or times: RangeErrors naming the field.",
  reference,
  checks: [
    { name: "the stub's example", points: 3, run: async (f) => {
        await same(f, [2, 1, { forward: [1, 1], backward: [1, 1], sendMs: 0 }], "one micro-batch: F0 F1 B1 B0 one after the other");
        await same(f, [3, 4, { forward: [1, 1, 1], backward: [2, 2, 2], sendMs: 0 }], "equal stages; see the GPipe section and its worked example");
    } },
    { name: "passes the course's validity checker", points: 2, run: (f) =>
        property(arb, async ([p, m, rnd, send]) => {
          const t = times(p, rnd, send);
          const events = await sorted(f)(p, m, t);
          const v = checkSchedule({ name: "gpipe", p, m, v: 1, splitBackward: false, events }, { times: t });
          if (v.length) throw new Error(`gpipeEvents(${p}, ${m}, ${JSON.stringify(t)}): ${v.slice(0, 2).join("; ")}`);
        }, { numRuns: 80 }) },
    { name: "exact timings, unequal stages and sends", points: 5, run: (f) =>
        property(arb, ([p, m, rnd, send]) => same(f, [p, m, times(p, rnd, send)], "a pass waits for its device and for its input plus one send").then(() => {}), { numRuns: 80 }) },
    { name: "bad input names the field", points: 2, run: async (f) => {
        const t = { forward: [1, 1, 1], backward: [1, 1, 1], sendMs: 0 };
        await expectRangeError(f, [0, 4, t], /^p must be an integer >= 1, got 0$/);
        await expectRangeError(f, [3, 2.5, t], /^m must be an integer >= 1, got 2.5$/);
        await expectRangeError(f, [3, 4, { ...t, forward: [1, 1] }], /^times.forward must have p = 3 entries, got 2$/);
        await expectRangeError(f, [3, 4, { ...t, backward: [1, -1, 1] }], /^times.backward\[1\] must be a finite number >= 0, got -1$/);
        await expectRangeError(f, [3, 4, { ...t, sendMs: NaN }], /^times.sendMs must be a finite number >= 0, got NaN$/);
    } },
  ],
});
