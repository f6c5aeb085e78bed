/**
 * The operations of one FSDP micro-batch in the order the CPU issues them: FSDP2's
 * pre-/post-forward and pre-/post-backward hooks, with its prefetching.
 */
import type { FullyShardPlan } from "./fullyShard.js";
import type { FsdpOp } from "./FsdpWorld.js";

/** What a micro-batch runs and how FSDP prefetches. */
export interface FsdpScheduleOptions {
  /** Reduce-scatter the gradients after each group's backward (false: `set_requires_gradient_sync(False)`, they accumulate unsharded). Default true. */
  sync?: boolean;
  /** The optimizer step follows (the last micro-batch). Default true. */
  last?: boolean;
  /** `set_modules_to_forward_prefetch`: each group's pre-forward also unshards the next n groups (default 0: implicit prefetching only). */
  forwardPrefetch?: number;
  /** Default backward prefetch: a group's pre-backward unshards the group that runs backward next (default true). */
  backwardPrefetch?: boolean;
}

/**
 * FSDP2's schedule of one micro-batch. Forward: the root's pre-forward unshards the root's group; each group's
 * pre-forward (before its first layer) unshards it, and with `forwardPrefetch = n` the next n groups too; its
 * post-forward (after its last layer) reshards it as `reshard_after_forward` says (true: to the shards; an int: to the
 * post-forward mesh; false: not at all), the root's after the last layer. Backward runs the layers in reverse: a group's
 * pre-backward (before its last layer) unshards it if needed and prefetches the group whose backward comes next (the
 * previous one in post-forward order); its post-backward (after its first layer) reshards it and, when `sync`,
 * reduce-scatters its gradients. Then, on the last micro-batch, the optimizer step.
 *
 * @param plan from {@link fullyShard}
 * @param o {@link FsdpScheduleOptions}
 * @returns the operations, in issue order
 * @throws RangeError `forwardPrefetch must be an integer >= 0, got -1`
 * @example fsdpSchedule(plan).slice(0, 4) // unshard root, forward emb, forward proj, unshard blocks.0 (root = emb, proj, head)
 * @see PyTorch `torch/distributed/fsdp/_fully_shard/_fsdp_state.py` (`_pre_forward`: forward prefetch after the unshard),
 *   `_fsdp_param_group.py` at 010ae4a (`pre_forward`, `post_forward`, `pre_backward` with `_backward_prefetch`,
 *   `post_backward`: reshard, then reduce-scatter if `reduce_grads`); `_fully_shard.py` (`set_modules_to_forward_prefetch`)
 */
export function fsdpSchedule(plan: FullyShardPlan, o: FsdpScheduleOptions = {}): FsdpOp[] {
  const { sync = true, last = true, forwardPrefetch = 0, backwardPrefetch = true } = o;
  if (!(Number.isInteger(forwardPrefetch) && forwardPrefetch >= 0)) throw new RangeError(`forwardPrefetch must be an integer >= 0, got ${String(forwardPrefetch)}`);
  const ops: FsdpOp[] = [], unsharded = new Set<number>(), groups = plan.groups, L = plan.groupOfLayer.length;
  const unshard = (g: number) => { if (!unsharded.has(g)) { ops.push({ op: "unshard", group: g }); unsharded.add(g); } };
  const reshard = (g: number, after: "forward" | "backward") => {
    const r = groups[g].reshardAfterForward;
    if (after === "forward" && r === false) return;
    ops.push({ op: "reshard", group: g, to: after === "forward" && typeof r === "number" ? "post-forward" : "sharded" });
    unsharded.delete(g);
  };
  const root = groups.findIndex((g) => g.isRoot);
  const forwardOrder = groups.map((_, g) => g); // the root first, then by first layer
  const preForward = (g: number) => {
    unshard(g);
    const i = forwardOrder.indexOf(g);
    for (const next of forwardOrder.slice(i + 1, i + 1 + forwardPrefetch)) unshard(next);
  };
  if (root >= 0) preForward(root);
  const postForwardOrder: number[] = [];
  for (let l = 0; l < L; l++) {
    const g = plan.groupOfLayer[l], grp = groups[g];
    if (!grp.isRoot && l === grp.layers[0]) preForward(g);
    ops.push({ op: "forward", layer: l });
    if (!grp.isRoot && l === grp.layers[grp.layers.length - 1]) { reshard(g, "forward"); postForwardOrder.push(g); }
  }
  if (root >= 0) { reshard(root, "forward"); postForwardOrder.push(root); }
  const entered = new Set<number>();
  for (let l = L - 1; l >= 0; l--) {
    const g = plan.groupOfLayer[l];
    if (!entered.has(g)) {
      entered.add(g);
      unshard(g);
      const i = postForwardOrder.indexOf(g);
      if (backwardPrefetch && i > 0) unshard(postForwardOrder[i - 1]);
    }
    ops.push({ op: "backward", layer: l });
    if (l === groups[g].layers[0]) {
      reshard(g, "backward");
      if (sync) ops.push({ op: "reduce-scatter", group: g });
    }
  }
  if (last) ops.push({ op: "step" });
  return ops;
}
