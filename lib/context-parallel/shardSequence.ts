/**
 * Moving a (B, H, N, d) tensor between one device and the context-parallel
 * ranks: each rank keeps the rows of its positions, in the order of its shard.
 */

/**
 * Sizes of a tensor laid out (B, H, N, d): batch, heads, sequence, head dimension.
 * @see the sources of {@link shardSequence}: PyTorch `scaled_dot_product_attention` (the (B, H, N, d) layout)
 */
export interface SequenceDims {
  B: number;
  H: number;
  N: number;
  d: number;
}

/**
 * The rows of `x` at `positions`: rank r's part of a (B, H, N, d) tensor.
 *
 * out[b, h, i, :] = x[b, h, positions[i], :], so the result is (B, H, n, d)
 * with n = positions.length, in the order of `positions`.
 * @param x (B, H, N, d) row-major (not modified)
 * @param dims B, H, N, d
 * @param positions n positions in [0, N)
 * @returns (B, H, n, d), a new Float32Array
 * @throws RangeError `x must have length 24 (B·H·N·d), got 23`; `positions[2] = 7 is outside [0, 6)`
 * @example shardSequence(Float32Array.of(10, 11, 12, 13), {B: 1, H: 1, N: 4, d: 1}, [0, 3]) // Float32Array [10, 13]
 * @see Megatron-LM `get_batch_on_this_cp_rank` (`index_select` along the sequence dimension), commit d98e8a6
 */
export function shardSequence(x: Float32Array, dims: SequenceDims, positions: readonly number[]): Float32Array {
  const { B, H, N, d } = dims;
  if (x.length !== B * H * N * d) throw new RangeError(`x must have length ${B * H * N * d} (B·H·N·d), got ${x.length}`);
  positions.forEach((p, i) => { if (!Number.isInteger(p) || p < 0 || p >= N) throw new RangeError(`positions[${i}] = ${p} is outside [0, ${N})`); });
  const n = positions.length;
  const out = new Float32Array(B * H * n * d);
  for (let bh = 0; bh < B * H; bh++) {
    for (let i = 0; i < n; i++) out.set(x.subarray((bh * N + positions[i]) * d, (bh * N + positions[i] + 1) * d), (bh * n + i) * d); // (B, H, n, d)
  }
  return out;
}

/**
 * The inverse of {@link shardSequence} over all ranks: the full (B, H, N, d) tensor from every rank's part.
 * @param parts one (B, H, n, d) tensor per rank
 * @param dims B, H, N, d of the full tensor
 * @param shards each rank's positions (together 0 … N−1 once each)
 * @returns (B, H, N, d), a new Float32Array
 * @throws RangeError `parts[1] must have length 8 (B·H·n·d), got 6`; `parts must hold one tensor per shard (2), got 1`
 * @example gatherSequence([Float32Array.of(10, 13), Float32Array.of(11, 12)], {B: 1, H: 1, N: 4, d: 1}, [[0, 3], [1, 2]]) // Float32Array [10, 11, 12, 13]
 * @see Transformer Engine `transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py`
 *   (`get_seq_chunk_ids_for_reordering_after_attn`), commit d0067d0
 */
export function gatherSequence(parts: readonly Float32Array[], dims: SequenceDims, shards: readonly (readonly number[])[]): Float32Array {
  const { B, H, N, d } = dims;
  if (parts.length !== shards.length) throw new RangeError(`parts must hold one tensor per shard (${shards.length}), got ${parts.length}`);
  const out = new Float32Array(B * H * N * d);
  shards.forEach((pos, r) => {
    const n = pos.length;
    if (parts[r].length !== B * H * n * d) throw new RangeError(`parts[${r}] must have length ${B * H * n * d} (B·H·n·d), got ${parts[r].length}`);
    for (let bh = 0; bh < B * H; bh++) {
      for (let i = 0; i < n; i++) out.set(parts[r].subarray((bh * n + i) * d, (bh * n + i + 1) * d), (bh * N + pos[i]) * d); // (B, H, N, d)
    }
  });
  return out;
}
