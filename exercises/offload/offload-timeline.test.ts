// Grader of the chapter's "build it" exercise: ZeRO-Offload's timeline for layers of any sizes, checked
// by lib/offload's validity checker, then task by task against lib's timeline (with and without DPU),
// on the chapter's figure (simulateOffloadStep) and on 200,000 layers.
import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property, fail, callSafely, type AnyFunction } from "../harness/index.js";
import { offloadTimeline as lib, checkOffloadTimeline, timelineProblemOf } from "../../lib/offload/index.js";
import type { offloadTimeline, TimelineProblem, TimelineTask } from "./offload-timeline.js";

type F = typeof offloadTimeline;
const reference: F = (p) => lib(p) as TimelineTask[];
const KIND = ["forward", "backward", "grad-d2h", "cpu-adam", "param-h2d"];
const order = (ts: TimelineTask[]) => (Array.isArray(ts) ? [...ts].sort((a, b) => a.step - b.step || KIND.indexOf(a.kind) - KIND.indexOf(b.kind) || a.layer - b.layer) : ts);
const sorted = (g: F): F => (p) => order(g(p));
/** The tasks by name ("forward of layer 0 in step 1": {t, end}), so a difference names its task; a repeated task is an extra key. */
const byName = (ts: TimelineTask[]) => {
  if (!Array.isArray(ts)) return ts;
  const out: Record<string, unknown> = {};
  for (const x of order(ts)) {
    let k = `${x?.kind} of layer ${x?.layer} in step ${x?.step}`;
    while (k in out) k += " (again)";
    const { kind: _k, step: _s, layer: _l, ...rest } = x;
    out[k] = rest;
  }
  return out;
};
const named = (g: F) => ((p: TimelineProblem) => byName(g(p))) as unknown as F;
const TOL = { abs: 1e-12, rel: 1e-9 };
const HINT = "the chapter's sections \"The offload timeline\" and \"The delayed parameter update\", and the stub's rules";
const same = (f: F, p: TimelineProblem, hint: string) => expectSame(named(f), named(reference), [p], { tol: TOL, hint, exactKeys: true, name: "offloadTimeline (its tasks by name)" });
const sameSorted = (f: F, p: TimelineProblem, hint: string) => expectSame(sorted(f), sorted(reference), [p], { tol: TOL, hint, name: "offloadTimeline (sorted by step, kind, layer)" });

const link = fc.record({ alphaS: fc.constantFrom(0, 1e-3, 0.05), bytesPerS: fc.constantFrom(1e9, 12e9, 25e9, 3.3e9) });
const problem = (dpu: boolean) => fc.record({
  layers: fc.array(fc.record({ params: fc.oneof(fc.integer({ min: 0, max: 3e9 }), fc.constant(0)), forwardS: fc.integer({ min: 0, max: 3000 }).map((v) => v / 1000) }), { minLength: 1, maxLength: 7 }),
  steps: fc.integer({ min: 1, max: 6 }),
  dpu: fc.constant(dpu),
  h2d: link, d2h: link,
  cpuAdamElementsPerS: fc.constantFrom(1e8, 7e8, 3e9, 2e10),
});
const both = fc.boolean().chain(problem);
const show = (p: TimelineProblem) => `${p.layers.length} layers, ${p.steps} steps${p.dpu ? ", dpu" : ""}`;

/** expectThrows, and the error's class must be RangeError (the contract names it). */
const rangeError = (f: F, p: unknown, pattern: RegExp) => expectThrows(f, [p as TimelineProblem], pattern, { class: RangeError, hint: "the stub's contract names the field and the error class" });
const ok: TimelineProblem = { layers: [{ params: 1, forwardS: 1 }], steps: 1, h2d: { bytesPerS: 1 }, d2h: { bytesPerS: 1 }, cpuAdamElementsPerS: 1 };
const EXAMPLE: TimelineProblem = { layers: [{ params: 1e9, forwardS: 1 }, { params: 5e8, forwardS: 0.5 }], steps: 2, h2d: { bytesPerS: 2e9 }, d2h: { bytesPerS: 2e9 }, cpuAdamElementsPerS: 1e9 };

export default defineExercise<F>({
  id: "9.2",
  title: "build it: the offload timeline, layers of any sizes, with and without DPU",
  chapter: "offload",
  build: true,
  section: "build-it-the-offload-timeline",
  file: "exercises/offload/offload-timeline.ts",
  exportName: "offloadTimeline",
  signature: "offloadTimeline({layers: {params, forwardS}[], steps, dpu?, h2d: {alphaS?, bytesPerS}, d2h, cpuAdamElementsPerS}): {kind, step, layer, t, end}[]",
  summary:
    "Build ZeRO-Offload's timeline for layers of unlike sizes (an embedding, a large head): the GPU's forward and backward, each layer's gradients to the host, the CPU's Adam after the whole gradient has arrived, the parameters back, step after step, with the synchronous update and with the one-step delayed update, on four lanes that each run one task at a time. Graded by the course's validity checker, then every start and end against lib's timeline, on the chapter's figure and on 200,000 layers (a million tasks).",
  solution: ["lib/offload/offloadTimeline.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 2, run: async (f) => {
        await same(f, EXAMPLE, "the stub's example: the CPU starts once both gradients have arrived, layer 0 first");
        await same(f, { ...EXAMPLE, dpu: true }, "the stub's example with DPU: step 1's forward does not wait for the CPU");
    } },
    { name: "passes the course's validity checker", points: 4, run: (f) =>
        property(both, async (p) => {
          const tasks = await callSafely(f as AnyFunction, [p], { name: "offloadTimeline", hint: HINT }) as TimelineTask[];
          if (!Array.isArray(tasks)) fail(`offloadTimeline(${show(p)}) returned ${typeof tasks}, not an array of tasks`, "return every task: {kind, step, layer, t, end}");
          const v = checkOffloadTimeline(p, tasks, 2);
          if (v.length) fail(`offloadTimeline(${JSON.stringify(p)}): ${v.join("; ")}`, "every task once, with its own duration, after what it waits for, one task per lane at a time");
        }, { numRuns: 60 }) },
    { name: "exact timings, synchronous update, unlike layers", points: 5, run: (f) =>
        property(problem(false), (p) => same(f, p, `without DPU: ${HINT}`).then(() => {}), { numRuns: 60 }) },
    { name: "exact timings with DPU: step s's forward waits for update s − 2", points: 5, run: (f) =>
        property(problem(true), (p) => same(f, p, "with DPU the CPU may still be busy with the previous step when this step's gradients arrive; layer l's forward in step s ≥ 2 waits for its copy of step s − 2").then(() => {}), { numRuns: 60 }) },
    { name: "the chapter's figure (simulateOffloadStep's ZeRO-Offload runs)", points: 3, run: async (f) => {
        for (const cfg of [{ numLayers: 4, hiddenSize: 1024 }, { numLayers: 24, hiddenSize: 4096, seqLen: 2048, microBatch: 4, dpu: true }, { numLayers: 6, hiddenSize: 8192, numSteps: 5, dpu: true, hardware: { cpuAdamElementsPerS: 3e8 } }])
          await same(f, timelineProblemOf(cfg), `the chapter's timeline, simulateOffloadStep(${JSON.stringify(cfg)}): ${HINT}`);
    } },
    { name: "edges: one layer, layers without parameters, DPU on one and two steps", points: 2, run: async (f) => {
        await same(f, { ...ok, layers: [{ params: 0, forwardS: 0 }], h2d: { alphaS: 0.5, bytesPerS: 1 }, d2h: { alphaS: 0.25, bytesPerS: 1 } }, "a layer without parameters still pays each transfer's latency α");
        await same(f, { ...EXAMPLE, layers: [{ params: 0, forwardS: 1 }, ...EXAMPLE.layers, { params: 0, forwardS: 0 }], steps: 3 }, "layers without parameters take part in every lane");
        for (const steps of [1, 2, 3]) await same(f, { ...EXAMPLE, steps, dpu: true }, "with DPU steps 0 and 1 run on the initial parameters; step 2 waits for update 0");
    } },
    { name: "200,000 layers (a million tasks)", points: 1, run: async (f) => {
        const L = 200_000;
        await sameSorted(f, { layers: Array.from({ length: L }, (_, i) => ({ params: 1_000 + (i % 13) * 17, forwardS: 1e-6 * (1 + (i % 3)) })), steps: 1, h2d: { alphaS: 1e-6, bytesPerS: 2e10 }, d2h: { alphaS: 1e-6, bytesPerS: 2e10 }, cpuAdamElementsPerS: 3e9 },
          "a spread like Math.max(...xs) or deep recursion fails past about 10⁵ elements; loop instead");
    } },
    { name: "bad input names the field", points: 2, run: async (f) => {
        await rangeError(f, { ...ok, layers: [] }, /^layers must have at least one layer, got 0$/);
        await rangeError(f, { ...ok, layers: [{ params: 1, forwardS: 1 }, { params: -1, forwardS: 1 }] }, /^layers\[1\]\.params must be an integer >= 0, got -1$/);
        await rangeError(f, { ...ok, layers: [{ params: 1, forwardS: NaN }] }, /^layers\[0\]\.forwardS must be a finite number >= 0, got NaN$/);
        await rangeError(f, { ...ok, steps: 0 }, /^steps must be an integer >= 1, got 0$/);
        await rangeError(f, { ...ok, h2d: { bytesPerS: 0 } }, /^h2d\.bytesPerS must be a finite number > 0, got 0$/);
        await rangeError(f, { ...ok, d2h: { alphaS: -1, bytesPerS: 1 } }, /^d2h\.alphaS must be a finite number >= 0, got -1$/);
        await rangeError(f, { ...ok, cpuAdamElementsPerS: 0 }, /^cpuAdamElementsPerS must be a finite number > 0, got 0$/);
    } },
  ],
});
