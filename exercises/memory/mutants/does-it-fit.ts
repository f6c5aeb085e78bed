import type { doesItFit } from "../does-it-fit.js";
import type { Mutant } from "../../harness/index.js";
import { estimateMemory, fitsInMemory, parseModelConfig, type TrainingSetup } from "../../../lib/memory/index.js";

type F = typeof doesItFit;

// Correct answers built from the course's estimator, with one plausible mistake each (in a different place of the run).
function answer(config: Record<string, unknown>, run: Parameters<F>[1], cluster: Parameters<F>[2], o: {
  setup?: Partial<TrainingSetup>; steadyDecision?: boolean; dropLine?: string; sumPhases?: boolean; noGqa?: boolean; strictFit?: boolean; flashSelectiveCore?: boolean;
} = {}) {
  if (config.model_type !== "llama" && config.model_type !== "mistral") throw new RangeError(`model_type must be llama or mistral, got ${JSON.stringify(config.model_type)}`);
  let arch = parseModelConfig(config);
  if (o.noGqa) arch = { ...arch, numKvHeads: arch.numHeads };
  if (!Number.isSafeInteger(cluster.numGpus) || cluster.numGpus < 1) throw new RangeError(`numGpus must be an integer >= 1, got ${cluster.numGpus}`);
  if (!(cluster.gpuMemoryBytes > 0)) throw new RangeError(`gpuMemoryBytes must be a number > 0, got ${cluster.gpuMemoryBytes}`);
  const r = estimateMemory({ arch, numGpus: cluster.numGpus, zeroStage: run.zeroStage, precision: "bf16", optimizer: "adamw", microBatch: run.microBatch, seqLen: run.seqLen, recompute: run.recompute, attention: run.attention, ...o.setup });
  const lines = r.peak.lines.filter((l) => l.name !== o.dropLine);
  const sum = (phase: string) => lines.filter((l) => l.phase === phase).reduce((a, l) => a + l.bytes, 0);
  // the attention core 5as²b "rebuilt" with FlashAttention and selective recomputation, as with eager attention
  const core = o.flashSelectiveCore && run.recompute === "selective" && run.attention === "flash" ? 5 * arch.numHeads * run.seqLen ** 2 * run.microBatch : 0;
  const peak = r.perGpu.total + sum("always") + (o.sumPhases ? sum("output") + sum("layer") : Math.max(sum("output"), sum("layer") + core));
  if (o.strictFit) return { params: r.params, steadyBytes: r.perGpu.total, peakBytes: peak, fits: peak < cluster.gpuMemoryBytes };
  const fits = o.steadyDecision ? r.perGpu.total <= cluster.gpuMemoryBytes : fitsInMemory({ peak: { lines, total: peak } }, cluster.gpuMemoryBytes);
  return { params: r.params, steadyBytes: r.perGpu.total, peakBytes: peak, fits };
}

export const mutants: Record<string, Mutant<F>> = {
  "decides by the steady state, not the peak": { impl: (c, r, k) => answer(c, r, k, { steadyDecision: true }), caughtBy: "steady state fits, the peak does not" },
  "ignores grouped-query attention when counting parameters": { impl: (c, r, k) => answer(c, r, k, { noGqa: true }), caughtBy: "parameters of the shipped configs" },
  "always eager: FlashAttention changes nothing": { impl: (c, r, k) => answer(c, r, k, { setup: { attention: "eager" } }), caughtBy: "peak: the transient lines" },
  "forgets the layer rebuilt in backward": { impl: (c, r, k) => answer(c, r, k, { dropLine: "recomputedLayer" }), caughtBy: ["peak: the transient lines", "the worked example (Llama-2-13B, ZeRO-2, 8 × 80 GiB)"] },
  "adds the output and layer phases instead of taking the larger": { impl: (c, r, k) => answer(c, r, k, { sumPhases: true }), caughtBy: "peak: the transient lines" },
  "ZeRO-3 without the gathered layer": { impl: (c, r, k) => answer(c, r, k, { dropLine: "gatheredLayer" }), caughtBy: "peak: the transient lines" },
  "a peak exactly at the memory does not fit (< instead of ≤)": { impl: (c, r, k) => answer(c, r, k, { strictFit: true }), caughtBy: "a peak exactly at the memory fits" },
  "FlashAttention with selective recomputation still rebuilds the attention core": { impl: (c, r, k) => answer(c, r, k, { flashSelectiveCore: true }), caughtBy: "peak: the transient lines" },
  "sizes the activations of one sequence, not the micro-batch": { impl: (c, r, k) => answer(c, r, k, { setup: { microBatch: 1 } }), caughtBy: "steady state by ZeRO stage" },
};
