import * as fc from "fast-check";
import { defineExercise, fail, property } from "../harness/index.js";
import { estimateMemory, fitsInMemory, parseModelConfig } from "../../lib/memory/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";
import type { Cluster, doesItFit, FitAnswer, RunSpec } from "./does-it-fit.js";

const reference: typeof doesItFit = (config, run, cluster) => {
  if (config.model_type !== "llama" && config.model_type !== "mistral") throw new RangeError(`model_type must be llama or mistral, got ${JSON.stringify(config.model_type)}`);
  const arch = parseModelConfig(config);
  if (!Number.isSafeInteger(cluster.numGpus) || cluster.numGpus < 1) throw new RangeError(`numGpus must be an integer >= 1, got ${cluster.numGpus}`);
  if (typeof cluster.gpuMemoryBytes !== "number" || !(cluster.gpuMemoryBytes > 0) || !Number.isFinite(cluster.gpuMemoryBytes)) throw new RangeError(`gpuMemoryBytes must be a number > 0, got ${cluster.gpuMemoryBytes}`);
  const r = estimateMemory({ arch, numGpus: cluster.numGpus, zeroStage: run.zeroStage, precision: "bf16", optimizer: "adamw", microBatch: run.microBatch, seqLen: run.seqLen, recompute: run.recompute, attention: run.attention });
  return { params: r.params, steadyBytes: r.perGpu.total, peakBytes: r.peak.total, fits: fitsInMemory(r, cluster.gpuMemoryBytes) };
};

const GiB = 2 ** 30;
const MODELS = ["llama-2-7b", "mistral-7b", "llama-2-13b", "llama-2-70b"] as const;
const configs = Object.fromEntries(MODELS.map((m) => [m, JSON.parse(loadPresetText(m)) as Record<string, unknown>]));
const notesRun: RunSpec = { zeroStage: 2, microBatch: 8, seqLen: 2048, recompute: "full", attention: "eager" };
const node8: Cluster = { numGpus: 8, gpuMemoryBytes: 80 * GiB };
const SECTION = "the chapter's section named in the stub's convention";

/** Calls f and the reference and compares only the named fields (partial credit per part of the answer). */
async function expectFields(f: typeof doesItFit, args: Parameters<typeof doesItFit>, fields: (keyof FitAnswer)[], hint: string): Promise<void> {
  const want = reference(...args);
  let got: FitAnswer;
  try {
    got = await f(structuredClone(args[0]), { ...args[1] }, { ...args[2] });
  } catch (e) {
    if ((e as Error)?.name === "NotImplementedError") throw e;
    fail(`doesItFit(${label(args)}) threw ${(e as Error)?.name}: ${(e as Error)?.message}`, hint);
  }
  for (const k of fields) {
    if (got?.[k] !== want[k]) fail(`doesItFit(${label(args)}).${k}: expected ${want[k]}, received ${got?.[k]}`, hint);
  }
}
const label = ([c, r, k]: Parameters<typeof doesItFit>) =>
  `${c.model_type} h=${c.hidden_size} L=${c.num_hidden_layers}, ZeRO-${r.zeroStage} b=${r.microBatch} s=${r.seqLen} ${r.recompute}/${r.attention}, ${k.numGpus} GPUs × ${(k.gpuMemoryBytes / GiB).toFixed(1)} GiB`;

const hiddenRun = fc.record({
  zeroStage: fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const), microBatch: fc.constantFrom(1, 2, 4, 8, 16),
  seqLen: fc.constantFrom(512, 1024, 2048, 4096, 8192, 16384), recompute: fc.constantFrom("none" as const, "selective" as const, "full" as const),
  attention: fc.constantFrom("eager" as const, "flash" as const),
});
const hiddenCluster = fc.record({ numGpus: fc.constantFrom(1, 2, 4, 8, 16, 64, 256), gpuMemoryBytes: fc.constantFrom(24, 40, 48, 80, 141).map((g) => g * GiB) });

export default defineExercise({
  id: "2.5",
  title: "build it: does the run fit?",
  chapter: "memory",
  build: true,
  section: "peak-memory-not-only-the-steady-state",
  file: "exercises/memory/does-it-fit.ts",
  exportName: "doesItFit",
  signature: "doesItFit(config: Record<string, unknown>, run: RunSpec, cluster: Cluster): { params, steadyBytes, peakBytes, fits }",
  summary:
    "From a real config.json, a training run and a cluster, return the parameter count, the bytes per GPU at steady state and at the peak (the chapter's convention), and whether the run fits; graded on the shipped Llama-style configs and on hidden clusters, per decision and per byte.",
  reference,
  checks: [
    { name: "parameters of the shipped configs", points: 3, run: async (f) => {
        for (const m of MODELS) await expectFields(f, [configs[m]!, notesRun, node8], ["params"], `${SECTION} (parameters); Mistral and Llama-2-70B use grouped-query attention`);
    } },
    { name: "steady state by ZeRO stage", points: 5, run: async (f) => {
        for (const zeroStage of [0, 1, 2, 3] as const) {
          for (const m of ["llama-2-13b", "mistral-7b"] as const) await expectFields(f, [configs[m]!, { ...notesRun, zeroStage }, { numGpus: 6, gpuMemoryBytes: 80 * GiB }], ["steadyBytes"], `${SECTION} (model states, activations); N = 6 does not divide Ψ: partitions are whole elements`);
        }
        await expectFields(f, [configs["llama-2-7b"]!, { ...notesRun, recompute: "none", attention: "flash" }, node8], ["steadyBytes"], "FlashAttention stores no a·s² tensors");
    } },
    { name: "the worked example (Llama-2-13B, ZeRO-2, 8 × 80 GiB)", points: 2, run: async (f) => {
        await expectFields(f, [configs["llama-2-13b"]!, notesRun, node8], ["params", "steadyBytes", "peakBytes", "fits"], "the stub's example");
    } },
    { name: "peak: the transient lines", points: 5, run: async (f) => {
        const cases: RunSpec[] = [
          notesRun, { ...notesRun, attention: "flash" }, { ...notesRun, recompute: "selective" }, { ...notesRun, recompute: "none" },
          { ...notesRun, recompute: "selective", attention: "flash" }, { ...notesRun, zeroStage: 3 }, { ...notesRun, seqLen: 512, microBatch: 1 },
        ];
        for (const run of cases) await expectFields(f, [configs["mistral-7b"]!, run, node8], ["peakBytes"], `${SECTION} (peak): which lines exist for this run, and which phase is larger`);
    } },
    { name: "steady state fits, the peak does not", points: 2, run: async (f) => {
        // One sequence of 32,768 tokens with eager attention on 64 × 80 GiB: the steady state is far below 80 GiB,
        // one layer's 16-bit scores alone (2·a·s²·b = 80 GiB) are not.
        const run: RunSpec = { zeroStage: 3, microBatch: 1, seqLen: 32768, recompute: "full", attention: "eager" };
        const cluster: Cluster = { numGpus: 64, gpuMemoryBytes: 80 * GiB };
        const want = reference(configs["llama-2-13b"]!, run, cluster);
        if (want.fits || want.steadyBytes > cluster.gpuMemoryBytes) fail("grader error: the case no longer separates steady state and peak");
        await expectFields(f, [configs["llama-2-13b"]!, run, cluster], ["fits"], "judge by the peak, not by the steady state");
    } },
    { name: "a peak exactly at the memory fits", points: 1, run: async (f) => {
        for (const run of [notesRun, { ...notesRun, zeroStage: 3 as const, attention: "flash" as const }]) {
          const peak = reference(configs["llama-2-13b"]!, run, node8).peakBytes;
          await expectFields(f, [configs["llama-2-13b"]!, run, { numGpus: 8, gpuMemoryBytes: peak }], ["fits"], "the run fits when its peak is at most the memory: equal fits");
          await expectFields(f, [configs["llama-2-13b"]!, run, { numGpus: 8, gpuMemoryBytes: peak - 1 }], ["fits"], "one byte less: it does not");
        }
    } },
    { name: "decisions on hidden clusters", points: 3, run: (f) => property(
        fc.tuple(fc.constantFrom(...MODELS), hiddenRun, hiddenCluster),
        async ([m, run, cluster]) => { await expectFields(f, [configs[m]!, run, cluster], ["fits"], "compare your peak with the course's on this run"); }, { numRuns: 60, seed: 2025 }) },
    { name: "bytes on hidden clusters", points: 2, run: (f) => property(
        fc.tuple(fc.constantFrom(...MODELS), hiddenRun, hiddenCluster),
        async ([m, run, cluster]) => { await expectFields(f, [configs[m]!, run, cluster], ["steadyBytes", "peakBytes"], "exact integers, one rounding where a count is a fraction"); }, { numRuns: 40, seed: 7 }) },
    { name: "bad input: the error names the field", points: 1, run: async (f) => {
        const cases: [Parameters<typeof doesItFit>, RegExp, string][] = [
          [[configs["llama-2-7b"]!, notesRun, { numGpus: 0, gpuMemoryBytes: 80 * GiB }], /numGpus/, "RangeError"],
          [[configs["llama-2-7b"]!, notesRun, { numGpus: 8, gpuMemoryBytes: -1 }], /gpuMemoryBytes/, "RangeError"],
          [[{ ...configs["llama-2-7b"]!, model_type: "bert" }, notesRun, node8], /model_type/, "RangeError"],
          [[(({ hidden_size: _h, ...rest }) => rest)(configs["llama-2-7b"]!), notesRun, node8], /hidden_size/, "TypeError"],
        ];
        for (const [args, pattern, cls] of cases) {
          let out: unknown;
          try {
            out = await f(structuredClone(args[0]), { ...args[1] }, { ...args[2] });
          } catch (e) {
            const err = e as Error;
            if (err?.name === "NotImplementedError") throw e;
            if (err?.name !== cls || !pattern.test(err.message)) fail(`doesItFit(${label(args)}) threw ${err?.name}: "${err?.message}", expected a ${cls} matching ${pattern}`, "the stub's contract lists the errors");
            continue;
          }
          fail(`doesItFit(${label(args)}) returned ${JSON.stringify(out)} instead of throwing a ${cls}`, "the stub's contract lists the errors");
        }
    } },
  ],
});
