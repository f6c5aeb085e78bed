import { gemmTime, memoryTimeS, type Roofline } from "./roofline.js";

/**
 * The attention core of one layer on one GPU: softmax(QKᵀ/√d)·V for `heads`
 * heads of dimension `headDim`, `microBatch` sequences of `seqLen` tokens.
 * @see {@link attentionCoreTime}
 */
export interface AttentionWork {
  microBatch: number;
  seqLen: number;
  /** Query heads on this GPU (a/t under tensor parallelism). */
  heads: number;
  headDim: number;
  /** "eager": the s × s scores and probabilities go through HBM; "flash": one fused kernel keeps them on chip. */
  kind: "eager" | "flash";
  /** Attention dropout on the probabilities (GPT-2 and Megatron's GPT: p = 0.1; Llama: none). Eager only: FlashAttention draws its mask on chip. */
  dropout: boolean;
  /** Bytes of one element (2 for fp16/bf16). */
  bytesPerElement: number;
}

/**
 * Time of the attention core of one layer, forward and backward, on the roofline.
 *
 * Eager (Megatron's fused scale-mask-softmax, causal mask applied to the full
 * s × s scores): forward = the batched GEMM QKᵀ (b·a heads of s × s × d), the
 * softmax reading the scores and writing the probabilities (2·s²·e per head),
 * dropout writing a 1-byte mask and the dropped probabilities (s²·(e + 1) + s²·e
 * read), and P·V; backward = four batched GEMMs (dV, dP, dQ, dK) and the softmax
 * (and dropout) backward reading what forward saved and the gradient, writing one
 * gradient (3·s²·e, and 2·s²·e + s² with dropout). These s² terms are memory traffic,
 * which is why an eager softmax does not speed up with a faster tensor core.
 *
 * Flash: forward FLOPs 4·b·a·s²·d, halved for the causal mask (only the blocks
 * on and below the diagonal run), backward 2.5 × forward (five matmuls against two,
 * Q·Kᵀ recomputed), both at `attentionEfficiency` of the peak. No s² bytes.
 * @param w the work ({@link AttentionWork})
 * @param r the roofline (its `attentionEfficiency` for flash)
 * @returns seconds `{forwardS, backwardS}` and the FLOPs the kernels execute `{forwardFlops, backwardFlops}`
 * @throws RangeError `seqLen must be an integer >= 1, got 0` (likewise microBatch, heads, headDim), and those of {@link gemmTime}
 * @example attentionCoreTime({ microBatch: 1, seqLen: 4096, heads: 32, headDim: 128, kind: "flash", dropout: false, bytesPerElement: 2 }, a100).forwardS
 *   // 4·4096²·128·32/2 = 137 GFLOP at 0.5 × 312 TFLOP/s ≈ 0.88 ms
 * @see Dao 2023, *FlashAttention-2*, §4.1 (FLOPs 4·s²·d·heads, ÷2 causal, backward × 2.5) and abstract (50–73 % of peak on A100);
 *   Korthikanti et al. 2022, §4.1 (the softmax and dropout tensors, 5·a·s² bytes per sequence); Megatron-LM `fused_kernels` (scaled_masked_softmax)
 */
export function attentionCoreTime(w: AttentionWork, r: Roofline): { forwardS: number; backwardS: number; forwardFlops: number; backwardFlops: number } {
  for (const k of ["microBatch", "seqLen", "heads", "headDim"] as const) {
    if (!Number.isSafeInteger(w[k]) || w[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${w[k]}`);
  }
  const { microBatch: b, seqLen: s, heads: a, headDim: d, bytesPerElement: e } = w;
  const batch = b * a;
  if (w.kind === "flash") {
    const forwardFlops = (4 * b * s * s * d * a) / 2;
    const backwardFlops = 2.5 * forwardFlops;
    const rate = r.peakFlops * r.attentionEfficiency;
    return { forwardS: forwardFlops / rate, backwardS: backwardFlops / rate, forwardFlops, backwardFlops };
  }
  const g = (m: number, n: number, k: number) => gemmTime({ m, n, k, batch, bytesPerElement: e }, r);
  const s2 = batch * s * s; // elements of the scores of all heads
  const drop = w.dropout ? s2 * (2 * e + 1) : 0; // mask written (1 B), dropped probabilities written, probabilities read
  const qk = g(s, s, d), pv = g(s, d, s);
  const forwardS = qk.timeS + memoryTimeS(2 * s2 * e + drop, r) + pv.timeS;
  const dropBack = w.dropout ? s2 * (2 * e + 1) : 0; // read mask and gradient, write gradient
  const backwardS = g(s, d, s).timeS /* dV = Pᵀ·dO */ + g(s, s, d).timeS /* dP = dO·Vᵀ */ + memoryTimeS(3 * s2 * e + dropBack, r)
    + g(s, d, s).timeS /* dQ = dS·K */ + g(s, d, s).timeS /* dK = dSᵀ·Q */;
  return { forwardS, backwardS, forwardFlops: qk.flops + pv.flops, backwardFlops: 4 * qk.flops };
}
