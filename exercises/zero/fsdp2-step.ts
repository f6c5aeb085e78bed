import { notImplemented } from "../harness/index.js";

/** A half-open range of rows [start, end). */
export interface Rows {
  start: number;
  end: number;
}

/** The model after `fully_shard`: its layers, and its parameter groups in the order forward first needs them. */
export interface ShardedModel {
  /** Layers in forward order; a parameter's shape is row-major, dim 0 first. */
  layers: { name: string; params: { name: string; shape: number[] }[] }[];
  /**
   * The root's group first (it holds every layer no other `fully_shard` call took, so its layers need not be
   * consecutive), then the others by first layer. `reshardAfterForward` is the argument as passed to `fully_shard`.
   */
  groups: { name: string; isRoot: boolean; layers: number[]; reshardAfterForward: boolean | number | null }[];
}

/** One operation of the step; `group` indexes `model.groups`, `layer` indexes `model.layers`. */
export type Op =
  | { op: "unshard"; group: number }
  | { op: "reshard"; group: number; to: "sharded" | "post-forward" }
  | { op: "forward" | "backward"; layer: number }
  | { op: "reduce-scatter"; group: number }
  | { op: "step" };

/**
 * Exercise 8.5 — FSDP2 on the simulated ranks: per-parameter sharding and the step, for any reshard_after_forward.
 *
 * Return how FSDP2 lays out every parameter over the G ranks of a shard group, and the operations of one training
 * step in the order PyTorch's hooks issue them. The grader plugs both into the chapter's simulated World (P ranks
 * training the course model, every message logged, every allocation in a memory ledger) and compares the run with
 * one device and with FSDP2's own.
 *
 * - `shards[name]`: the parameter is a DTensor placed `Shard(0)`: `rows[k]` are the dim-0 rows rank k holds, exactly
 *   as `torch.chunk(param, G, dim=0)` cuts them (an empty range for every chunk torch.chunk does not return), and
 *   `paddedRows` the rows of the padded chunk every rank stores and all-gathers (all ranks send the same size).
 * - `ops`, forward: the root's pre-forward unshards the root's group; every other group's pre-forward (before its
 *   first layer) unshards it; its post-forward (after its last layer; the root's after the model's last layer)
 *   reshards it as its `reshardAfterForward` says, resolved the way `fully_shard` resolves the argument (true,
 *   false, null, or an int that divides G: "post-forward" keeps 1/int of the parameters until backward).
 * - `ops`, backward: the layers in reverse. A group's pre-backward (before the first of its layers to run backward)
 *   unshards it unless it is unsharded, then prefetches — unshards — the group whose backward comes next (FSDP2's
 *   default backward prefetch: the reverse of the order in which groups finished their forward). Its post-backward
 *   (after the last of its layers to run backward) reshards it to its shards and reduce-scatters its gradients.
 *   Then "step". Never issue an unshard of a group that is unsharded.
 *
 * The World stops on an operation it cannot run (a layer computed while its group is not unsharded, a reshard of a
 * sharded group, "post-forward" without an int, a step with gradients not reduced…) and names it. Graded on: the
 * shards; the trained weights (fp32, within 1e-5 of one device on the global batch after 2 steps); every message's
 * sender, receiver, offset, length and bytes, in order, against FSDP2's; and each rank's peak memory.
 * Read first: the page's section "FSDP2: fully_shard". Do not read lib/zero/ before solving (FsdpWorld.ts is the
 * machine your plan runs on and is fine to read).
 *
 * @param model the layers and the groups
 * @param shardSize G, ranks each parameter is sharded over (integer ≥ 1)
 * @returns `{shards, ops}`
 * @example
 * fsdp2Step({ layers: [{ name: "a", params: [{ name: "a.W", shape: [5, 2] }] }],
 *             groups: [{ name: "root", isRoot: true, layers: [0], reshardAfterForward: null }] }, 4)
 * // { shards: { "a.W": { rows: [{ start: 0, end: 2 }, { start: 2, end: 4 }, { start: 4, end: 5 }, { start: 5, end: 5 }], paddedRows: 2 } },
 * //   ops: [{ op: "unshard", group: 0 }, { op: "forward", layer: 0 }, { op: "backward", layer: 0 },
 * //         { op: "reshard", group: 0, to: "sharded" }, { op: "reduce-scatter", group: 0 }, { op: "step" }] }
 */
export function fsdp2Step(model: ShardedModel, shardSize: number): { shards: Record<string, { rows: Rows[]; paddedRows: number }>; ops: Op[] } {
  return notImplemented("8.5");
}
