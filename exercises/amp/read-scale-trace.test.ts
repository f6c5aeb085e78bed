import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, largeArray, property } from "../harness/index.js";
import { readScaleTrace as libRead, updateScale } from "../../lib/amp/index.js";
import type { readScaleTrace } from "./read-scale-trace.js";

type F = typeof readScaleTrace;
const reference: F = (scales, fromStart) => libRead(scales, fromStart);

const SECTION = "the-loss-scale-trace";
const see = "see the page's sections \"PyTorch's GradScaler\" (src/amp.md#py-torchs-grad-scaler) and \"The loss-scale trace\" (src/amp.md#the-loss-scale-trace)";
const same = (f: F, scales: number[], fromStart: boolean, hint: string) => expectSame(f, reference, [scales, fromStart], { name: "readScaleTrace", hint });

/** A trace made by the course's updateScale: scales before each step and after the last, from tracker t0. */
function trace(init: number, t0: number, infs: boolean[], growthFactor: number, backoffFactor: number, growthInterval: number): number[] {
  let s = { scale: init, growthTracker: t0 };
  const out = [s.scale];
  for (const inf of infs) { s = updateScale(s.scale, s.growthTracker, inf, { growthFactor, backoffFactor, growthInterval }); out.push(s.scale); }
  return out;
}
const pattern = (text: string) => [...text].map((c) => c === "x"); // "x" a skipped step, "." a clean one

export default defineExercise({
  id: "4.3",
  kind: "concept",
  title: "read a loss-scale trace",
  chapter: "amp",
  section: SECTION,
  file: "exercises/amp/read-scale-trace.ts",
  exportName: "readScaleTrace",
  signature: "readScaleTrace(scales: number[], fromStart: boolean): { skipped, growthFactor, backoffFactor, growthInterval }",
  summary:
    "A training log kept GradScaler's scale at every step. Work backwards through update(): which steps were skipped, and the growth factor, backoff factor and growth interval, each only as far as the trace shows it. A log that starts in the middle of training does not show the growth tracker, so its first growth does not give the interval; a scale at float32's top cannot grow. A trace no GradScaler can make is refused.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectCall(f, [[65536, 65536, 131072, 65536, 65536, 131072], true], { skipped: [2], growthFactor: 2, backoffFactor: 0.5, growthInterval: 2 }, { name: "readScaleTrace", hint: `the stub's example; ${see}` });
    } },
    { name: "skips and growths from the start", points: 2, run: async (f) => {
        for (const [p, g, b, n] of [["..x...x.....", 2, 0.5, 3], ["xx..........", 4, 0.25, 5], ["............", 2, 0.5, 4], [".x.x.x.x", 2, 0.125, 1]] as const) {
          await same(f, trace(2 ** 16, 0, pattern(p), g, b, n), true, `a falling scale is a skip, a rising one a growth on the interval-th clean step since the tracker was 0; ${see}`);
        }
    } },
    { name: "what the trace cannot show is null", points: 2, run: async (f) => {
        for (const [p, n] of [["....", 5], ["x...", 5], ["", 3]] as const) {
          await same(f, trace(2 ** 16, 0, pattern(p), 2, 0.5, n), true, "a factor never seen, an interval never reached: null, not a guess");
        }
    } },
    { name: "from the middle of training: the tracker is unknown", points: 2, run: async (f) => {
        // the log starts with the tracker at 3 of 4: the first growth comes after one clean step, which says nothing about the interval
        for (const [t0, p] of [[3, "......."], [3, "..x......"], [1, "x....x....."], [2, "...."]] as const) {
          await same(f, trace(2 ** 16, t0, pattern(p), 2, 0.5, 4), false, "mid-run, the tracker at the first step is unknown: count from a skip or a growth you saw, not from the start of the log");
        }
    } },
    { name: "the top of float32: a growth that cannot happen", points: 1, run: async (f) => {
        await same(f, trace(2 ** 125, 0, pattern("........"), 2, 0.5, 2), true, "at 2^127 a growth would give Infinity in float32: the scale stays, and the tracker still restarts");
        await same(f, trace(2 ** 126, 0, pattern("....x...."), 2, 0.5, 1), true, "at 2^127 a growth would give Infinity in float32: the scale stays, and the tracker still restarts");
    } },
    { name: "a trace no GradScaler makes is refused", points: 1, run: async (f) => {
        for (const s of [[8, 4, 1], [8, 16, 64], [8, 8, 16, 8, 8, 8, 16]]) {
          await expectThrows(f, [s, true], /^not a GradScaler trace/, { class: RangeError, name: "readScaleTrace", hint: "two different factors, or two different intervals, cannot come from one scaler" });
        }
    } },
    { name: "random traces", points: 1, run: (f) => property(
        fc.record({ g: fc.constantFrom(2, 4, 8), b: fc.constantFrom(0.5, 0.25), n: fc.integer({ min: 1, max: 8 }), t0: fc.nat(7), fromStart: fc.boolean(), infs: fc.array(fc.boolean(), { maxLength: 60 }), log2: fc.integer({ min: -20, max: 40 }) }),
        async (r) => { await same(f, trace(2 ** r.log2, r.fromStart ? 0 : r.t0 % r.n, r.infs, r.g, r.b, r.n), r.fromStart, `compare with the cases above; ${see}`); }, { numRuns: 200 }) },
    { name: "bad scales: a RangeError naming the index", points: 1, run: async (f) => {
        for (const s of [[8, 0], [8, -4], [8, NaN], [Infinity, 8], [8, "4" as unknown as number]]) await expectThrows(f, [s, true], /scales\[\d\]/, { class: RangeError, name: "readScaleTrace", hint: "the contract's error names the index of the bad scale" });
    } },
    { name: "a million steps", points: 1, run: async (f) => {
        const infs = largeArray(1_000_000, 21, (_i, r) => (r() < 0.0005 ? 1 : 0)).map((x) => x === 1);
        await same(f, trace(2 ** 16, 0, infs, 2, 0.5, 1000), true, "a log of a million steps: a loop over it (no recursion, no spread)");
    } },
  ],
});
