import { attentionCoreTime } from "./attentionCoreTime.js";
import { moeBlockTime, type MoeBlockShape } from "./moeBlockTime.js";
import { gemmTime, memoryTimeS, type Roofline } from "./roofline.js";

/**
 * The shape of one transformer layer, as lib/memory's ModelArch gives it.
 * @see {@link transformerLayerTime}
 */
export interface LayerShape {
  hiddenSize: number;
  numHeads: number;
  numKvHeads: number;
  headDim: number;
  /** f, the MLP's inner width. */
  intermediateSize: number;
  /** SwiGLU (gate and up projections) rather than one up projection with GeLU. */
  gated: boolean;
  /** Rotary position embedding applied to q and k in every layer. */
  rotary: boolean;
  /** Hidden and attention dropout (GPT-2, Megatron's GPT; not Llama). */
  dropout: boolean;
  /** The routed experts (and shared experts) that replace the dense MLP in an MoE layer (lib/perf's {@link moeBlockTime}). */
  moe?: MoeBlockShape;
  /** Multi-head latent attention (DeepSeek-V2/V3): low-rank projections in place of Q, K, V (lib/memory's MlaArch). */
  mla?: { qLoraRank: number; kvLoraRank: number; qkNopeHeadDim: number; qkRopeHeadDim: number; vHeadDim: number };
}

/**
 * One micro-batch through one layer on one tensor-parallel rank.
 * @see {@link transformerLayerTime}
 */
export interface LayerWork {
  microBatch: number;
  seqLen: number;
  /** t, the tensor-parallel size (1 without tensor parallelism). */
  tensorParallel: number;
  /** Sequence parallelism: normalisation, residual and dropout run on s/t tokens per rank. */
  sequenceParallel: boolean;
  attention: "eager" | "flash";
  /** 2 for fp16/bf16, 4 for fp32. */
  bytesPerElement: number;
  /** C, context-parallel ranks (default 1): each holds b·s/C tokens; its attention is 1/C of the sequence's (FlashAttention blocks, balanced causal split). */
  contextParallel?: number;
  /** ep, expert-parallel ranks of an MoE layer (default 1). */
  expertParallel?: number;
  /** The GPU's FP8 roofline: the linears' GEMMs run on it with 1-byte operands, each input cast to FP8 forward and each output gradient backward (Transformer Engine's recipe); attention and elementwise kernels stay 16-bit. */
  fp8?: Roofline;
}

/** The four linear layers of a block, in Megatron's names: the column-parallel QKV and fc1, the row-parallel proj and fc2. */
export type Linear = "qkv" | "proj" | "fc1" | "fc2";

/**
 * Time of one layer by pass and by kind of work.
 * @see {@link transformerLayerTime}
 */
export interface LayerTime {
  /** Each linear's forward GEMM, its input-gradient GEMM (dX) and its weight-gradient GEMM (dW), seconds. */
  linears: Record<Linear, { forwardS: number; inputGradS: number; weightGradS: number }>;
  forward: { gemmS: number; attentionS: number; elementwiseS: number; totalS: number };
  backward: { gemmS: number; attentionS: number; elementwiseS: number; totalS: number };
  /** What selective recomputation (the attention core, eager only) and full recomputation (a whole forward) add. */
  recompute: { selectiveS: number; fullS: number };
  /** FLOPs the kernels execute, forward and backward (the linears and the attention core). */
  flops: { forward: number; backward: number };
}

function positiveInt(name: string, v: number): number {
  if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1, got ${v}`);
  return v;
}

/**
 * Forward, backward and recomputation time of one transformer layer for one
 * micro-batch on one GPU, on the roofline, operation by operation:
 * - the four linears as GEMMs of n = b·s rows ({@link gemmTime}): QKV h → (a + 2G)·d/t,
 *   proj a·d/t → h, fc1 h → (1 or 2)·f/t, fc2 f/t → h; backward runs two GEMMs per linear,
 *   dX (n × K_in × N_out) and dW (K_in × N_out × n);
 * - the attention core, eager or flash ({@link attentionCoreTime}), on a/t heads;
 * - the elementwise kernels by bytes over HBM bandwidth: two normalisations (read, write n·h),
 *   two residual adds with Megatron's fused bias-dropout-add (read two, write one; a 1-byte mask
 *   with dropout), the activation (GeLU: read and write n·f/t; SwiGLU: read two, write one),
 *   rotary embedding on q and k (read and write); under sequence parallelism the
 *   normalisation and residual kernels handle n/t rows. Backward of an elementwise kernel
 *   reads its saved input and the output gradient and writes the input gradient: 1.5 × the
 *   forward bytes (the course's convention).
 * Selective recomputation re-runs the eager attention core's forward (Korthikanti et al.
 * 2022 §5); with FlashAttention there is nothing left to recompute. Full recomputation
 * re-runs the whole forward.
 * Beyond three dimensions: with context parallelism C the GEMMs and elementwise kernels have
 * n = b·s/C rows and the attention core is 1/C of the whole sequence's (FlashAttention blocks on a
 * load-balanced split; the ring's communication is chapter 13's, timed by the caller); an MoE layer's
 * MLP is {@link moeBlockTime} (experts split over `expertParallel` ranks); with `fp8` the linears run on
 * the FP8 roofline with 1-byte operands, plus a cast of every GEMM input (forward) and output gradient
 * (backward), read at 16 bits and written as the FP8 value and its transpose (Transformer Engine keeps both
 * usages for the backward GEMMs); with multi-head latent attention (`mla`) the QKV linear is its four projections
 * (the down-projections whole, the up-projections split over t) and the core's head width the mean of QKᵀ's and PV's.
 * These reduce to the dense, 16-bit, C = 1 times exactly.
 * @param shape the layer ({@link LayerShape})
 * @param work micro-batch, sequence, tensor, context and expert parallelism, attention kind, element size, FP8 ({@link LayerWork})
 * @param r the GPU's roofline for the data type
 * @returns the {@link LayerTime}
 * @throws RangeError `tensorParallel must be an integer >= 1, got 0` (likewise microBatch, seqLen, hiddenSize, contextParallel, …),
 *   `numHeads (32) must be divisible by tensorParallel (3)`, `seqLen (100) must be divisible by contextParallel (8)`,
 *   `contextParallel (2) needs attention "flash": context-parallel attention runs fused blocks`, and those of {@link gemmTime} and {@link moeBlockTime}
 * @example transformerLayerTime(llama2_7bShape, { microBatch: 1, seqLen: 4096, tensorParallel: 1, sequenceParallel: false, attention: "flash", bytesPerElement: 2 }, a100).forward.totalS
 * @see Narayanan et al. 2021, §5.1 and Appendix (the GEMMs of a layer: 24·b·s·h² + 4·b·s²·h forward FLOPs for a 4h MLP);
 *   Korthikanti et al. 2022, §4 (the tensors of a layer) and §4.2.2 (sequence parallelism); Megatron-LM `fused_bias_dropout.py`, `fused_bias_gelu.py`;
 *   Transformer Engine d0067d0 `pytorch/module/linear.py` (inputs and weights quantized with row- and column-wise usage for the backward GEMMs)
 */
export function transformerLayerTime(shape: LayerShape, work: LayerWork, r: Roofline): LayerTime {
  const h = positiveInt("hiddenSize", shape.hiddenSize);
  const a = positiveInt("numHeads", shape.numHeads);
  const G = positiveInt("numKvHeads", shape.numKvHeads);
  const d = positiveInt("headDim", shape.headDim);
  const f = shape.moe ? 0 : positiveInt("intermediateSize", shape.intermediateSize);
  const b = positiveInt("microBatch", work.microBatch);
  const s = positiveInt("seqLen", work.seqLen);
  const t = positiveInt("tensorParallel", work.tensorParallel);
  const C = positiveInt("contextParallel", work.contextParallel ?? 1);
  if (a % t !== 0) throw new RangeError(`numHeads (${a}) must be divisible by tensorParallel (${t})`);
  if (s % C !== 0) throw new RangeError(`seqLen (${s}) must be divisible by contextParallel (${C})`);
  if (C > 1 && work.attention !== "flash") throw new RangeError(`contextParallel (${C}) needs attention "flash": context-parallel attention runs fused blocks`);
  const e = work.bytesPerElement;
  const g = work.fp8 ?? r, ge = work.fp8 ? 1 : e; // the linears' roofline and operand bytes
  const n = (b * s) / C;
  const rows = work.sequenceParallel ? n / t : n; // rows the replicated kernels handle on this rank
  // Output widths per rank; the fused QKV is split evenly over t (Megatron, also for t > G).
  const qkvOut = Math.ceil(((a + 2 * G) * d) / t);
  const fc1Out = ((shape.gated ? 2 : 1) * f) / t;
  const mla = shape.mla;
  // MLA: the down-projections whole on every rank, the up-projections and the output split over t (Megatron's MLASelfAttention).
  const dims: [Linear, number, number][] = mla ? [
    ...(mla.qLoraRank ? [["qkv", h, mla.qLoraRank], ["qkv", mla.qLoraRank, (a * (mla.qkNopeHeadDim + mla.qkRopeHeadDim)) / t]] as [Linear, number, number][] : [["qkv", h, (a * (mla.qkNopeHeadDim + mla.qkRopeHeadDim)) / t]] as [Linear, number, number][]),
    ["qkv", h, mla.kvLoraRank + mla.qkRopeHeadDim], ["qkv", mla.kvLoraRank, (a * (mla.qkNopeHeadDim + mla.vHeadDim)) / t], ["proj", (a * mla.vHeadDim) / t, h],
  ] : [["qkv", h, qkvOut], ["proj", (a * d) / t, h]];
  if (!shape.moe) dims.push(["fc1", h, Math.ceil(fc1Out)], ["fc2", Math.ceil(f / t), h]);
  const linears = {} as LayerTime["linears"];
  let fwdGemm = 0, bwdGemm = 0, fwdFlops = 0, castIn = 0, castOut = 0;
  for (const [name, kIn, nOut] of dims) {
    const fw = gemmTime({ m: n, n: nOut, k: kIn, bytesPerElement: ge }, g);
    const dx = gemmTime({ m: n, n: kIn, k: nOut, bytesPerElement: ge }, g);
    const dw = gemmTime({ m: kIn, n: nOut, k: n, bytesPerElement: ge }, g);
    const was = linears[name] ?? { forwardS: 0, inputGradS: 0, weightGradS: 0 };
    linears[name] = { forwardS: was.forwardS + fw.timeS, inputGradS: was.inputGradS + dx.timeS, weightGradS: was.weightGradS + dw.timeS };
    fwdGemm += fw.timeS;
    bwdGemm += dx.timeS + dw.timeS;
    fwdFlops += fw.flops;
    castIn += n * kIn;
    castOut += n * nOut;
  }
  let mlpBytes = (shape.gated ? 3 : 2) * n * (f / t) * e; // the activation
  if (shape.moe) {
    const m = moeBlockTime({ hiddenSize: h, gated: shape.gated, moe: shape.moe, tokens: n, rows, tensorParallel: t, expertParallel: work.expertParallel ?? 1, bytesPerElement: ge, elementwiseBytesPerElement: e }, g);
    linears.fc1 = m.fc1;
    linears.fc2 = m.fc2;
    for (const l of [m.fc1, m.fc2]) { fwdGemm += l.forwardS; bwdGemm += l.inputGradS + l.weightGradS; }
    fwdFlops += m.forwardFlops;
    castIn += m.operandElements.inputs;
    castOut += m.operandElements.outputs;
    mlpBytes = m.elementwiseBytes;
  }
  // MLA's two products have head widths nope + rope (QKᵀ) and v (PV): their mean gives the same FLOPs.
  const coreDim = mla ? (mla.qkNopeHeadDim + mla.qkRopeHeadDim + mla.vHeadDim) / 2 : d;
  const core = attentionCoreTime({ microBatch: b, seqLen: s, heads: a / t, headDim: coreDim, kind: work.attention, dropout: shape.dropout, bytesPerElement: e }, r);
  const att = { forwardS: core.forwardS / C, backwardS: core.backwardS / C, forwardFlops: core.forwardFlops / C, backwardFlops: core.backwardFlops / C };
  const mask = shape.dropout ? 1 : 0;
  // FP8: each GEMM input cast forward and each output gradient backward (read e bytes, write the 1-byte value and its transpose).
  const castFwd = work.fp8 ? (e + 2) * castIn : 0, castBwd = work.fp8 ? (e + 2) * castOut : 0;
  const elementwiseBytes =
    2 * (2 * rows * h * e) // two normalisations: read, write
    + 2 * (3 * rows * h * e + mask * rows * h) // two bias-dropout-add: read two, write one (+ mask)
    + mlpBytes // the activation (MoE: also the permutation and the router)
    + (shape.rotary ? 2 * n * ((a + G) * d / t) * e : 0); // rotary on q and k
  const fwdEw = memoryTimeS(elementwiseBytes + castFwd, r);
  const bwdEw = memoryTimeS(1.5 * elementwiseBytes + castBwd, r);
  const forwardTotal = fwdGemm + att.forwardS + fwdEw;
  return {
    linears,
    forward: { gemmS: fwdGemm, attentionS: att.forwardS, elementwiseS: fwdEw, totalS: forwardTotal },
    backward: { gemmS: bwdGemm, attentionS: att.backwardS, elementwiseS: bwdEw, totalS: bwdGemm + att.backwardS + bwdEw },
    recompute: { selectiveS: work.attention === "eager" ? att.forwardS : 0, fullS: forwardTotal },
    flops: { forward: fwdFlops + att.forwardFlops, backward: 2 * fwdFlops + att.backwardFlops },
  };
}
