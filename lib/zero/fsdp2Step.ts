/**
 * Exercise 8.5's reference: FSDP2's per-parameter sharding and the schedule of one
 * step, for any `reshard_after_forward`, as data the simulated World runs.
 */
import { shardDim0 } from "./shardDim0.js";
import { fullyShard, type LayerSpec } from "./fullyShard.js";
import { fsdpSchedule } from "./fsdpSchedule.js";
import type { ReshardAfterForward } from "./deviceMesh.js";
import type { FsdpOp } from "./fsdpOp.js";
import type { ChunkRange } from "../collectives/index.js";

/** A model as the exercise hands it over: its layers and its `fully_shard` groups, the root's first. */
export interface Fsdp2StepModel {
  layers: LayerSpec[];
  /** In the order forward first needs them: the root's (every layer no other call took), then by first layer. */
  groups: { name: string; isRoot: boolean; layers: number[]; reshardAfterForward: ReshardAfterForward }[];
}

/** Each parameter's dim-0 chunks (one per shard rank) and padded chunk rows, and the step's operations. */
export interface Fsdp2StepPlan {
  shards: Record<string, { rows: ChunkRange[]; paddedRows: number }>;
  ops: FsdpOp[];
}

/**
 * The Shard(0) layout of every parameter over G ranks ({@link shardDim0}) and FSDP2's operations of one training step
 * ({@link fsdpSchedule}: sync, last micro-batch, implicit forward prefetch, the default backward prefetch), with each
 * group's `reshard_after_forward` resolved as `fully_shard` resolves it.
 *
 * @param model the layers and the groups (raw `reshard_after_forward`: true, false, an int dividing G, or null)
 * @param shardSize G, ranks each parameter is sharded over
 * @returns {@link Fsdp2StepPlan}
 * @throws RangeError `reshard_after_forward as an int must be a factor of 4 (the shard group size), not 3`
 * @example fsdp2Step({ layers: [{ name: "a", params: [{ name: "a.W", shape: [5, 2] }] }], groups: [{ name: "root", isRoot: true, layers: [0], reshardAfterForward: null }] }, 4)
 *   // { shards: { "a.W": { rows: [{0,2},{2,4},{4,5},{5,5}], paddedRows: 2 } }, ops: [unshard 0, forward 0, backward 0, reshard 0 → sharded, reduce-scatter 0, step] }
 * @see PyTorch `torch/distributed/fsdp/_fully_shard/` at 010ae4a (`_fsdp_param.py`, `_fsdp_param_group.py`), `_fsdp_init.py` at b795ad9
 */
export function fsdp2Step(model: Fsdp2StepModel, shardSize: number): Fsdp2StepPlan {
  const calls = [
    ...model.groups.filter((g) => !g.isRoot).map((g) => ({ modules: g.layers.map((l) => model.layers[l].name), reshardAfterForward: g.reshardAfterForward })),
    { modules: "root" as const, reshardAfterForward: model.groups.find((g) => g.isRoot)?.reshardAfterForward ?? null },
  ];
  const plan = fullyShard(model.layers, calls, { shard: shardSize });
  const shards: Fsdp2StepPlan["shards"] = {};
  for (const l of model.layers) for (const p of l.params) {
    const s = shardDim0(p.shape, shardSize);
    shards[p.name] = { rows: s.rows, paddedRows: s.paddedRows };
  }
  return { shards, ops: fsdpSchedule(plan) };
}
