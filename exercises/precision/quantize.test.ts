import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, fail, isNotImplemented, property } from "../harness/index.js";
import { castArray, formatWithBits, FORMATS, toHex } from "../../lib/precision/index.js";
import { trainQuantized, type TrainQuantizedOptions, type TrainQuantizedResult } from "../../lib/precision/trainQuantized.js";
import { createModel, corpus, DEFAULT_MODEL } from "../../lib/nn/index.js";
import type { quantize } from "./quantize.js";

type Quantize = typeof quantize;

const reference: Quantize = (values, format) => {
  if (format !== "fp16" && format !== "bf16") throw new RangeError(`format must be "fp16" or "bf16", got "${String(format)}"`);
  if (!(values instanceof Float32Array)) throw new TypeError("values must be a Float32Array");
  return castArray(format, values);
};

const SECTION = "see the page's section \"Training in 16 bits: the quantize step\" (src/precision.md#training-in-16-bits-the-quantize-step)";
const ROUNDING = "see the page's sections \"Rounding: to nearest, ties to even\" and \"Range: overflow, underflow and subnormals\"";
const f32 = (xs: number[]) => Float32Array.from(xs);
const fmtOf = (format: "fp16" | "bf16") => (v: unknown) => formatWithBits(format, v);
const same = (f: Quantize, values: Float32Array, format: "fp16" | "bf16", hint: string, label?: string) =>
  expectSame(f, reference, [values, format], { name: "quantize", format: fmtOf(format), hint, label, signedZero: true });

// The runs of the build exercise: a small lib/nn model so that the whole exercise grades in a few seconds.
const RUN = { model: { width: 16, hiddenDim: 32, numBlocks: 1 }, batchSize: 4, seqLen: 8, lr: 1e-2 };
const RUNS = {
  bf16Step: { format: "bf16", steps: 1, ...RUN },
  bf16Few: { format: "bf16", steps: 5, ...RUN },
  bf16Full: { format: "bf16", steps: 20, ...RUN },
  fp16Full: { format: "fp16", steps: 20, lossScale: 1024, ...RUN },
} satisfies Record<string, TrainQuantizedOptions>;
const cache = new Map<string, TrainQuantizedResult>();
const referenceRun = (k: keyof typeof RUNS) => { if (!cache.has(k)) cache.set(k, trainQuantized(RUNS[k])); return cache.get(k)!; };

const hex32 = (x: number) => toHex("fp32", new Uint32Array(Float32Array.of(x).buffer)[0]!);

/** Trains with the student's quantize and compares losses and weights with the reference run, bit for bit. */
async function expectSameRun(f: Quantize, k: keyof typeof RUNS, hint: string): Promise<void> {
  const o = RUNS[k];
  const label = `trainQuantized({format: "${o.format}", steps: ${o.steps}${"lossScale" in o ? `, lossScale: ${o.lossScale}` : ""}, quantize})`;
  let got: TrainQuantizedResult;
  try {
    got = trainQuantized({ ...o, quantize: (values, format) => f(values, format) });
  } catch (err) {
    if (isNotImplemented(err)) throw err;
    fail(`${label} threw ${(err as Error)?.name ?? "an error"}: ${(err as Error)?.message ?? String(err)}`, hint);
  }
  const want = referenceRun(k);
  const step = want.losses.findIndex((l, i) => !Object.is(l, got.losses[i]));
  const lossNote = step < 0 ? "every step's loss matches" : `the losses first differ at step ${step + 1}: expected ${want.losses[step]}, received ${got.losses[step]}`;
  for (let p = 0; p < want.weights.length; p++) {
    const w = want.weights[p]!, g = got.weights[p]!;
    for (let i = 0; i < w.length; i++) {
      if (!Object.is(w[i], g[i]) && !(Number.isNaN(w[i]) && Number.isNaN(g[i]))) {
        fail(`${label}: after ${o.steps} step${o.steps > 1 ? "s" : ""} the trained weight ${want.names[p]}[${i}] differs: expected ${w[i]} (fp32 ${hex32(w[i]!)}), received ${g[i]} (fp32 ${hex32(g[i]!)}); ${lossNote}`, hint);
      }
    }
  }
  if (step >= 0) fail(`${label}: ${lossNote}`, hint);
}

/** The initial weights of the exercise's model, flattened, as a Float32Array. */
function initialWeights(): Float32Array {
  const m = createModel({ ...DEFAULT_MODEL, ...RUN.model, vocabSize: corpus().vocab.size });
  return Float32Array.from(m.params.flatMap((p) => Array.from(p.data)));
}

const MAXBF = FORMATS.bf16.maxFinite;
const BF16_VALUES = f32([1.01171875, 1.00390625, -1.00390625, -257, 2 - 2 ** -8, 2 ** -126 - 2 ** -135, 5 * 2 ** -134, 7 * 2 ** -134, 2 ** -134, MAXBF + 2 ** 119 - 2 ** 104, MAXBF + 2 ** 119, 3.14159265, -0.1, 1e-40, Infinity, -Infinity, NaN, -0, 0]);
const FP16_VALUES = f32([1 + 2 ** -11, 1 + 3 * 2 ** -11, -(1 + 2 ** -11), -2049, 2 - 2 ** -11, 2 ** -14 - 2 ** -26, 5 * 2 ** -25, 7 * 2 ** -25, 2 ** -25, 65519, 65520, -65520, 1e6, 0.1, 1e-8, Infinity, NaN, -0, 0]);

export default defineExercise({
  id: "1.5",
  title: "build it: train in bf16 and fp16 with your rounding",
  chapter: "precision",
  file: "exercises/precision/quantize.ts",
  exportName: "quantize",
  signature: "quantize(values: Float32Array, format: \"fp16\" | \"bf16\"): Float32Array",
  build: true,
  section: "training-in-16-bits-the-quantize-step",
  summary:
    "Build the quantize step of mixed-precision training: round a float32 tensor to fp16 or bf16 as PyTorch's cast does. The grader plugs your function into the course's training of lib/nn (trainQuantized): it makes the 16-bit working copy of the fp32 master weights and rounds every activation and gradient. Graded on single values and tensors, then on one step, five steps and the trained weights of a 20-step bf16 run and a 20-step fp16 run (loss scale 1024), bit for bit against the reference run.",
  reference,
  checks: [
    { name: "the contract's example", points: 1, run: async (f) => {
        for (const format of ["bf16", "fp16"] as const) await same(f, f32([1.01171875, 65520, 1e-8]), format, `the stub's example; ${ROUNDING}`);
    } },
    { name: "single values, bf16", points: 2, run: async (f) => {
        await same(f, BF16_VALUES, "bf16", `ties to even (negative ones too), carries into the next binade, subnormal ties, overflow after rounding, NaN, ±0, ±Infinity; ${ROUNDING}`);
    } },
    { name: "single values, fp16", points: 2, run: async (f) => {
        await same(f, FP16_VALUES, "fp16", `ties to even (negative ones too), carries into the next binade, subnormal ties, overflow after rounding, NaN, ±0; ${ROUNDING}`);
    } },
    { name: "a new array; input unchanged; errors", points: 2, run: async (f) => {
        const hint = "the contract: a new Float32Array of the same length, the input left alone, a RangeError for another format and a TypeError for values that are not a Float32Array";
        for (const format of ["bf16", "fp16"] as const) {
          const v = f32([0.1, -3.3, 70000]), before = v.slice();
          let r: unknown;
          try { r = await f(v, format); } catch (err) { if (isNotImplemented(err)) throw err; fail(`quantize(Float32Array [0.1, -3.3, 70000], "${format}") threw ${(err as Error)?.message}`, hint); }
          if (!(r instanceof Float32Array)) fail(`quantize(…, "${format}") returned ${Object.prototype.toString.call(r)}, expected a Float32Array`, hint);
          if (r === v || r.buffer === v.buffer) fail(`quantize(…, "${format}") returned its input (or a view of it), expected a new Float32Array`, hint);
          if (v.some((x, i) => !Object.is(x, before[i]))) fail(`quantize(…, "${format}") modified its input`, hint);
          await same(f, new Float32Array(0), format, hint, `quantize(Float32Array [], "${format}")`);
          const first = await f(f32([1.5, 2.5]), format), copy = first.slice();
          await f(f32([-7, 9e-9]), format);
          if (first.some((x, i) => !Object.is(x, copy[i]))) fail(`a second call of quantize(…, "${format}") changed the array the first call returned: every call must return its own new array`, hint);
        }
        for (const bad of ["fp32", "FP16", "fp8", undefined]) {
          await expectThrows(f, [f32([1]), bad as "fp16"], /^format must be "fp16" or "bf16", got /, { label: `quantize(Float32Array [1], ${JSON.stringify(bad) ?? "undefined"})`, hint });
          try { await f(f32([1]), bad as "fp16"); } catch (err) { if ((err as Error)?.name !== "RangeError") fail(`quantize(…, ${JSON.stringify(bad)}) threw ${(err as Error)?.name}, the contract asks for a RangeError`, hint); }
        }
        for (const bad of [[1, 2], "1"]) {
          await expectThrows(f, [bad as unknown as Float32Array, "bf16"], /^values must be a Float32Array/, { label: `quantize(${JSON.stringify(bad)}, "bf16")`, hint });
          try { await f(bad as unknown as Float32Array, "bf16"); } catch (err) { if ((err as Error)?.name !== "TypeError") fail(`quantize(${JSON.stringify(bad)}, "bf16") threw ${(err as Error)?.name}, the contract asks for a TypeError`, hint); }
        }
    } },
    { name: "a weight tensor", points: 2, run: async (f) => {
        const w = initialWeights();
        for (const format of ["bf16", "fp16"] as const) {
          for (const [scale, what] of [[1, "the initial weights"], [2 ** -20, "the initial weights × 2^-20 (fp16 subnormals)"], [30000, "the initial weights × 30000 (fp16 overflow)"]] as const) {
            await same(f, Float32Array.from(w, (x) => x * scale), format, `every element of a real tensor, bit for bit; ${ROUNDING}`, `quantize(${what}: ${w.length} values, "${format}")`);
          }
        }
    } },
    { name: "random float32 tensors", points: 1, run: (f) => property(fc.tuple(fc.float32Array({ maxLength: 64 }), fc.constantFrom("bf16" as const, "fp16" as const)), async ([v, format]) => { await same(f, v, format, "compare with the cases above"); }, { numRuns: 200 }) },
    { name: "one training step in bf16", points: 2, run: (f) => expectSameRun(f, "bf16Step", `your function makes the working copy of the weights and rounds every activation and gradient of the step; ${SECTION}`) },
    { name: "five training steps in bf16", points: 2, run: (f) => expectSameRun(f, "bf16Few", `a difference that appears only after a few steps comes from values the single-value checks do not cover; ${SECTION}`) },
    { name: "trained weights, bf16 run, bit for bit", points: 3, run: (f) => expectSameRun(f, "bf16Full", `the whole run: 20 steps of AdamW on fp32 master weights with a bf16 working copy; ${SECTION}`) },
    { name: "trained weights, fp16 run with loss scale 1024, bit for bit", points: 3, run: (f) => expectSameRun(f, "fp16Full", `the same run in fp16, where scaled gradients meet subnormals and overflow; ${SECTION}`) },
  ],
});
