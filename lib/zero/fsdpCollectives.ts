/**
 * FSDP2's collectives of one parameter group on the simulated World: the all-gather
 * copy-in, ring and copy-out, and the reduce-scatter copy-in and ring, over the shard
 * groups, the post-forward groups or the replicate groups of the mesh.
 */
import { chunkBounds, ringAllGatherPhaseGroups, ringReduceScatterPhaseGroups, type World } from "../collectives/index.js";

/**
 * How one collective lays a group out in every rank's buffer: the region starts at `base`; the member at position j
 * of its ring writes its input at base + j·W, where W = Σ chunk sizes, tensor t at offset Σ_{t'<t} chunks[t'].
 * The output, viewed as (w, W), is the all-gather output `all_gather_into_tensor` fills.
 */
export interface GroupRegion {
  base: number;
  /** Elements each member contributes per tensor (the padded chunk; the post-forward slice after an int reshard). */
  chunks: number[];
}

const stride = (g: GroupRegion) => g.chunks.reduce((a, b) => a + b, 0);
const offsets = (g: GroupRegion) => g.chunks.map((_, t) => g.chunks.slice(0, t).reduce((a, b) => a + b, 0));

/**
 * All-gathers a group inside each ring at once (`foreach_all_gather` + `foreach_all_gather_copy_out`): copy-in of every
 * rank's pieces (`inputs[r][t]`, each of `chunks[t]` elements) at base + j·W + offset_t, one ring all-gather per ring
 * of the region's w·W elements, then copy-out: tensor t's gathered value is the w pieces of t laid end to end.
 *
 * @param world the simulated ranks (their buffers hold the region)
 * @param rings the rings (same size w), each rank in one
 * @param region {@link GroupRegion}
 * @param inputs per rank, per tensor, its piece (already in the all-gather dtype)
 * @param bytesPerElement bytes of the all-gather dtype (`param_dtype`)
 * @returns per rank, per tensor, the w·chunks[t] gathered elements (the padded unsharded tensor)
 * @throws RangeError `rank 2's piece of tensor 1 has 3 elements, expected 4 (every rank sends the padded size)`
 * @example allGatherGroup(world, [[0, 1]], { base: 0, chunks: [2, 1] }, [[[1, 2], [3]], [[4, 5], [6]]], 2)
 *   // every rank: [[1, 2, 4, 5], [3, 6]]; rank 0's buffer [1, 2, 3, 4, 5, 6]
 * @see PyTorch `torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py` at 010ae4a (`all_gather_copy_in`: the input is
 *   `all_gather_output.narrow(0, all_gather_input_numel * rank, …)`; `split_with_sizes_copy(…, dim=1)` for the copy-out)
 */
export function allGatherGroup(world: World, rings: number[][], region: GroupRegion, inputs: ArrayLike<number>[][], bytesPerElement: number): Float32Array[][] {
  const W = stride(region), off = offsets(region), w = rings[0].length;
  for (const ring of rings) ring.forEach((r, j) => region.chunks.forEach((c, t) => {
    const piece = inputs[r][t];
    if (piece.length !== c) throw new RangeError(`rank ${r}'s piece of tensor ${t} has ${piece.length} elements, expected ${c} (every rank sends the padded size)`);
    world.buffers[r].set(piece, region.base + j * W + off[t]);
  }));
  const bounds = Array.from({ length: w }, (_, j) => ({ start: region.base + j * W, end: region.base + (j + 1) * W }));
  ringAllGatherPhaseGroups(world, { ranks: rings, bounds: rings.map(() => bounds) }, bytesPerElement);
  return world.buffers.map((buf) => region.chunks.map((c, t) => {
    const out = new Float32Array(w * c);
    for (let j = 0; j < w; j++) out.set(buf.subarray(region.base + j * W + off[t], region.base + j * W + off[t] + c), j * c);
    return out;
  }));
}

/**
 * Reduce-scatters a group inside each shard group at once, then (HSDP) all-reduces each rank's result across its
 * replicate group (`foreach_reduce`): copy-in of each rank's padded gradients, chunk j of tensor t at base + j·S + offset_t
 * (`chunk_cat` into the (G, S) view), a ring reduce-scatter (rank at shard position j keeps row j, the sum over its shard
 * group), then a ring all-reduce of that row over the replicas. Every addition is rounded by the World's reduce function.
 *
 * @param world the simulated ranks
 * @param shardGroups the R shard groups (rings of G)
 * @param replicateGroups the G replicate groups (rings of R; R = 1: no all-reduce)
 * @param region chunks[t] = the padded chunk of tensor t, base = the reduce-scatter region
 * @param grads per rank, per tensor, the padded unsharded gradient (G·chunks[t] elements, zeros past numel), in the reduce dtype
 * @param bytesPerElement bytes of `reduce_dtype`
 * @returns per rank, its S reduced elements (row j of the (G, S) view: tensor t at offset_t)
 * @example reduceScatterGroup(world, [[0, 1]], [[0], [1]], { base: 0, chunks: [1] }, [[[1, 2]], [[10, 20]]], 4) // [[11], [22]]
 * @see PyTorch `_fsdp_collectives.py` at 010ae4a (`foreach_reduce_scatter_copy_in`, `reduce_scatter_tensor` over the shard group,
 *   `all_reduce` over the replicate group for HSDP); Zhao et al. 2023, PyTorch FSDP, §3.2.2 (hybrid sharding)
 */
export function reduceScatterGroup(world: World, shardGroups: number[][], replicateGroups: number[][], region: GroupRegion, grads: ArrayLike<number>[][], bytesPerElement: number): Float32Array[] {
  const S = stride(region), off = offsets(region), G = shardGroups[0].length;
  for (const ring of shardGroups) for (const r of ring) region.chunks.forEach((c, t) => {
    const g = grads[r][t];
    if (g.length !== G * c) throw new RangeError(`rank ${r}'s gradient of tensor ${t} has ${g.length} elements, expected ${G * c} (padded to ${G} chunks of ${c})`);
    for (let j = 0; j < G; j++) world.buffers[r].set(Array.prototype.slice.call(g, j * c, (j + 1) * c), region.base + j * S + off[t]);
  });
  const rows = Array.from({ length: G }, (_, j) => ({ start: region.base + j * S, end: region.base + (j + 1) * S }));
  ringReduceScatterPhaseGroups(world, { ranks: shardGroups, bounds: shardGroups.map(() => rows) }, bytesPerElement);
  const R = replicateGroups[0].length;
  if (R > 1) {
    // replicate group j all-reduces row j: a ring reduce-scatter then all-gather over chunkBounds(S, R)
    const bounds = replicateGroups.map((_, j) => chunkBounds(S, R).map((b) => ({ start: rows[j].start + b.start, end: rows[j].start + b.end })));
    ringReduceScatterPhaseGroups(world, { ranks: replicateGroups, bounds }, bytesPerElement);
    ringAllGatherPhaseGroups(world, { ranks: replicateGroups, bounds }, bytesPerElement);
  }
  return world.buffers.map((buf, r) => {
    const j = shardGroups.flat().indexOf(r) % G;
    return buf.slice(rows[j].start, rows[j].end);
  });
}
