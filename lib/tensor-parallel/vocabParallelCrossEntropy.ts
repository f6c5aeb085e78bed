import type { TpComm } from "./comm.js";

/**
 * What {@link vocabParallelCrossEntropy} returns.
 * @see {@link vocabParallelCrossEntropy}
 */
export interface VocabParallelCrossEntropyResult {
  /** Per-row loss −log softmax(logits)[target], (N), on every rank (Megatron returns the unreduced loss). */
  losses: Float32Array;
  /** Mean of `losses`. */
  loss: number;
  /** Per rank: d(mean loss)/d(its logit slice), (N, V/T). */
  dlogits: Float32Array[];
}

/**
 * Cross-entropy over a vocabulary split across T ranks, without ever gathering
 * the (N, V) logits (Megatron-LM `vocab_parallel_cross_entropy`): rank r holds
 * logits[:, r·V/T … (r+1)·V/T) (the output of a column-parallel head). Three
 * all-reduces of N numbers each: the row maxima (op MAX), the target logit
 * (SUM: only the rank whose slice holds the target contributes), and Σ exp(l − max)
 * (SUM). Then loss = log Σexp − (l_target − max). The gradient of the mean loss is
 * (softmax − onehot)/N on each rank's own slice, with no communication.
 * Communication: 3·N elements instead of the N·V of a gather of the logits.
 *
 * Numerics: equals lib/nn's `crossEntropy` on the gathered logits within 1e-5
 * per row (sums of exponentials in float64 per rank, float32 across ranks).
 * @param comm the group (its log gets 3 forward all-reduces: ops "ce-max", "ce-target", "ce-sumexp")
 * @param logitShards per rank (N, V/T), row-major
 * @param targets N token ids in [0, V)
 * @returns per-row losses, their mean, and each rank's logit gradient
 * @throws RangeError `logitShards must hold one (N, V/T) slice per rank (T = 2), got 1`; `targets[3] = 9 is outside the vocabulary [0, 8)`
 * @example vocabParallelCrossEntropy(new TpComm(2), [Float32Array.of(0), Float32Array.of(0)], Int32Array.of(1)).loss // log 2 ≈ 0.6931
 * @see Megatron-LM megatron/core/tensor_parallel/cross_entropy.py; Shoeybi et al. 2019 §3 (fusing the output GEMM with the cross-entropy to reduce the communication from b·s·v to b·s)
 */
export function vocabParallelCrossEntropy(comm: TpComm, logitShards: readonly Float32Array[], targets: Int32Array): VocabParallelCrossEntropyResult {
  const T = comm.T, N = targets.length;
  if (logitShards.length !== T || N === 0 || logitShards.some((s) => s.length !== logitShards[0].length || s.length % N !== 0 || s.length === 0)) {
    throw new RangeError(`logitShards must hold one (N, V/T) slice per rank (T = ${T}), got ${logitShards.length}`);
  }
  const c = logitShards[0].length / N, V = c * T;
  targets.forEach((t, i) => { if (!Number.isInteger(t) || t < 0 || t >= V) throw new RangeError(`targets[${i}] = ${t} is outside the vocabulary [0, ${V})`); });
  const localMax = logitShards.map((s) => Float32Array.from({ length: N }, (_, i) => { let m = -Infinity; for (let j = 0; j < c; j++) m = Math.max(m, s[i * c + j]); return m; }));
  const max = comm.allReduce(localMax, "forward", "ce-max", "max")[0];
  const target = comm.allReduce(logitShards.map((s, r) => Float32Array.from({ length: N }, (_, i) => {
    const t = targets[i] - r * c;
    return t >= 0 && t < c ? s[i * c + t] - max[i] : 0;
  })), "forward", "ce-target")[0];
  const sumExp = comm.allReduce(logitShards.map((s) => Float32Array.from({ length: N }, (_, i) => { let e = 0; for (let j = 0; j < c; j++) e += Math.exp(s[i * c + j] - max[i]); return e; })), "forward", "ce-sumexp")[0];
  const losses = Float32Array.from({ length: N }, (_, i) => Math.log(sumExp[i]) - target[i]);
  const dlogits = logitShards.map((s, r) => {
    const d = new Float32Array(N * c);
    for (let i = 0; i < N; i++) for (let j = 0; j < c; j++) {
      const p = Math.exp(s[i * c + j] - max[i]) / sumExp[i];
      d[i * c + j] = (p - (targets[i] === r * c + j ? 1 : 0)) / N;
    }
    return d;
  });
  let sum = 0;
  for (const l of losses) sum += l;
  return { losses, loss: sum / N, dlogits };
}
