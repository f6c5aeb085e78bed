import { World, copyBuffers, type Message, type Topology } from "./World.js";
import { costOf, resultOf, type CollectiveOptions, type CollectiveResult } from "./collectiveResult.js";
import { checkSplits, splitOffsets } from "./splits.js";

/**
 * Options of {@link allToAll}: those of every collective, and the world's nodes.
 * @see the sources of {@link allToAll}: torch.distributed.all_to_all_single; MPI 4.0 MPI_Alltoallv; NCCL tests doc/PERFORMANCE.md
 */
export interface AllToAllOptions extends CollectiveOptions {
  /** Nodes: bytes between nodes go over each rank's network port (default: one node). */
  topology?: Topology;
}

/**
 * All-to-all with a size for every pair of ranks (MPI_Alltoallv; PyTorch's
 * `all_to_all_single` with `input_split_sizes` and `output_split_sizes`):
 * rank r's input is P segments laid end to end, segment d (splits[r][d]
 * elements) for rank d; rank d's result is the P segments sent to it, in the
 * order of their senders. Every message goes in one simultaneous step; a
 * rank's segment for itself is copied locally and sent nowhere.
 *
 * Cost (α-β, full duplex, {@link World}): one step of α + max over ranks of
 * max(bytes out, bytes in)/B, with bytes inside and between nodes timed on
 * separate links when a topology is given; rank r sends Σ_{d≠r} splits[r][d]
 * elements. With equal splits each rank sends (P−1)/P of its input.
 *
 * @param inputs P send buffers; inputs[r] has Σ_d splits[r][d] elements (not modified)
 * @param splits P×P element counts, splits[r][d] ≥ 0 from rank r to rank d
 * @param options cost model, bytes per element, topology
 * @returns result[d]: Σ_r splits[r][d] elements, the segments from ranks 0…P−1 in order; events, time and bytes
 * @throws RangeError `splits must be a P×P table of integers >= 0 (P = 2), got 1 rows`;
 *   `splits[1][0] must be an integer >= 0, got -1`; `inputs[1] has 3 elements but splits[1] sums to 4`
 * @example allToAll([[1, 2, 3], [4, 5]], [[1, 2], [1, 1]]).result // [Float32Array [1, 4], Float32Array [2, 3, 5]]
 * @see torch.distributed.all_to_all_single (input_split_sizes, output_split_sizes); MPI 4.0 standard §6.8 MPI_Alltoallv;
 *   NCCL tests doc/PERFORMANCE.md, "AllToAll" (busbw = algbw · (n−1)/n); Megatron-LM `megatron/core/transformer/moe/token_dispatcher.py` at d98e8a6 (`all_to_all(ep_group, tokens, output_splits, input_splits)`)
 */
export function allToAll(inputs: readonly ArrayLike<number>[], splits: readonly (readonly number[])[], options: AllToAllOptions = {}): CollectiveResult {
  const own = copyBuffers(inputs, false);
  const P = own.length;
  checkSplits(splits, P);
  own.forEach((b, r) => {
    const sum = splits[r].reduce((s, v) => s + v, 0);
    if (b.length !== sum) throw new RangeError(`inputs[${r}] has ${b.length} elements but splits[${r}] sums to ${sum}`);
  });
  const { sendOffsets, receiveOffsets, receiveTotals } = splitOffsets(splits);
  const L = Math.max(0, ...own.map((b, r) => Math.max(b.length, receiveTotals[r])));
  const world = new World(own.map((b) => { const x = new Float32Array(L); x.set(b); return x; }), costOf(options), options);
  // (sender r, receiver d): splits[r][d] elements from r's offset sendOffsets[r][d] to d's offset receiveOffsets[d][r]
  const local = own.map((b, r) => b.slice(sendOffsets[r][r], sendOffsets[r][r] + splits[r][r]));
  const messages: Message[] = [];
  for (let r = 0; r < P; r++) {
    for (let d = 0; d < P; d++) {
      if (d !== r && splits[r][d] > 0) messages.push({ sender: r, receiver: d, chunk: d, offset: sendOffsets[r][d], length: splits[r][d], op: "copy", receiverOffset: receiveOffsets[d][r] });
    }
  }
  world.step("all-to-all", messages);
  local.forEach((seg, r) => world.buffers[r].set(seg, receiveOffsets[r][r]));
  return resultOf(world, world.buffers.map((b, d) => b.slice(0, receiveTotals[d])));
}
