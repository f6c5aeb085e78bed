import type { CostModel } from "../collectives/index.js";
import { tpCollectiveTime } from "../tensor-parallel/tpCollectiveTime.js";
import type { ModelArch } from "../memory/index.js";
import { gemmTime, memoryTimeS, transformerLayerTime, type LayerShape, type Roofline } from "../perf/index.js";
import type { Plan } from "./planLabel.js";
import { memo } from "./memo.js";

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
  /** Layers on the busiest stage, and how many of them are MoE layers. */
  layers: number;
  moeLayers: number;
  /** One layer's attention core, forward and backward (what the context-parallel ring hides behind). */
  attentionPerLayer: { forwardS: number; backwardS: number };
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
    gated: arch.mlp === "gated", rotary: arch.family !== "gpt2", dropout, ...(arch.mla ? { mla: arch.mla } : {}),
  };
}

/**
 * The shape of a model's MoE layers for lib/perf (its dense layer shape with the experts in place of the MLP), or undefined for a dense model.
 * @param arch the model
 * @param dropout as {@link layerShape}
 * @returns a lib/perf LayerShape with `moe`, or undefined
 * @throws nothing
 * @example moeLayerShape(mixtral)!.moe // { numExperts: 8, topK: 2, expertIntermediateSize: 14336, sharedIntermediateSize: 0 }
 * @see lib/memory's MoeArch (from the config.json)
 */
export function moeLayerShape(arch: ModelArch, dropout = arch.family === "gpt2"): LayerShape | undefined {
  const m = arch.moe;
  if (!m || m.numMoeLayers === 0) return undefined;
  return { ...layerShape(arch, dropout), moe: { numExperts: m.numExperts, topK: m.topK, expertIntermediateSize: m.expertIntermediateSize, sharedIntermediateSize: m.sharedIntermediateSize } };
}

/**
 * The time of one micro-batch on the busiest stage of a plan, on the GPU's roofline:
 * ⌈L/p⌉ layers ({@link transformerLayerTime}) plus the stage edges (the embedding
 * gather on the first stage, the logit GEMMs and the fp32 cross-entropy on the last:
 * with p = 1 both, else the larger), and the tensor-parallel collectives of each layer
 * on the tensor-parallel group's link, with Megatron's overlaps (lib/tensor-parallel's
 * `tpCollectiveTime`: forward collectives exposed, the backward all-reduce behind the weight
 * gradient, full recomputation repeating the forward ones). Each rank of a context-parallel group
 * holds b·s/C tokens (its GEMMs, its logits, 1/C of the attention); an MoE model's stage holds as many
 * MoE layers as it can (min(⌈L/p⌉, MoE layers): the busiest stage), each with its experts over
 * `expertParallel` ranks and the token dispatcher's collectives; with `fp8` the linears run on the FP8 roofline.
 * @param arch the model
 * @param plan the plan (t, p, C, ep, b, attention, recomputation, sequence parallelism, FP8)
 * @param seqLen s
 * @param r the GPU's roofline for the precision
 * @param tpLink the tensor-parallel group's link (lib/collectives' groupCostModel)
 * @param runtime {@link TensorParallelRuntime}
 * @param o `bytesPerElement` (2 or 4), `dropout` (default: GPT-2 family), `fp8` (the GPU's FP8 roofline, needed when the plan has `fp8`),
 *   `cache` (a search's memo: layers of the same shape are timed once)
 * @returns the {@link MicroBatchTime}
 * @throws RangeError `the plan has fp8 but no FP8 roofline was given`, and those of {@link transformerLayerTime} and lib/collectives' collectiveCost
 * @example microBatchTime(llama2_70b, plan, 4096, gpuRoofline(gpuPreset("h100-80gb"), "bf16"), nvlink, { tpBackwardOverlap: true, tpCommOverlap: false }, { bytesPerElement: 2 }).tpExposedS
 * @see Megatron-LM d98e8a6 `core/tensor_parallel/layers.py` L637–720 (`LinearWithGradAccumulationAndAsyncCommunication.backward`: the all-reduce "scheduled before the weight
 *   gradient computation", the all-gather "before the input gradient computation"); `arguments.py` (`--tp-comm-overlap`); Korthikanti et al. 2022, §4.2.2
 */
export function microBatchTime(arch: ModelArch, plan: Plan, seqLen: number, r: Roofline, tpLink: CostModel, runtime: TensorParallelRuntime, o: { bytesPerElement: number; dropout?: boolean; fp8?: Roofline; cache?: Map<string, unknown> }): MicroBatchTime {
  const { tensorParallel: t, pipelineParallel: p, microBatch: b } = plan;
  const C = plan.contextParallel ?? 1;
  const e = o.bytesPerElement;
  if (plan.fp8 && !o.fp8) throw new RangeError("the plan has fp8 but no FP8 roofline was given");
  const work = {
    microBatch: b, seqLen, tensorParallel: t, sequenceParallel: plan.sequenceParallel, attention: plan.attention, bytesPerElement: e,
    ...(C > 1 ? { contextParallel: C } : {}), ...(plan.expertParallel ? { expertParallel: plan.expertParallel } : {}), ...(plan.fp8 ? { fp8: o.fp8 } : {}),
  };
  const key = `${t} ${C} ${plan.expertParallel ?? 1} ${b} ${plan.sequenceParallel} ${plan.attention} ${plan.fp8 ?? false}`;
  const moeShape = moeLayerShape(arch, o.dropout);
  const moeLayer = moeShape ? memo(o.cache, `moe layer ${key}`, () => transformerLayerTime(moeShape, work, r)) : undefined;
  // A model whose every layer is MoE has no dense layer to time (its intermediate_size may be 0).
  const layer = moeLayer && arch.moe!.numMoeLayers >= arch.numLayers ? moeLayer : memo(o.cache, `layer ${key}`, () => transformerLayerTime(layerShape(arch, o.dropout), work, r));
  const balance = (runtime.balanceEdgeStages ?? false) && p > 1;
  const Ls = balance ? Math.ceil((arch.numLayers + 2) / p) : Math.ceil(arch.numLayers / p);
  const nMoe = moeShape ? Math.min(Ls, arch.moe!.numMoeLayers) : 0, nDense = Ls - nMoe;
  // Σ over the stage's layers: nDense dense ones and nMoe MoE ones (for a dense model exactly Ls · f(layer)).
  const sum = (f: (l: typeof layer) => number) => nDense * f(layer) + (moeLayer ? nMoe * f(moeLayer) : 0);
  const n = (b * seqLen) / C;
  const h = arch.hiddenSize;
  // Stage edges: the embedding gather (read and write n·h) and the vocabulary-parallel logits with their fp32 cross-entropy.
  const vocab = Math.ceil(arch.vocabSize / t);
  const logitsFwd = gemmTime({ m: n, n: vocab, k: h, bytesPerElement: e }, r).timeS + memoryTimeS(n * vocab * (e + 8), r);
  const logitsBwd = gemmTime({ m: n, n: h, k: vocab, bytesPerElement: e }, r).timeS + gemmTime({ m: h, n: vocab, k: n, bytesPerElement: e }, r).timeS + memoryTimeS(n * vocab * (4 + e), r);
  const embed = 2.5 * memoryTimeS(2 * n * h * e, r); // the gather forward, 1.5 × its bytes backward
  // With balanced edges the busiest stage is an inner stage (Ls layers) or an edge stage (Ls − 1 layers and its edge), whichever is slower.
  const layerS = layer.forward.totalS + layer.backward.totalS;
  const edgeS = p === 1 ? embed + logitsFwd + logitsBwd : balance ? Math.max(0, logitsFwd + logitsBwd - layerS) : Math.max(embed, logitsFwd + logitsBwd);
  const forwardS = sum((l) => l.forward.totalS), backwardS = sum((l) => l.backward.totalS);
  const recomputeS = sum((l) => (plan.recompute === "full" ? l.recompute.fullS : plan.recompute === "selective" ? l.recompute.selectiveS : 0));

  const tpOptions = {
    tokens: n, hiddenSize: h, T: t, sequenceParallel: plan.sequenceParallel, fullRecompute: plan.recompute === "full", link: tpLink, bytesPerElement: e,
    qkvElements: t > arch.numKvHeads ? n * (arch.numHeads + 2 * arch.numKvHeads) * arch.headDim : 0,
    tpBackwardOverlap: runtime.tpBackwardOverlap, tpCommOverlap: runtime.tpCommOverlap,
  };
  const tp = memo(o.cache, `tp ${key} ${plan.recompute === "full"}`, () => tpCollectiveTime(layer.linears, tpOptions));
  const tpMoe = moeLayer ? memo(o.cache, `tp moe ${key} ${plan.recompute === "full"}`, () => tpCollectiveTime(moeLayer.linears, { ...tpOptions, moeTokenCopies: arch.moe!.topK })) : tp;
  const tpExposedS = nDense * tp.exposedS + (moeLayer ? nMoe * tpMoe.exposedS : 0), tpHiddenS = nDense * tp.hiddenS + (moeLayer ? nMoe * tpMoe.hiddenS : 0);
  const attn = moeLayer && nDense === 0 ? moeLayer : layer;
  return {
    computeS: forwardS + backwardS + edgeS, recomputeS, tpExposedS, tpHiddenS, backwardS: backwardS + (p === 1 ? logitsBwd : 0),
    layers: Ls, moeLayers: nMoe, attentionPerLayer: { forwardS: attn.forward.attentionS, backwardS: attn.backward.attentionS },
    breakdown: {
      gemmS: sum((l) => l.forward.gemmS + l.backward.gemmS), attentionS: sum((l) => l.forward.attentionS + l.backward.attentionS),
      elementwiseS: sum((l) => l.forward.elementwiseS + l.backward.elementwiseS), edgeS,
    },
  };
}
