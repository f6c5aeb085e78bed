import * as fc from "fast-check";
import { callSafely, defineExercise, expectThrows, fail, formatValue, isNotImplemented, largeArray, property } from "../harness/index.js";
import { bf16round, compensatedUpdate, ulp } from "../../lib/precision/index.js";
import { trainQuantized, type TrainQuantizedOptions, type TrainQuantizedResult } from "../../lib/precision/trainQuantized.js";
import type { updateBf16 } from "./update-bf16.js";

type F = typeof updateBf16;
const reference: F = (weights, update, carry) => compensatedUpdate("bf16", weights, update, carry);

const SECTION = "see the page's section \"Training in 16 bits: the quantize step\" (src/precision.md#training-in-16-bits-the-quantize-step)";
const ACC = "see the page's section \"Accumulation: why sums need more precision than storage\" (src/precision.md#accumulation-why-sums-need-more-precision-than-storage)";
const f32 = (xs: number[]) => Float32Array.from(xs);
const isBf16 = (x: number) => Number.isNaN(x) || bf16round(x) === x;
const spacing = (x: number) => (Number.isFinite(x) ? ulp("bf16", x) : Infinity);

/** Calls the student's function on one step, checking the shape of the result (new bf16 arrays of the right length). */
async function step(f: F, w: Float32Array, u: Float32Array, c: Float32Array, hint: string, label?: string): Promise<{ weights: Float32Array; carry: Float32Array }> {
  const r = await callSafely(f, [w, u, c], { name: "updateBf16", hint, label });
  for (const k of ["weights", "carry"] as const) {
    const a = (r as unknown as Record<string, unknown>)?.[k];
    if (!(a instanceof Float32Array)) fail(`${label ?? "updateBf16(…)"} returned ${formatValue(r)}: expected { weights, carry }, two Float32Arrays`, hint);
    if (a.length !== w.length) fail(`${label ?? "updateBf16(…)"}: ${k} has ${a.length} values, expected ${w.length}`, hint);
    const i = a.findIndex((x) => !isBf16(x));
    if (i >= 0) fail(`${label ?? "updateBf16(…)"}: ${k}[${i}] = ${a[i]} is not a bf16 value (16 bits per weight and per carry)`, hint);
  }
  return r;
}

/** The rules of one call, element by element (inputs chosen so that w + u + c is exact in float64). */
function checkRules(w: Float32Array, u: Float32Array, c: Float32Array, r: { weights: Float32Array; carry: Float32Array }, hint: string): void {
  for (let i = 0; i < w.length; i++) {
    const exact = w[i]! + u[i]! + c[i]!, nw = r.weights[i]!, nc = r.carry[i]!;
    const at = `updateBf16 at index ${i}: weight ${w[i]}, update ${u[i]}, carry ${c[i]}`;
    if (!Number.isFinite(bf16round(exact))) {
      if (!Object.is(nw, bf16round(exact)) && !(Number.isNaN(nw) && Number.isNaN(exact)) || nc !== 0) fail(`${at}: returned weight ${nw}, carry ${nc}; expected weight ${bf16round(exact)} and carry 0 (a weight that is not finite owes nothing)`, hint);
      continue;
    }
    if (nw !== bf16round(exact)) fail(`${at}: the new weight is ${nw}, expected ${bf16round(exact)}, the bf16 value nearest to weight + update + carry = ${exact}`, hint);
    const lost = Math.abs(nw - exact + nc); // nw − exact is exact (two close numbers): what remains is the carry's error
    if (lost > spacing(nc) / 2) fail(`${at}: the new weight ${nw} and the new carry ${nc} leave ${lost} of weight + update + carry = ${exact} unaccounted for, more than half the spacing of the carry (${spacing(nc) / 2})`, hint);
  }
}

/** Applies `updates` (one Float32Array per step) from `w0` with carries starting at 0; returns the final weights. */
async function run(f: F, w0: number[], updates: number[][], hint: string): Promise<Float32Array> {
  let w: Float32Array = f32(w0), c: Float32Array = new Float32Array(w0.length);
  for (const u of updates) ({ weights: w, carry: c } = await step(f, w, f32(u), c, hint));
  return w;
}

// The training runs: lib/nn's small model, bf16 weights, AdamW at lr 3e-3 for 60 steps.
const RUN: TrainQuantizedOptions = { format: "bf16", steps: 60, model: { width: 16, hiddenDim: 32, numBlocks: 1 }, batchSize: 4, seqLen: 8, lr: 3e-3 };
let master: TrainQuantizedResult | undefined;
const masterRun = () => (master ??= trainQuantized(RUN));
const cache = new WeakMap<F, TrainQuantizedResult>();
async function studentRun(f: F): Promise<TrainQuantizedResult> {
  const hit = cache.get(f);
  if (hit) return hit;
  const hint = `your function keeps bf16 weights through 60 AdamW steps; ${SECTION}`;
  let r: TrainQuantizedResult;
  try {
    r = trainQuantized({ ...RUN, masterWeights: false, weightUpdate: (w, u, c) => {
      const out = f(w, u, c);
      if (out instanceof Promise) fail("updateBf16 returned a Promise: the training calls it synchronously (the contract)", hint);
      return out;
    } });
  } catch (err) {
    if (isNotImplemented(err) || (err as Error)?.name === "CheckFailure") throw err;
    fail(`trainQuantized({format: "bf16", masterWeights: false, steps: 60, weightUpdate: updateBf16}) threw ${(err as Error)?.name}: ${(err as Error)?.message}`, hint);
  }
  cache.set(f, r);
  return r;
}
const meanLast10 = (l: number[]) => l.slice(-10).reduce((a, b) => a + b, 0) / 10;

export default defineExercise({
  id: "1.5",
  title: "build it: bf16 weights without an fp32 master copy",
  chapter: "precision",
  file: "exercises/precision/update-bf16.ts",
  exportName: "updateBf16",
  signature: "updateBf16(weights: Float32Array, update: Float32Array, carry: Float32Array): { weights: Float32Array; carry: Float32Array }",
  build: true,
  section: "training-in-16-bits-the-quantize-step",
  summary:
    "Train with bf16 weights and no fp32 master copy without losing the small updates that rounding drops: your function adds one AdamW update to a bf16 weight tensor, keeping one more bf16 number per weight (its carry, what the weight still owes). The grader checks each call's rules on random values and a million weights, then trains lib/nn's model for 60 steps with it (trainQuantized, masterWeights: false): the weights must stay within 0.5 % of the fp32-master run's and the mean loss of the last 10 steps within 0.002, where rounding alone drifts by about 3 % and 0.015.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        const w = await run(f, [1], Array.from({ length: 10 }, () => [0.001]), `the stub's example: ten updates of 0.001 to a weight of 1; ${SECTION}`);
        if (w[0] !== 1.0078125) fail(`ten calls of updateBf16 with update [0.001] from weights [1], carry [0] ended at weights [${w[0]}], expected [1.0078125] (1.01 is nearest to 1 + 2^−7)`, "every update is below half of bf16's spacing at 1; what rounding drops must be kept and added back");
    } },
    { name: "updates below half a spacing still count, over many steps", points: 4, run: async (f) => {
        const hint = `a weight must follow the exact sum of its updates to within its own spacing; ${ACC}`;
        const cases: [number[], number[][]][] = [
          [[1, -3, 0.5, 100], Array.from({ length: 1000 }, () => [1e-4, 1e-4, -2e-5, 0.07])],
          [[0.25, 2], Array.from({ length: 2000 }, (_, k) => [((k * 7919) % 13 - 6) * 1.3e-5, ((k * 104729) % 17 - 8) * 3.1e-4])],
        ];
        for (const [w0, updates] of cases) {
          const w = await run(f, w0, updates, hint);
          w0.forEach((x, i) => {
            const exact = updates.reduce((s, u) => s + Math.fround(u[i]!), x);
            if (Math.abs(w[i]! - exact) > spacing(exact)) fail(`after ${updates.length} calls from weight ${x} the weight is ${w[i]}, but the updates add up to ${exact}: more than one bf16 spacing (${spacing(exact)}) away`, hint);
          });
        }
    } },
    { name: "a tie: an update of exactly half a spacing", points: 1, run: async (f) => {
        const hint = `exactly halfway between two bf16 values the weight goes to the even one, and the carry keeps the other half; ${SECTION}`;
        for (const w0 of [1, 1 + 2 ** -7, -(1 + 3 * 2 ** -7)]) {
          const w = f32([w0]), u = f32([2 ** -8 * Math.sign(w0)]), c = new Float32Array(1);
          const r = await step(f, w, u, c, hint);
          checkRules(w, u, c, r, hint);
          const r2 = await step(f, r.weights, u, r.carry, hint);
          checkRules(r.weights, u, r.carry, r2, hint);
        }
    } },
    { name: "the carry you are given counts", points: 2, run: async (f) => {
        const hint = "a carry that is not zero is part of what the weight owes: weight + update + carry, not weight + update";
        const w = f32([1, 1, -2, 0.5, 1024]), u = f32([0, 2 ** -9, 0, -(2 ** -12), 3]), c = f32([2 ** -7 * 0.75, 2 ** -9, -(2 ** -7), 2 ** -11, 5]);
        checkRules(w, u, c, await step(f, w, u, c, hint), hint);
    } },
    { name: "each call: the nearest weight, nothing lost beyond the carry's rounding", points: 4, run: (f) => property(
        fc.array(fc.tuple(fc.integer({ min: -10, max: 10 }), fc.integer({ min: 1, max: 255 }), fc.integer({ min: -(2 ** 20), max: 2 ** 20 }), fc.integer({ min: -(2 ** 19), max: 2 ** 19 }), fc.integer({ min: 0, max: 28 })), { minLength: 1, maxLength: 16 }),
        async (rows) => {
          // w a bf16 value; u a float32 of up to |w|·2^−k (20 bits of it); c a bf16 value below half a spacing of w: w + u + c is exact in float64
          const w = f32(rows.map(([e, m]) => bf16round((m / 128) * 2 ** e * (m % 2 ? -1 : 1))));
          const u = f32(rows.map(([, , x, , k], i) => x * 2 ** -20 * Math.abs(w[i]!) * 2 ** -k));
          const c = f32(rows.map(([, , , y], i) => bf16round(y * 2 ** -20 * spacing(w[i]!))));
          const hint = `the new weight is the bf16 value nearest to weight + update + carry, and the new carry keeps the rest; ${SECTION}`;
          checkRules(w, u, c, await step(f, w, u, c, hint), hint);
        }, { numRuns: 150 }) },
    { name: "overflow and NaN: the weight takes it, the carry is 0", points: 1, run: async (f) => {
        const max = 3.3895313892515355e38;
        const w = f32([max, -max, 1, 1]), u = f32([max, -max, NaN, 0]), c = f32([0, 0, 0, NaN]);
        checkRules(w, u, c, await step(f, w, u, c, "a weight that is not finite owes nothing: its carry is 0 (the contract)"), "a weight that is not finite owes nothing: its carry is 0 (the contract)");
    } },
    { name: "new arrays, inputs unchanged, lengths checked", points: 1, run: async (f) => {
        const hint = "the contract: new Float32Arrays, inputs left alone, a RangeError naming update or carry when its length differs";
        await step(f, f32([1, 2]), f32([0.1, 0.2]), f32([0, 0]), hint);
        await expectThrows(f, [f32([1, 2]), f32([1, 2, 3]), f32([0, 0])], /\bupdate\b/, { class: RangeError, hint, name: "updateBf16" });
        await expectThrows(f, [f32([1, 2]), f32([1, 2]), f32([0])], /\bcarry\b/, { class: RangeError, hint, name: "updateBf16" });
    } },
    { name: "a million weights (a loop, not a spread)", points: 1, run: async (f) => {
        const n = 1_000_000;
        const w = Float32Array.from(largeArray(n, 5, (_i, r) => bf16round(4 * r() - 2)));
        const u = Float32Array.from(largeArray(n, 6, (_i, r) => (r() - 0.5) * 1e-3));
        const c = new Float32Array(n);
        const r = await step(f, w, u, c, "a tensor of a million weights", `updateBf16(a million weights, updates and zero carries)`);
        for (const i of [0, 1, 499_999, n - 1]) checkRules(w.subarray(i, i + 1), u.subarray(i, i + 1), c.subarray(i, i + 1), { weights: r.weights.subarray(i, i + 1), carry: r.carry.subarray(i, i + 1) }, "every element, the last one too");
    } },
    { name: "training: the weights track the fp32-master run (≤ 0.5 %)", points: 5, run: async (f) => {
        const got = await studentRun(f), want = masterRun();
        let d2 = 0, n2 = 0;
        want.weights.forEach((w, p) => w.forEach((x, i) => { d2 += (got.weights[p]![i]! - x) ** 2; n2 += x * x; }));
        const rel = Math.sqrt(d2 / n2);
        if (!(rel <= 0.005)) fail(`after 60 steps the bf16 weights are ${(100 * rel).toFixed(2)} % away from the fp32-master run's (relative L2 distance), more than 0.5 % (rounding alone: about 3 %)`, `what a weight cannot take this step must reach it later; ${SECTION}`);
    } },
    { name: "training: the loss matches the fp32-master run's (last 10 steps within 0.002)", points: 4, run: async (f) => {
        const got = meanLast10((await studentRun(f)).losses), want = meanLast10(masterRun().losses);
        if (!(Math.abs(got - want) <= 0.002)) fail(`the mean loss of the last 10 steps is ${got.toFixed(4)}, the fp32-master run's ${want.toFixed(4)}: ${Math.abs(got - want).toFixed(4)} apart, more than 0.002 (rounding alone: about 0.015)`, `the lost updates slow training down; ${SECTION}`);
    } },
  ],
});
