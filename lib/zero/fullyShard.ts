/**
 * `fully_shard` applied bottom-up to the course model: which parameters each call
 * groups, how each group is laid out on the ranks, and its reshard setting.
 */
import { shardDim0, flatParameterLayout, type Shard0Layout } from "./shardDim0.js";
import { deviceMesh, resolveReshardAfterForward, type DataParallelMesh, type ReshardAfterForward } from "./deviceMesh.js";

/** A layer of the model: its name and its parameters' names and shapes, in order. */
export interface LayerSpec {
  name: string;
  params: { name: string; shape: number[] }[];
}

/** One `fully_shard(module, reshard_after_forward=…)` call: on named layers (one module), or on the root, last. */
export interface FullyShardCall {
  modules: string[] | "root";
  reshardAfterForward?: ReshardAfterForward;
}

/** A model parameter inside a sharded tensor (FSDP2: the tensor is the parameter; FSDP1: the unit's FlatParameter). */
export interface TensorMember {
  name: string;
  /** Index of its layer in the model, and of the parameter in that layer. */
  layer: number;
  index: number;
  numel: number;
  /** First element inside the (unsharded, unpadded) tensor. */
  start: number;
}

/** What one all-gather input of a group holds: a sharded tensor and where its padded chunk sits. */
export interface GroupTensor {
  layout: Shard0Layout;
  /** Offset of this tensor's padded chunk in a rank's all-gather input (Σ of the previous tensors' padded chunks). */
  offset: number;
  members: TensorMember[];
}

/** One parameter group: one `fully_shard` call's parameters, all-gathered in one collective and reduce-scattered in one. */
export interface ParamGroup {
  name: string;
  isRoot: boolean;
  /** Its layers, ascending. */
  layers: number[];
  tensors: GroupTensor[];
  /** Resolved `reshard_after_forward`: true, false or g. */
  reshardAfterForward: boolean | number;
  /** S, elements of one rank's all-gather input (the padded chunks laid end to end); the all-gather output is G·S. */
  paddedShardElements: number;
  /** Elements of the group's parameters, unpadded. */
  numel: number;
}

/** How the groups are laid out: FSDP2's per-parameter Shard(0), or FSDP1's one FlatParameter per unit. */
export type ShardingLayout = "per-parameter" | "flat-parameter";

/** Lays out one parameter over G ranks (FSDP2: {@link shardDim0}). */
export type ShardFn = (param: { name: string; shape: number[] }, shardSize: number) => Shard0Layout;

/**
 * Checks a parameter's Shard(0) layout before the World uses it: G chunks of rows, in order, covering [0, rows), none
 * longer than the padded chunk; its element counts recomputed from the shape.
 * @param name the parameter, for the message
 * @param shape its shape
 * @param shardSize G
 * @param l the layout to check
 * @returns the layout with `shape`, `rowElements` and `paddedShardElements` taken from the shape
 * @throws RangeError `blocks.0.W1: chunk 2 covers rows 5..8, expected to start at 6 (chunks in order, covering every row once)`;
 *   `blocks.0.W1: chunk 0 has 4 rows, more than paddedRows 3`; `blocks.0.W1: 3 chunks for 4 shard ranks`
 * @example checkShard0Layout("w", [5, 2], 4, shardDim0([5, 2], 4)).paddedShardElements // 4
 * @see PyTorch `_fsdp_param.py` at 010ae4a (every rank's all-gather input has the padded size of chunk 0)
 */
export function checkShard0Layout(name: string, shape: readonly number[], shardSize: number, l: Pick<Shard0Layout, "rows" | "paddedRows">): Shard0Layout {
  const rows = shape[0], rowElements = shape.slice(1).reduce((a, b) => a * b, 1);
  if (!l || !Array.isArray(l.rows) || l.rows.length !== shardSize) throw new RangeError(`${name}: ${Array.isArray(l?.rows) ? l.rows.length : "no"} chunks for ${shardSize} shard ranks`);
  if (!(Number.isInteger(l.paddedRows) && l.paddedRows >= 0)) throw new RangeError(`${name}: paddedRows must be an integer >= 0, got ${String(l.paddedRows)}`);
  let at = 0;
  l.rows.forEach((c, k) => {
    if (!(Number.isInteger(c?.start) && Number.isInteger(c?.end) && c.start === at && c.end >= c.start && c.end <= rows)) throw new RangeError(`${name}: chunk ${k} covers rows ${c?.start}..${c?.end}, expected to start at ${at} (chunks in order, covering every row once)`);
    if (c.end - c.start > l.paddedRows) throw new RangeError(`${name}: chunk ${k} has ${c.end - c.start} rows, more than paddedRows ${l.paddedRows}`);
    at = c.end;
  });
  if (at !== rows) throw new RangeError(`${name}: the chunks cover rows 0..${at}, not all ${rows}`);
  return { shape: [...shape], rowElements, rows: l.rows.map((c) => ({ start: c.start, end: c.end })), paddedRows: l.paddedRows, paddedShardElements: l.paddedRows * rowElements };
}

/** The sharded model. */
export interface FullyShardPlan {
  mesh: DataParallelMesh;
  layout: ShardingLayout;
  /** In the order forward first needs them: the root's group first (its pre-forward runs before any layer), then by first layer. */
  groups: ParamGroup[];
  /** The group of each layer. */
  groupOfLayer: number[];
  numParams: number;
}

/**
 * Applies `fully_shard` calls in order (bottom-up, the root last) to a model of layers on a data-parallel mesh. Each
 * call groups the parameters of its modules not already in a group (the root takes the rest); every group's tensors
 * are sharded on dim 0 over the mesh's shard dimension ({@link shardDim0}), or, with `layout: "flat-parameter"`,
 * flattened into one FSDP1 FlatParameter ({@link flatParameterLayout}).
 *
 * @param layers the model's layers in forward order
 * @param calls the `fully_shard` calls, the last on `"root"`; a non-root call names consecutive layers
 * @param mesh `{replicate?: R, shard: G}` (default R = 1)
 * @param layout "per-parameter" (FSDP2, default) or "flat-parameter" (FSDP1)
 * @param shard per-parameter layouts (default {@link shardDim0}; exercise 8.5 plugs a student's in), checked by {@link checkShard0Layout}
 * @returns {@link FullyShardPlan}
 * @throws RangeError `the last fully_shard call must be on "root" (the whole model)`; `layer blocks.0 is already in the group of fully_shard call 0`;
 *   `fully_shard call 1 names no layer "blocks.9"`; `fully_shard call 0 must name consecutive layers, got emb, head`; and those of
 *   {@link resolveReshardAfterForward} and {@link deviceMesh}
 * @example fullyShard(layers, [{ modules: ["blocks.0"] }, { modules: "root" }], { shard: 4 }).groups.map((g) => g.name) // ["root", "blocks.0"]
 * @see PyTorch `fully_shard` docstring ("constructs one group that includes the parameters in module.parameters() except those already
 *   assigned to a group from an earlier call on a submodule … should be called bottom-up"); `_fsdp_param_group.py` at 010ae4a
 */
export function fullyShard(layers: readonly LayerSpec[], calls: readonly FullyShardCall[], mesh: { replicate?: number; shard: number }, layout: ShardingLayout = "per-parameter", shard: ShardFn = (p, G) => shardDim0(p.shape, G)): FullyShardPlan {
  const m = deviceMesh(mesh);
  if (calls.length === 0 || calls[calls.length - 1].modules !== "root") throw new RangeError(`the last fully_shard call must be on "root" (the whole model)`);
  const owner = new Array<number>(layers.length).fill(-1);
  calls.forEach((c, ci) => {
    if (c.modules === "root") {
      if (ci !== calls.length - 1) throw new RangeError(`only the last fully_shard call may be on "root", got call ${ci}`);
      layers.forEach((_, li) => { if (owner[li] < 0) owner[li] = ci; });
      return;
    }
    const idx = c.modules.map((name) => {
      const li = layers.findIndex((l) => l.name === name);
      if (li < 0) throw new RangeError(`fully_shard call ${ci} names no layer ${JSON.stringify(name)}`);
      if (owner[li] >= 0) throw new RangeError(`layer ${name} is already in the group of fully_shard call ${owner[li]}`);
      return li;
    }).sort((a, b) => a - b);
    if (idx.length === 0 || idx.some((li, k) => k > 0 && li !== idx[k - 1] + 1)) throw new RangeError(`fully_shard call ${ci} must name consecutive layers, got ${c.modules.join(", ") || "none"}`);
    for (const li of idx) owner[li] = ci;
  });
  const groups: (ParamGroup & { call: number })[] = [];
  calls.forEach((c, ci) => {
    const mine = layers.map((_, li) => li).filter((li) => owner[li] === ci);
    const members: (TensorMember & { shape: number[] })[] = mine.flatMap((li) => layers[li].params.map((p, index) => ({ name: p.name, shape: p.shape, layer: li, index, numel: p.shape.reduce((a, b) => a * b, 1), start: 0 })));
    if (members.length === 0) return; // a call that finds no parameter makes no group
    let offset = 0, inFlat = 0;
    const tensors: GroupTensor[] = layout === "flat-parameter"
      ? [{ layout: flatParameterLayout(members.map((p) => p.numel), m.shard), offset: 0, members: members.map(({ shape: _s, ...p }) => { const t = { ...p, start: inFlat }; inFlat += p.numel; return t; }) }]
      : members.map(({ shape, ...p }) => { const t = { layout: checkShard0Layout(p.name, shape, m.shard, shard({ name: p.name, shape }, m.shard)), offset, members: [p] }; offset += t.layout.paddedShardElements; return t; });
    const isRoot = c.modules === "root";
    groups.push({
      call: ci, name: c.modules === "root" ? "root" : c.modules.join("+"), isRoot, layers: mine, tensors,
      reshardAfterForward: resolveReshardAfterForward(c.reshardAfterForward, m.shard, isRoot),
      paddedShardElements: tensors.reduce((n, t) => n + t.layout.paddedShardElements, 0),
      numel: members.reduce((n, p) => n + p.numel, 0),
    });
  });
  groups.sort((a, b) => (a.isRoot ? -1 : b.isRoot ? 1 : a.layers[0] - b.layers[0]));
  const groupOfLayer = layers.map((_, li) => groups.findIndex((g) => g.layers.includes(li)));
  return { mesh: m, layout, groups: groups.map(({ call: _c, ...g }) => g), groupOfLayer, numParams: groups.reduce((n, g) => n + g.numel, 0) };
}
