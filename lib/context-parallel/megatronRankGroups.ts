/**
 * Which global ranks form each parallel group when context parallelism joins
 * tensor, pipeline and data parallelism, computed the way Megatron-LM's
 * RankGenerator does from an order string such as "tp-cp-dp-pp".
 */

/**
 * A parallel dimension.
 * @see the sources of {@link megatronRankGroups}
 */
export type ParallelAxis = "tp" | "cp" | "dp" | "pp";

/**
 * Sizes of the four dimensions and the order in which ranks are numbered (first = adjacent ranks).
 * @see the sources of {@link megatronRankGroups}
 */
export interface RankLayout {
  tp: number;
  cp: number;
  dp: number;
  pp: number;
  /** Axes joined by "-", fastest-varying first; default Megatron's "tp-cp-dp-pp" (its "tp-cp-ep-dp-pp" with ep = 1). */
  order?: string;
}

/**
 * The groups of global ranks for one axis or a combination of axes ("dp-cp": the ranks that
 * all-reduce gradients together).
 *
 * Ranks are numbered with the first axis of `order` varying fastest: rank = Σ index_k · stride_k
 * with stride_k the product of the earlier axes' sizes. A group fixes the other axes and lets the
 * named ones vary; groups come in increasing order of their smallest rank.
 * @param layout tp, cp, dp, pp (integers >= 1) and order
 * @param axes one axis or several joined by "-", e.g. "cp" or "dp-cp"
 * @returns world/size groups of size Π(sizes of axes) ranks each (new arrays)
 * @throws RangeError `tp must be an integer >= 1, got 0`; `order must name tp, cp, dp and pp once each, got "tp-dp"`; `unknown axis "ep" in "ep"`
 * @example megatronRankGroups({tp: 4, cp: 2, dp: 1, pp: 1}, "cp") // [[0, 4], [1, 5], [2, 6], [3, 7]]
 * @see Megatron-LM `megatron/core/parallel_state.py` `generate_masked_orthogonal_rank_groups`, `RankGenerator`, and the
 *   `context_parallel_size` docstring of `initialize_model_parallel` (8 GPUs, TP 4, CP 2: CP groups [0, 4], [1, 5], [2, 6], [3, 7]), commit d98e8a6
 */
export function megatronRankGroups(layout: RankLayout, axes: string): number[][] {
  const order = (layout.order ?? "tp-cp-dp-pp").split("-");
  const all: ParallelAxis[] = ["tp", "cp", "dp", "pp"];
  if (order.length !== 4 || all.some((a) => !order.includes(a))) throw new RangeError(`order must name tp, cp, dp and pp once each, got ${JSON.stringify(layout.order)}`);
  for (const a of all) if (!Number.isSafeInteger(layout[a]) || layout[a] < 1) throw new RangeError(`${a} must be an integer >= 1, got ${layout[a]}`);
  const wanted = axes.split("-");
  for (const a of wanted) if (!all.includes(a as ParallelAxis)) throw new RangeError(`unknown axis ${JSON.stringify(a)} in ${JSON.stringify(axes)}`);
  const sizes = order.map((a) => layout[a as ParallelAxis]);
  const strides = sizes.map((_, k) => sizes.slice(0, k).reduce((p, s) => p * s, 1));
  const inGroup = order.map((a) => wanted.includes(a));
  const world = sizes.reduce((p, s) => p * s, 1);
  const groups = new Map<number, number[]>();
  for (let rank = 0; rank < world; rank++) {
    // the group is named by the indices of the axes it does not span
    let key = 0;
    order.forEach((_, k) => { if (!inGroup[k]) key += Math.floor(rank / strides[k]) % sizes[k] * strides[k]; });
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(rank);
  }
  return [...groups.values()];
}
