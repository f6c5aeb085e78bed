import { notImplemented } from "../harness/index.js";
import type { EpGroup, EpRank, EpMoeOptions } from "../../lib/expert-parallel/types.js";

/**
 * The types (documented in lib/expert-parallel/types.ts, which you may read):
 * - EpGroup { P; allToAll(inputs, splits, label?) }: rank r's input is P segments end to end, splits[r][d] elements
 *   for rank d; rank d receives the segments sent to it in the order of their senders (new arrays);
 * - EpRank { router: Param (h, E); experts: Expert[] (its E/P local experts, global ids r·E/P …); expertBias? };
 * - EpMoeOptions: lib/nn's MoeRouterOptions, hiddenSize h, auxLossScale (default 1).
 */
export type { EpGroup, EpRank, EpMoeOptions };

/**
 * Exercise 14.4 — build it: an expert-parallel MoE block, forward and backward, on P simulated ranks.
 *
 * The block is lib/nn's moeLayer, y_t = x_t + Σ_j kept·g_{t,j}·e_{i_j}(x_t), with its E experts spread over the P
 * ranks of `group` (E/P each, contiguously). Rank r holds its own tokens xs[r] (N_r, h), N_r ≥ 0, and routes them
 * itself: `routeTokens` on rank r's tokens (so capacity and the auxiliary losses are per rank).
 * Every token reaches its experts' ranks by one all-to-all (label "dispatch") and its experts' outputs come home
 * by the reverse one ("combine"). With `dys` (∂L/∂y per rank), also run the backward: ∂L/∂o of every kept pair goes
 * out by all-to-all ("combine backward"), each expert's backward runs on the rank that holds it, ∂L/∂x of every
 * pair comes home ("dispatch backward"), and each rank runs its router's backward (`routerBackward` with
 * lossScale = auxLossScale/P). ADD gradients into the parameters; return dxs.
 * With `dys === null`, run the forward only: two all-to-alls, no gradient touched.
 *
 * Conventions (graded on the World's log): a rank's send buffer holds its kept (token, slot) pairs ordered by
 * expert, then by token (Megatron's permute); splits are in elements (tokens · h); a rank's segment for itself is
 * part of the all-to-all's input (splits[r][r]) like any other.
 * Use lib/nn's building blocks: routeTokens, routerBackward, expertForward, expertBackward, combineSlots,
 * combineSlotsBackward, sumInputGradients, cpuOps() (float32). Do not read lib/expert-parallel beyond types.ts.
 * Tolerance: |Δ| ≤ 1e-5 against one device (lib/nn's moeLayer with numGroups = P), per step of training.
 * Read: the chapter's section "Expert parallelism: two all-to-alls per layer".
 *
 * @param group the P ranks and their all-to-all
 * @param ranks what each rank holds (P entries)
 * @param xs per rank, its tokens (N_r, h), row-major
 * @param dys per rank ∂L/∂y (N_r, h), or null for the forward alone
 * @param o routing options, h, auxLossScale
 * @returns ys, and dxs (null without dys), per rank: new arrays
 * @example
 * // P = 1, E = 1, k = 1, h = 1: the one expert gets every token, g = 1 (topk-softmax over one logit):
 * // y = x + e(x); four all-to-alls with dys, each moving nothing off the rank
 * expertParallelMoe(group1, [{ router, experts: [e] }], [Float32Array.of(2)], [Float32Array.of(1)], { ...opts, hiddenSize: 1 })
 */
export function expertParallelMoe(group: EpGroup, ranks: EpRank[], xs: Float32Array[], dys: Float32Array[] | null, o: EpMoeOptions): { ys: Float32Array[]; dxs: Float32Array[] | null } {
  return notImplemented("14.4");
}
