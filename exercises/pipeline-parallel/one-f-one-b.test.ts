import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property, fail } from "../harness/index.js";
import { oneFOneBSchedule, checkSchedule, peakInFlight, trainPipeline, trainOneDevice, type Schedule } from "../../lib/pipeline-parallel/index.js";
import type { oneFOneBEvents, PassEvent } from "./one-f-one-b.js";

type F = typeof oneFOneBEvents;
const reference: F = (p, m, times) => oneFOneBSchedule(p, m, times).events as PassEvent[];
const order = (es: PassEvent[]) => (Array.isArray(es) ? [...es].sort((a, b) => a.stage - b.stage || a.start - b.start || a.kind.localeCompare(b.kind) || a.microBatch - b.microBatch) : es);
const sorted = (g: F): F => (p, m, t) => order(g(p, m, t));
const TOL = { abs: 1e-9, rel: 1e-9 };
const same = (f: F, args: Parameters<F>, hint: string) => expectSame(sorted(f), sorted(reference), args, { tol: TOL, hint, name: "oneFOneBEvents (sorted by stage, start)" });
const times = (p: number, rnd: number[], send = 0) => ({ forward: rnd.slice(0, p), backward: rnd.slice(p, 2 * p).map((x) => x + 0.5), sendMs: send });
const arb = fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 10 }), fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 12, maxLength: 12 }), fc.constantFrom(0, 0.25, 1.5));
const unit = (p: number) => ({ forward: new Array(p).fill(1), backward: new Array(p).fill(2), sendMs: 0 });
const asSchedule = (p: number, m: number, events: PassEvent[]): Schedule => ({ name: "1f1b", p, m, v: 1, splitBackward: false, events });

const TRAIN = { m: 6, steps: 2 };
let oneDevice: Float32Array[] | undefined;
const bitEqual = (a: Float32Array[], b: Float32Array[]) => a.length === b.length && a.every((w, i) => w.length === b[i].length && w.every((x, k) => Object.is(x, b[i][k])));

/** expectThrows, and the error's class must be RangeError (the contract names it). */
async function expectRangeError<G extends (...a: never[]) => unknown>(f: G, args: Parameters<G>, pattern: RegExp, hint?: string): Promise<void> {
  await expectThrows(f as never, args as never, pattern, { class: RangeError, hint: hint ?? "the stub's contract names the error class" });
}

export default defineExercise<F>({
  id: "7.4",
  title: "build it: 1F1B drives pipeline training",
  chapter: "pipeline-parallel",
  section: "1-f1-b",
  build: true,
  file: "exercises/pipeline-parallel/one-f-one-b.ts",
  exportName: "oneFOneBEvents",
  signature: "oneFOneBEvents(p: number, m: number, times: { forward: number[], backward: number[], sendMs: number }): PassEvent[]",
  summary:
    "Generate 1F1B (PipeDream-Flush) as timed events for any p and m (also m < p): stage s holds at most min(p − s, m) micro-batches, passes in micro-batch order, each as early as its stage and input allow. Graded by the course's validity checker, exact timings, the in-flight limit, and by training lib/nn's model on p = 2 and 4 simulated stages in the order of your events: the weights must equal one device's bit for bit.",
  reference,
  checks: [
    { name: "the stub's example", points: 3, run: async (f) => {
        await same(f, [2, 2, { forward: [1, 1], backward: [1, 1], sendMs: 0 }], "stage 1 runs B0 right after F0: one forward, one backward");
    } },
    { name: "passes the course's validity checker", points: 3, run: (f) =>
        property(arb, async ([p, m, rnd, send]) => {
          const t = times(p, rnd, send);
          const v = checkSchedule(asSchedule(p, m, await sorted(f)(p, m, t)), { times: t });
          if (v.length) fail(`oneFOneBEvents(${p}, ${m}, ${JSON.stringify(t)}): ${v.slice(0, 2).join("; ")}`, "every pass once, after its inputs, one pass per stage at a time, with its own duration");
        }, { numRuns: 60 }) },
    { name: "at most min(p − s, m) micro-batches in flight on stage s", points: 5, run: (f) =>
        property(fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 16 })), async ([p, m]) => {
          const peaks = peakInFlight(asSchedule(p, m, await sorted(f)(p, m, unit(p))));
          peaks.forEach((x, s) => { if (x > Math.min(p - s, m)) fail(`oneFOneBEvents(${p}, ${m}, F = 1, B = 2): stage ${s} holds ${x} micro-batches in flight, at most ${Math.min(p - s, m)} allowed`, "see the 1F1B section: how many forwards before the first backward?"); });
        }, { numRuns: 60 }) },
    { name: "exact timings, unequal stages and sends", points: 5, run: (f) =>
        property(arb, ([p, m, rnd, send]) => same(f, [p, m, times(p, rnd, send)], "see the chapter's 1F1B section: the warm-up on each stage and the order that follows").then(() => {}), { numRuns: 80 }) },
    { name: "trains lib/nn to one device's weights (p = 2 and 4)", points: 5, run: async (f) => {
        oneDevice ??= trainOneDevice({ p: 1, ...TRAIN }).weights;
        for (const p of [2, 4]) {
          let got: Float32Array[];
          try {
            got = trainPipeline((pp, m) => f(pp, m, unit(pp)) as never, { p, ...TRAIN }).weights;
          } catch (e) {
            if ((e as Error)?.name === "NotImplementedError") throw e;
            fail(`trainPipeline(your 1F1B, p = ${p}, m = ${TRAIN.m}) failed: ${(e as Error).message}`, "the trainer runs your events in time order; see the section on training on simulated stages");
          }
          if (!bitEqual(got, oneDevice)) fail(`trainPipeline(your 1F1B, p = ${p}, m = ${TRAIN.m}): the weights differ from one device's`, "each parameter must receive its micro-batches' gradients in the order 0 … m−1");
        }
    } },
    { name: "bad input names the field", points: 3, run: async (f) => {
        const t = { forward: [1, 1, 1], backward: [1, 1, 1], sendMs: 0 };
        await expectRangeError(f, [0, 4, t], /^p must be an integer >= 1, got 0$/);
        await expectRangeError(f, [3, 0, t], /^m must be an integer >= 1, got 0$/);
        await expectRangeError(f, [3, 4, { ...t, forward: [1, 1] }], /^times.forward must have p = 3 entries, got 2$/);
        await expectRangeError(f, [3, 4, { ...t, backward: [1, -1, 1] }], /^times.backward\[1\] must be a finite number >= 0, got -1$/);
    } },
  ],
});
