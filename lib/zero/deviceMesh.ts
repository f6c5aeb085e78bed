/**
 * FSDP2's data-parallel DeviceMesh: 1-D (shard over every rank) or 2-D HSDP
 * (replicate × shard), its process groups, and `reshard_after_forward`.
 */

/** A data-parallel mesh of R × G ranks: rank r = i·G + j sits in replica i and shard position j (init_device_mesh's row-major order). */
export interface DataParallelMesh {
  /** P = R·G. */
  numRanks: number;
  /** R, replicas (1 for a 1-D mesh). */
  replicate: number;
  /** G, ranks a parameter is sharded over. */
  shard: number;
  /** The R shard groups: replica i is ranks i·G … i·G + G − 1 (consecutive: a node when G is the GPUs of a node). */
  shardGroups: number[][];
  /** The G replicate groups: shard position j is ranks j, G + j, 2G + j, … */
  replicateGroups: number[][];
}

/**
 * The mesh `init_device_mesh("cuda", (R, G), mesh_dim_names=("replicate", "shard"))` (HSDP) or, with R = 1,
 * `init_device_mesh("cuda", (G,))` (FSDP): placements `(Replicate(), Shard(0))`.
 *
 * @param shape `{replicate: R, shard: G}` (integers ≥ 1; replicate defaults to 1)
 * @returns {@link DataParallelMesh}
 * @throws RangeError `mesh.shard must be an integer >= 1, got 0`; `mesh.replicate must be an integer >= 1, got 0`
 * @example deviceMesh({ replicate: 2, shard: 2 }).replicateGroups // [[0, 2], [1, 3]]
 * @see PyTorch `fully_shard` docstring (2-D mesh: sharded across the 1st dim, replicated across the 0th); `torch.distributed.device_mesh.init_device_mesh`
 */
export function deviceMesh(shape: { replicate?: number; shard: number }): DataParallelMesh {
  const G = shape.shard, R = shape.replicate ?? 1;
  for (const [k, v] of [["shard", G], ["replicate", R]] as const) if (!(Number.isInteger(v) && v >= 1)) throw new RangeError(`mesh.${k} must be an integer >= 1, got ${String(v)}`);
  return {
    numRanks: R * G, replicate: R, shard: G,
    shardGroups: Array.from({ length: R }, (_, i) => Array.from({ length: G }, (_, j) => i * G + j)),
    replicateGroups: Array.from({ length: G }, (_, j) => Array.from({ length: R }, (_, i) => i * G + j)),
  };
}

/** `reshard_after_forward` as `fully_shard` takes it: true, false, an int, or null (unset). */
export type ReshardAfterForward = boolean | number | null;

/**
 * What `reshard_after_forward` means for one group, resolved as FSDP2 resolves it: null is true for every group but
 * the root (false: backward needs the root first); an int g must divide the shard size G; 1 means false and G means
 * true; otherwise the group reshards after forward to groups of g consecutive ranks (the mesh viewed as (−1, g)),
 * each keeping 1/g of the padded unsharded parameters, and backward all-gathers within those groups.
 *
 * @param value the argument (true | false | int | null)
 * @param shardSize G, the shard group size of the mesh
 * @param isRoot whether the group is the root's (the last `fully_shard` call, on the whole model)
 * @returns true (free after forward), false (keep until backward) or g (reshard to groups of g, 1 < g < G)
 * @throws RangeError `reshard_after_forward as an int must be a factor of 4 (the shard group size), not 3`;
 *   `reshard_after_forward must be true, false, an integer or null, got "yes"`
 * @example resolveReshardAfterForward(2, 8, false) // 2
 * @example resolveReshardAfterForward(null, 8, true) // false
 * @see PyTorch `torch/distributed/fsdp/_fully_shard/_fsdp_init.py` at b795ad9 (`_get_post_forward_mesh_info`: "If passing
 *   reshard_after_forward as an int, it should be a factor of …"; `mesh.view(-1, reshard_after_forward)`); `_fsdp_state.py`
 *   (`_lazy_init`: the root does not reshard after forward when the argument was left unset)
 */
export function resolveReshardAfterForward(value: ReshardAfterForward | undefined, shardSize: number, isRoot: boolean): boolean | number {
  if (value === null || value === undefined) return !isRoot;
  if (typeof value === "boolean") return value;
  if (typeof value !== "number" || !Number.isInteger(value)) throw new RangeError(`reshard_after_forward must be true, false, an integer or null, got ${JSON.stringify(value)}`);
  if (value < 1 || value > shardSize || shardSize % value !== 0) throw new RangeError(`reshard_after_forward as an int must be a factor of ${shardSize} (the shard group size), not ${value}`);
  return value === 1 ? false : value === shardSize ? true : value;
}

/**
 * The post-forward groups of `reshard_after_forward = g`: the mesh's ranks viewed as (−1, g), groups of g
 * consecutive ranks (across replicas too in HSDP); rank r keeps slice r mod g of each padded parameter.
 * @param mesh the data-parallel mesh
 * @param g the resolved int (a divisor of the shard size)
 * @returns P/g groups of g ranks
 * @throws RangeError `post-forward group size 3 must divide the shard size 4`
 * @example postForwardGroups(deviceMesh({ shard: 4 }), 2) // [[0, 1], [2, 3]]
 * @see PyTorch `_fsdp_init.py` at b795ad9 (`post_forward_mesh_tensor = mesh_info.mesh.mesh.view(-1, reshard_after_forward)`)
 */
export function postForwardGroups(mesh: DataParallelMesh, g: number): number[][] {
  if (!(Number.isInteger(g) && g >= 1 && mesh.shard % g === 0)) throw new RangeError(`post-forward group size ${g} must divide the shard size ${mesh.shard}`);
  return Array.from({ length: mesh.numRanks / g }, (_, i) => Array.from({ length: g }, (_, k) => i * g + k));
}
