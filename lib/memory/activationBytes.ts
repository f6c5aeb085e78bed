/**
 * Activation recomputation: keep everything, drop the attention core (selective), or keep only each layer's input (full).
 * @see the sources of {@link activationBytesPerLayer}: Korthikanti et al. 2022, *Reducing Activation Recomputation in Large Transformer Models*, §4, Table 2
 */
export type Recompute = "none" | "selective" | "full";

/**
 * Options of {@link activationBytesPerLayer}.
 * @see the sources of {@link activationBytesPerLayer}: Korthikanti et al. 2022, *Reducing Activation Recomputation in Large Transformer Models*, §4, Table 2
 */
export interface ActivationOptions {
  /** s, tokens per sequence. */
  seqLen: number;
  /** b, sequences per micro-batch on one GPU. */
  microBatch: number;
  /** h, hidden size. */
  hiddenSize: number;
  /** a, attention heads. */
  numHeads: number;
  /** t, tensor-parallel size (default 1); must divide numHeads. */
  tensorParallel?: number;
  /** Megatron sequence parallelism: the t-unsplit parts (norms, dropouts) are split along s too. */
  sequenceParallel?: boolean;
  recompute?: Recompute;
  /** Bytes of one stored activation element: 2 for fp16/bf16 (the paper's setting), 4 for fp32. */
  bytesPerElement?: 2 | 4;
}

function checkInt(name: string, v: number, min: number): void {
  if (!Number.isSafeInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${v}`);
}

/**
 * Activation bytes one transformer layer keeps for its backward pass, after
 * Korthikanti et al. 2022 (Table 2), on one GPU.
 *
 * With 2-byte activations and 1-byte dropout masks, a GPT layer stores
 * sbh·34 + 5·a·s²·b bytes: of the 34, 10 (two norm inputs, the attention and
 * MLP inputs, two dropout masks) are replicated across tensor-parallel ranks
 * and 24 are split by t; the 5as²b of attention (softmax output 2as²b, its
 * dropout mask as²b and the dropped-out probabilities 2as²b; the raw scores
 * QKᵀ are not stored) are split by t. Variants: tensor parallel sbh(10 + 24/t + 5as/(ht));
 * + sequence parallel sbh(34/t + 5as/(ht)); selective recomputation drops the
 * 5as/(ht) term; full recomputation keeps only the layer input, 2sbh (2sbh/t
 * with sequence parallelism). For 4-byte activations each 2-byte element
 * doubles and masks stay 1 byte: sbh(16e + 2) + as²b(2e + 1) with e = 4.
 * Convention: the GPT block of the paper (4h MLP, dropout) is used for every
 * family; embeddings, final norm, logits and loss are not included. The
 * result is the exact ceiling of the exact rational byte count (one rounding,
 * at the end; computed in integers, so it does not depend on the order of the terms).
 *
 * @param o see {@link ActivationOptions}
 * @returns bytes (an integer)
 * @throws RangeError `seqLen must be an integer >= 1, got 0`, or
 *   `tensorParallel (3) must divide numHeads (40)`
 * @example activationBytesPerLayer({ seqLen: 2048, microBatch: 1, hiddenSize: 12288, numHeads: 96 })
 *   // 2048·12288·(34 + 80) = 2,868,903,936 (GPT-3 175B, one layer, no parallelism)
 * @see Korthikanti et al. 2022, *Reducing Activation Recomputation in Large Transformer Models*, §4.1 (Eq. 1) and §5, Table 2
 */
export function activationBytesPerLayer(o: ActivationOptions): number {
  checkInt("seqLen", o.seqLen, 1);
  checkInt("microBatch", o.microBatch, 1);
  checkInt("hiddenSize", o.hiddenSize, 1);
  checkInt("numHeads", o.numHeads, 1);
  const t = o.tensorParallel ?? 1;
  checkInt("tensorParallel", t, 1);
  if (o.numHeads % t !== 0) throw new RangeError(`tensorParallel (${t}) must divide numHeads (${o.numHeads})`);
  const e = o.bytesPerElement ?? 2;
  if (e !== 2 && e !== 4) throw new RangeError(`bytesPerElement must be 2 or 4, got ${e}`);
  const recompute = o.recompute ?? "none";
  if (!["none", "selective", "full"].includes(recompute)) throw new RangeError(`recompute must be none, selective or full, got ${JSON.stringify(recompute)}`);
  const sp = o.sequenceParallel ?? false;
  const { seqLen: s, microBatch: b, hiddenSize: h, numHeads: a } = o;
  // Exact integer arithmetic: every count is (an integer numerator) / t, rounded up once, at the end.
  // BigInt keeps the numerator exact beyond 2^53, so the order of the terms cannot change the result.
  const [S, B, H, A, T, E] = [s, b, h, a, t, e].map(BigInt) as [bigint, bigint, bigint, bigint, bigint, bigint];
  const sbh = S * B * H;
  const ceilDiv = (num: bigint, den: bigint) => Number((num + den - 1n) / den);
  if (recompute === "full") return sp ? ceilDiv(E * sbh, T) : Number(E * sbh);
  const replicated = 4n * E + 2n; // 10 at e = 2: norm inputs, attention/MLP inputs, two dropout masks
  const split = 12n * E; // 24 at e = 2: QKV, scores inputs, MLP inner activations …
  const linear = sp ? (replicated + split) * sbh : replicated * sbh * T + split * sbh; // × t
  const attention = recompute === "selective" ? 0n : (2n * E + 1n) * A * S * S * B; // 5as²b at e = 2, × t / t
  return ceilDiv(linear + attention, T);
}

/**
 * Activation bytes a GPU holds for a whole model: L · per-layer bytes.
 *
 * With pipeline parallelism and the 1F1B schedule the first stage holds L/p
 * layers for p micro-batches in flight, which is again L · per-layer bytes
 * (Korthikanti et al. 2022, §4.2.3), so the result does not depend on p.
 *
 * @param o per-layer options plus `numLayers` (L)
 * @returns bytes (an integer)
 * @throws RangeError `numLayers must be an integer >= 1, got 0` and those of {@link activationBytesPerLayer}
 * @example activationBytes({ seqLen: 2048, microBatch: 8, hiddenSize: 5120, numHeads: 40, numLayers: 40, recompute: "full" })
 *   // 40 · 2·2048·8·5120 = 6,710,886,400 bytes (6.25 GiB)
 * @see Korthikanti et al. 2022, §4.2.3 (pipeline parallelism)
 */
export function activationBytes(o: ActivationOptions & { numLayers: number }): number {
  checkInt("numLayers", o.numLayers, 1);
  return o.numLayers * activationBytesPerLayer(o);
}
