import { attentionCoreTime } from "./attentionCoreTime.js";
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
 * @param shape the layer ({@link LayerShape})
 * @param work micro-batch, sequence, tensor parallelism, attention kind, element size ({@link LayerWork})
 * @param r the GPU's roofline for the data type
 * @returns the {@link LayerTime}
 * @throws RangeError `tensorParallel must be an integer >= 1, got 0` (likewise microBatch, seqLen, hiddenSize, …),
 *   `numHeads (32) must be divisible by tensorParallel (3)`, and those of {@link gemmTime}
 * @example transformerLayerTime(llama2_7bShape, { microBatch: 1, seqLen: 4096, tensorParallel: 1, sequenceParallel: false, attention: "flash", bytesPerElement: 2 }, a100).forward.totalS
 * @see Narayanan et al. 2021, §5.1 and Appendix (the GEMMs of a layer: 24·b·s·h² + 4·b·s²·h forward FLOPs for a 4h MLP);
 *   Korthikanti et al. 2022, §4 (the tensors of a layer) and §4.2.2 (sequence parallelism); Megatron-LM `fused_bias_dropout.py`, `fused_bias_gelu.py`
 */
export function transformerLayerTime(shape: LayerShape, work: LayerWork, r: Roofline): LayerTime {
  const h = positiveInt("hiddenSize", shape.hiddenSize);
  const a = positiveInt("numHeads", shape.numHeads);
  const G = positiveInt("numKvHeads", shape.numKvHeads);
  const d = positiveInt("headDim", shape.headDim);
  const f = positiveInt("intermediateSize", shape.intermediateSize);
  const b = positiveInt("microBatch", work.microBatch);
  const s = positiveInt("seqLen", work.seqLen);
  const t = positiveInt("tensorParallel", work.tensorParallel);
  if (a % t !== 0) throw new RangeError(`numHeads (${a}) must be divisible by tensorParallel (${t})`);
  const e = work.bytesPerElement;
  const n = b * s;
  // Output widths per rank; the fused QKV is split evenly over t (Megatron, also for t > G).
  const qkvOut = Math.ceil(((a + 2 * G) * d) / t);
  const fc1Out = ((shape.gated ? 2 : 1) * f) / t;
  const dims: Record<Linear, [number, number]> = { qkv: [h, qkvOut], proj: [(a * d) / t, h], fc1: [h, Math.ceil(fc1Out)], fc2: [Math.ceil(f / t), h] };
  const linears = {} as LayerTime["linears"];
  let fwdGemm = 0, bwdGemm = 0, fwdFlops = 0;
  for (const [name, [kIn, nOut]] of Object.entries(dims) as [Linear, [number, number]][]) {
    const fw = gemmTime({ m: n, n: nOut, k: kIn, bytesPerElement: e }, r);
    const dx = gemmTime({ m: n, n: kIn, k: nOut, bytesPerElement: e }, r);
    const dw = gemmTime({ m: kIn, n: nOut, k: n, bytesPerElement: e }, r);
    linears[name] = { forwardS: fw.timeS, inputGradS: dx.timeS, weightGradS: dw.timeS };
    fwdGemm += fw.timeS;
    bwdGemm += dx.timeS + dw.timeS;
    fwdFlops += fw.flops;
  }
  const att = attentionCoreTime({ microBatch: b, seqLen: s, heads: a / t, headDim: d, kind: work.attention, dropout: shape.dropout, bytesPerElement: e }, r);
  const rows = work.sequenceParallel ? n / t : n; // rows the replicated kernels handle on this rank
  const mask = shape.dropout ? 1 : 0;
  const elementwiseBytes =
    2 * (2 * rows * h * e) // two normalisations: read, write
    + 2 * (3 * rows * h * e + mask * rows * h) // two bias-dropout-add: read two, write one (+ mask)
    + (shape.gated ? 3 : 2) * n * (f / t) * e // activation
    + (shape.rotary ? 2 * n * ((a + G) * d / t) * e : 0); // rotary on q and k
  const fwdEw = memoryTimeS(elementwiseBytes, r);
  const bwdEw = memoryTimeS(1.5 * elementwiseBytes, r);
  const forwardTotal = fwdGemm + att.forwardS + fwdEw;
  return {
    linears,
    forward: { gemmS: fwdGemm, attentionS: att.forwardS, elementwiseS: fwdEw, totalS: forwardTotal },
    backward: { gemmS: bwdGemm, attentionS: att.backwardS, elementwiseS: bwdEw, totalS: bwdGemm + att.backwardS + bwdEw },
    recompute: { selectiveS: work.attention === "eager" ? att.forwardS : 0, fullS: forwardTotal },
    flops: { forward: fwdFlops + att.forwardFlops, backward: 2 * fwdFlops + att.backwardFlops },
  };
}
