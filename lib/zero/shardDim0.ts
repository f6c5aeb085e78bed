/**
 * FSDP2's per-parameter sharding: a DTensor `Shard(0)` placement, each parameter
 * cut on dim 0 with `torch.chunk` and padded to the first chunk's size.
 */
import type { ChunkRange } from "../collectives/index.js";

/**
 * `torch.chunk(rows, numChunks)` on dim 0, padded with empty chunks to exactly `numChunks` as FSDP2's
 * `_chunk_with_empty` does: every chunk has c = ⌈rows/numChunks⌉ rows except the last non-empty one, and
 * the chunks after it are empty (so 13 rows in 6 chunks are 3, 3, 3, 3, 1, 0: torch.chunk returns only five).
 * `numpy.array_split` (and this course's ZeRO partition) cut 13 into 3, 2, 2, 2, 2, 2 instead.
 *
 * @param rows the size of dim 0 (integer ≥ 0)
 * @param numChunks the shard world size (integer ≥ 1)
 * @returns numChunks row ranges [start, end), in order, covering [0, rows)
 * @throws RangeError `rows must be an integer >= 0, got -1`; `numChunks must be an integer >= 1, got 0`
 * @example torchChunk(13, 6).map((c) => c.end - c.start) // [3, 3, 3, 3, 1, 0]
 * @see PyTorch `torch.chunk` documentation (`torch.arange(13).chunk(6)` gives five chunks); `torch/distributed/fsdp/_fully_shard/_fsdp_common.py`
 *   (`_chunk_with_empty`) and `_fsdp_param.py` (`_init_sharded_param`) at commit 010ae4a89516fa3be548ab16dff711414ec12d0b
 */
export function torchChunk(rows: number, numChunks: number): ChunkRange[] {
  if (!(Number.isInteger(rows) && rows >= 0)) throw new RangeError(`rows must be an integer >= 0, got ${String(rows)}`);
  if (!(Number.isInteger(numChunks) && numChunks >= 1)) throw new RangeError(`numChunks must be an integer >= 1, got ${String(numChunks)}`);
  const c = Math.ceil(rows / numChunks);
  return Array.from({ length: numChunks }, (_, k) => ({ start: Math.min(rows, k * c), end: Math.min(rows, (k + 1) * c) }));
}

/** One parameter's `Shard(0)` layout over a shard group of G ranks. */
export interface Shard0Layout {
  /** The parameter's shape (row-major; dim 0 is cut). */
  shape: number[];
  /** Elements per row: the product of the other dims (1 for a vector). */
  rowElements: number;
  /** Rows of each rank's chunk, rank k of the shard group: {@link torchChunk}(shape[0], G). */
  rows: ChunkRange[];
  /** Rows of the padded chunk every rank holds: ⌈shape[0]/G⌉ (chunk 0 is always the largest). */
  paddedRows: number;
  /** Elements of the padded chunk: paddedRows × rowElements, the same on every rank (the all-gather input). */
  paddedShardElements: number;
}

/**
 * The `Shard(0)` layout of one parameter over G ranks, as FSDP2 builds it: rank k holds rows
 * `torchChunk(shape[0], G)[k]`, stored in a buffer padded to the first chunk's size, so that every rank
 * contributes the same number of elements to the all-gather and the unsharded parameter is the first
 * numel elements of the G padded chunks laid end to end.
 *
 * @param shape the parameter's shape, each dim an integer ≥ 1 (FSDP2 refuses scalars)
 * @param shardSize G, ranks the parameter is sharded over (integer ≥ 1)
 * @returns {@link Shard0Layout}
 * @throws RangeError `shape must be a list of integers >= 1, got [0, 3]`; `numChunks must be an integer >= 1, got 0`
 * @example shardDim0([5, 2], 4) // rows [0,2) [2,4) [4,5) [5,5); paddedRows 2; paddedShardElements 4 (4 × 4 = 16 ≥ 10 elements gathered)
 * @see PyTorch `torch/distributed/fsdp/_fully_shard/_fsdp_param.py` at 010ae4a (`padded_sharded_size = chunks[0].size()  # 0th always padded`);
 *   the `fully_shard` docstring (parameters are DTensors sharded on dim-0)
 */
export function shardDim0(shape: readonly number[], shardSize: number): Shard0Layout {
  if (!Array.isArray(shape) || shape.length === 0 || shape.some((d) => !Number.isInteger(d) || d < 1)) {
    throw new RangeError(`shape must be a list of integers >= 1, got [${String(shape)}]`);
  }
  const rows = torchChunk(shape[0], shardSize);
  const rowElements = shape.slice(1).reduce((a, b) => a * b, 1);
  const paddedRows = rows[0].end - rows[0].start;
  return { shape: [...shape], rowElements, rows, paddedRows, paddedShardElements: paddedRows * rowElements };
}

/**
 * FSDP1's `FlatParameter` layout of a unit: its parameters flattened into one vector of N elements, cut with
 * `torch.chunk(N, G)` and padded to the first chunk, ⌈N/G⌉ elements a rank. It is {@link shardDim0} of the
 * 1-D shape [N], which is how the course runs FSDP1 on the same simulated ranks as FSDP2.
 *
 * @param numels the unit's parameters' element counts, in order (each ≥ 1)
 * @param shardSize G (integer ≥ 1)
 * @returns the layout of the flat parameter, shape [Σ numels]
 * @throws RangeError `numels must be integers >= 1, got [3, 0]`
 * @example flatParameterLayout([6, 4], 4).paddedShardElements // 3: ⌈10/4⌉, 2 elements of padding in all
 * @see PyTorch `torch/distributed/fsdp/_flat_param.py` at fe03cf6 (`_get_unpadded_shard`: `torch.flatten(tensor).chunk(world_size)`,
 *   `numel_to_pad = chunks[0].numel() - chunk.numel()`); Zhao et al. 2023, PyTorch FSDP, §3.2 (FlatParameter)
 */
export function flatParameterLayout(numels: readonly number[], shardSize: number): Shard0Layout {
  if (numels.length === 0 || numels.some((n) => !Number.isInteger(n) || n < 1)) throw new RangeError(`numels must be integers >= 1, got [${String(numels)}]`);
  return shardDim0([numels.reduce((a, b) => a + b, 0)], shardSize);
}
