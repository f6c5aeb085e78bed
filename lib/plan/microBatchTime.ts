import type { CostModel } from "../collectives/index.js";
import { tpCollectiveTime } from "../tensor-parallel/tpCollectiveTime.js";
import type { ModelArch } from "../memory/index.js";
import { gemmTime, memoryTimeS, transformerLayerTime, type LayerShape, type Roofline } from "../perf/index.js";
import type { Plan } from "./planLabel.js";

/**
 * How Megatron-LM runs a tensor-parallel layer (the switches that change its time).
 * @see {@link microBatchTime}
 */
export interface TensorParallelRuntime {
  /** The backward all-reduce (or reduce-scatter) of a column-parallel layer's input gradient runs while its weight gradient is computed (Megatron since 2021-08; default true). */
  tpBackwardOverlap: boolean;
  /** Megatron/Transformer Engine `--tp-comm-overlap`: forward collectives split and overlapped with the GEMM next to them (default false). */
  tpCommOverlap: boolean;
  /** The first and last pipeline stages hold one layer fewer, the embedding and the logits taking a layer's place (BLOOM's `type:transformer|embedding` partition, Llama 3's balance). Default false: ⌈L/p⌉ layers on every stage. */
  balanceEdgeStages?: boolean;
}

/**
 * One micro-batch on the busiest pipeline stage, seconds.
 * @see {@link microBatchTime}
 */
export interface MicroBatchTime {
  /** Forward and backward kernels (no recomputation, no communication). */
  computeS: number;
  /** The recomputed forward (selective: the eager attention core; full: every layer). */
  recomputeS: number;
  /** Tensor-parallel collectives left on the critical path, and the part hidden behind GEMMs. */
  tpExposedS: number;
  tpHiddenS: number;
  /** Backward alone (what data-parallel gradient reduction can hide behind). */
  backwardS: number;
  /** Where the compute goes: the layers' GEMMs, their attention cores, their elementwise kernels, and the embedding and logits at the stage edges. */
  breakdown: { gemmS: number; attentionS: number; elementwiseS: number; edgeS: number };
}

/**
 * The shape of a model's layers for lib/perf, with dropout and rotary embedding as the families have them:
 * dropout in the GPT-2 family (Megatron's GPT, GPT-2: p = 0.1), rotary embedding in Llama and GPT-NeoX.
 * @param arch the model
 * @param dropout override (MPT and BLOOM are GPT-style without or with dropout)
 * @returns a lib/perf LayerShape
 * @throws nothing
 * @example layerShape(llama2_7b).gated // true
 * @see Hugging Face config.json of each family (`resid_pdrop`, `attn_pdrop`; `rope_theta`)
 */
export function layerShape(arch: ModelArch, dropout = arch.family === "gpt2"): LayerShape {
  return {
    hiddenSize: arch.hiddenSize, numHeads: arch.numHeads, numKvHeads: arch.numKvHeads, headDim: arch.headDim, intermediateSize: arch.intermediateSize,
    gated: arch.mlp === "gated", rotary: arch.family !== "gpt2", dropout,
  };
}

/**
 * The time of one micro-batch on the busiest stage of a plan, on the GPU's roofline:
 * ⌈L/p⌉ layers ({@link transformerLayerTime}) plus the stage edges (the embedding
 * gather on the first stage, the logit GEMMs and the fp32 cross-entropy on the last:
 * with p = 1 both, else the larger), and the tensor-parallel collectives of each layer
 * on the tensor-parallel group's link, with Megatron's overlaps (lib/tensor-parallel's
 * `tpCollectiveTime`: forward collectives exposed, the backward all-reduce behind the weight
 * gradient, full recomputation repeating the forward ones).
 * @param arch the model
 * @param plan the plan (t, p, b, attention, recomputation, sequence parallelism)
 * @param seqLen s
 * @param r the GPU's roofline for the precision
 * @param tpLink the tensor-parallel group's link (lib/collectives' groupCostModel)
 * @param runtime {@link TensorParallelRuntime}
 * @param o `bytesPerElement` (2 or 4) and `dropout` (default: GPT-2 family)
 * @returns the {@link MicroBatchTime}
 * @throws RangeError from {@link transformerLayerTime} and lib/collectives' collectiveCost
 * @example microBatchTime(llama2_70b, plan, 4096, gpuRoofline(gpuPreset("h100-80gb"), "bf16"), nvlink, { tpBackwardOverlap: true, tpCommOverlap: false }, { bytesPerElement: 2 }).tpExposedS
 * @see Megatron-LM d98e8a6 `core/tensor_parallel/layers.py` L637–720 (`LinearWithGradAccumulationAndAsyncCommunication.backward`: the all-reduce "scheduled before the weight
 *   gradient computation", the all-gather "before the input gradient computation"); `arguments.py` (`--tp-comm-overlap`); Korthikanti et al. 2022, §4.2.2
 */
export function microBatchTime(arch: ModelArch, plan: Plan, seqLen: number, r: Roofline, tpLink: CostModel, runtime: TensorParallelRuntime, o: { bytesPerElement: number; dropout?: boolean }): MicroBatchTime {
  const { tensorParallel: t, pipelineParallel: p, microBatch: b } = plan;
  const e = o.bytesPerElement;
  const layer = transformerLayerTime(layerShape(arch, o.dropout), { microBatch: b, seqLen, tensorParallel: t, sequenceParallel: plan.sequenceParallel, attention: plan.attention, bytesPerElement: e }, r);
  const balance = (runtime.balanceEdgeStages ?? false) && p > 1;
  const Ls = balance ? Math.ceil((arch.numLayers + 2) / p) : Math.ceil(arch.numLayers / p);
  const n = b * seqLen;
  const h = arch.hiddenSize;
  // Stage edges: the embedding gather (read and write n·h) and the vocabulary-parallel logits with their fp32 cross-entropy.
  const vocab = Math.ceil(arch.vocabSize / t);
  const logitsFwd = gemmTime({ m: n, n: vocab, k: h, bytesPerElement: e }, r).timeS + memoryTimeS(n * vocab * (e + 8), r);
  const logitsBwd = gemmTime({ m: n, n: h, k: vocab, bytesPerElement: e }, r).timeS + gemmTime({ m: h, n: vocab, k: n, bytesPerElement: e }, r).timeS + memoryTimeS(n * vocab * (4 + e), r);
  const embed = 2.5 * memoryTimeS(2 * n * h * e, r); // the gather forward, 1.5 × its bytes backward
  // With balanced edges the busiest stage is an inner stage (Ls layers) or an edge stage (Ls − 1 layers and its edge), whichever is slower.
  const layerS = layer.forward.totalS + layer.backward.totalS;
  const edgeS = p === 1 ? embed + logitsFwd + logitsBwd : balance ? Math.max(0, logitsFwd + logitsBwd - layerS) : Math.max(embed, logitsFwd + logitsBwd);
  const forwardS = Ls * layer.forward.totalS, backwardS = Ls * layer.backward.totalS;
  const recomputeS = Ls * (plan.recompute === "full" ? layer.recompute.fullS : plan.recompute === "selective" ? layer.recompute.selectiveS : 0);

  const tp = tpCollectiveTime(layer.linears, {
    tokens: n, hiddenSize: h, T: t, sequenceParallel: plan.sequenceParallel, fullRecompute: plan.recompute === "full", link: tpLink, bytesPerElement: e,
    qkvElements: t > arch.numKvHeads ? n * (arch.numHeads + 2 * arch.numKvHeads) * arch.headDim : 0,
    tpBackwardOverlap: runtime.tpBackwardOverlap, tpCommOverlap: runtime.tpCommOverlap,
  });
  const tpExposedS = Ls * tp.exposedS, tpHiddenS = Ls * tp.hiddenS;
  return {
    computeS: forwardS + backwardS + edgeS, recomputeS, tpExposedS, tpHiddenS, backwardS: backwardS + (p === 1 ? logitsBwd : 0),
    breakdown: {
      gemmS: Ls * (layer.forward.gemmS + layer.backward.gemmS), attentionS: Ls * (layer.forward.attentionS + layer.backward.attentionS),
      elementwiseS: Ls * (layer.forward.elementwiseS + layer.backward.elementwiseS), edgeS,
    },
  };
}
