import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { bubbleFraction, generateSchedule, closedFormBubble, type ScheduleName } from "../../lib/pipeline-parallel/index.js";
import { mulberry32 } from "../../lib/random.js";
import type { bubbleFractionOf } from "./bubble-fraction.js";

type F = typeof bubbleFractionOf;
type Ev = Parameters<F>[0][number];
function check(events: Ev[]): void {
  if (!Array.isArray(events) || events.length === 0) throw new RangeError("events must not be empty");
  events.forEach((e, i) => {
    if (!Number.isFinite(e.start) || e.start < 0) throw new RangeError(`events[${i}].start must be a finite number >= 0, got ${e.start}`);
    if (!(e.end >= e.start)) throw new RangeError(`events[${i}].end must be >= start, got ${e.end} < ${e.start}`);
  });
}
const reference: F = (events) => {
  check(events);
  const p = Math.max(...events.map((e) => e.stage)) + 1;
  return bubbleFraction({ name: "gpipe", p, m: 1, v: 1, splitBackward: false, events });
};
const TOL = { abs: 1e-12, rel: 1e-12 };
const shuffle = <T,>(xs: T[], seed: number) => { const r = mulberry32(seed); const a = [...xs]; for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } return a; };
const events = (name: ScheduleName, p: number, m: number, v: number, times?: object) => generateSchedule(name, { p, m: name === "interleaved" ? m * p : m, v, times: times as never }).events as Ev[];
const same = (f: F, es: Ev[], hint: string) => expectSame(f, reference, [es], { tol: TOL, hint, name: "bubbleFractionOf" });

/** expectThrows, and the error's class must be RangeError (the contract names it). */
async function expectRangeError<G extends (...a: never[]) => unknown>(f: G, args: Parameters<G>, pattern: RegExp, hint?: string): Promise<void> {
  await expectThrows(f as never, args as never, pattern, { class: RangeError, hint: hint ?? "the stub's contract names the error class" });
}

export default defineExercise<F>({
  id: "7.3",
  kind: "transcription",
  title: "bubble fraction from events",
  chapter: "pipeline-parallel",
  section: "measuring-the-bubble",
  file: "exercises/pipeline-parallel/bubble-fraction.ts",
  exportName: "bubbleFractionOf",
  signature: "bubbleFractionOf(events: {stage, microBatch, kind, chunk, start, end}[]): number",
  summary:
    "From a step's timed passes (any order, any schedule, unequal stages), return (step time − ideal time) / ideal time, where the ideal time is the busiest stage's compute time. Empty input or a bad start/end: RangeErrors naming the event.",
  reference,
  checks: [
    { name: "the stub's example", points: 2, run: async (f) => {
        await same(f, events("naive", 2, 1, 1), "one micro-batch on two stages: each stage idles half the step");
    } },
    { name: "equal stages: the closed forms", points: 2, run: (f) =>
        property(fc.tuple(fc.constantFrom<ScheduleName>("gpipe", "1f1b", "interleaved"), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 3 })), async ([name, p, m, v]) => {
          const es = events(name, p, m, v);
          await expectSame(f, (() => closedFormBubble(name, p, name === "interleaved" ? m * p : m, name === "interleaved" ? v : 1)) as F, [es], { tol: { abs: 1e-9, rel: 1e-9 }, hint: "see the section on measuring the bubble", name: "bubbleFractionOf" });
        }, { numRuns: 60 }) },
    { name: "unequal stages, W passes, shuffled events", points: 2, run: (f) =>
        property(fc.tuple(fc.constantFrom<ScheduleName>("gpipe", "1f1b", "zb-h1", "naive"), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 8 }), fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 10, maxLength: 10 }), fc.integer()), async ([name, p, m, r, seed]) => {
          const t = { forward: r.slice(0, p), backward: r.slice(5, 5 + p), weight: r.slice(0, p).map((x) => x / 2), sendMs: 0.5 };
          await same(f, shuffle(events(name, p, m, 1, t), seed), "the ideal time is the busiest stage's compute time; the events are not sorted");
        }, { numRuns: 80 }) },
    { name: "bad input", points: 2, run: async (f) => {
        const es = events("gpipe", 2, 2, 1);
        await expectRangeError(f, [[]], /^events must not be empty$/);
        await expectRangeError(f, [es.map((e, i) => (i === 3 ? { ...e, start: -1 } : e))], /^events\[3\]\.start must be a finite number >= 0, got -1$/);
        await expectRangeError(f, [es.map((e, i) => (i === 2 ? { ...e, end: e.start - 0.5 } : e))], /^events\[2\]\.end must be >= start, got /);
    } },
  ],
});
