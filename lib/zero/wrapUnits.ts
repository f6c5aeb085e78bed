/**
 * FSDP's wrapping units (DeepSpeed ZeRO-3 fetches per module the same way):
 * which layers' parameters are gathered together.
 */
import type { ChunkRange } from "../collectives/index.js";

/** A parameter tensor's place in the flat buffer. */
export interface ParamSlot extends ChunkRange {
  name: string;
  /** True when it has fewer elements than stage3_param_persistence_threshold: whole on every rank, never gathered. */
  persistent: boolean;
}

/** One wrapping unit: consecutive layers whose parameters are gathered and freed together. */
export interface Unit {
  name: string;
  /** Indices into `model.layers`, ascending. */
  layers: number[];
  /** The unit's parameter tensors, in flat order. */
  params: ParamSlot[];
  /** Elements gathered for this unit (its non-persistent parameters). */
  gatheredElements: number;
}

/**
 * How layers are grouped into units: "layer" (every layer its own unit, as
 * `ModuleWrapPolicy` over the layer class), "root" (one unit: only the root is
 * wrapped), or `{minNumParams}` (size_based_auto_wrap_policy: consecutive
 * layers grouped until they hold at least that many parameters).
 * @see PyTorch torch.distributed.fsdp.wrap (ModuleWrapPolicy, size_based_auto_wrap_policy; min_num_params default 1e8)
 */
export type WrapPolicy = "layer" | "root" | { minNumParams: number };

/**
 * Groups layers into units and places every parameter tensor in the flat buffer.
 *
 * @param layers each layer's name and its parameters' names and element counts, in model order
 * @param policy {@link WrapPolicy}
 * @param persistenceThreshold tensors with fewer elements stay whole (DeepSpeed's stage3_param_persistence_threshold; 0 = none)
 * @returns the units in forward order; their params tile [0, Ψ)
 * @throws RangeError `minNumParams must be an integer >= 1, got 0`; `layers must hold at least one layer`
 * @example wrapUnits([{ name: "a", params: [{ name: "a.W", numel: 6 }] }, { name: "b", params: [{ name: "b.W", numel: 4 }] }], "root", 0)[0].gatheredElements // 10
 * @see PyTorch FSDP docs (auto_wrap_policy); Zhao et al. 2023, "PyTorch FSDP", §3.2.1 (the unit decides what is materialised at once)
 */
export function wrapUnits(layers: readonly { name: string; params: readonly { name: string; numel: number }[] }[], policy: WrapPolicy, persistenceThreshold: number): Unit[] {
  if (layers.length === 0) throw new RangeError("layers must hold at least one layer");
  if (typeof policy === "object" && !(Number.isInteger(policy.minNumParams) && policy.minNumParams >= 1)) {
    throw new RangeError(`minNumParams must be an integer >= 1, got ${String(policy.minNumParams)}`);
  }
  const groups: number[][] = [];
  if (policy === "root") groups.push(layers.map((_, i) => i));
  else if (policy === "layer") layers.forEach((_, i) => groups.push([i]));
  else {
    let cur: number[] = [], n = 0;
    layers.forEach((l, i) => {
      cur.push(i);
      n += l.params.reduce((s, p) => s + p.numel, 0);
      if (n >= policy.minNumParams) { groups.push(cur); cur = []; n = 0; }
    });
    if (cur.length > 0) groups.push(cur); // the rest stays with the root, as FSDP's root unit
  }
  let offset = 0;
  return groups.map((g) => {
    const params: ParamSlot[] = g.flatMap((i) => layers[i].params.map((p) => {
      const slot = { name: p.name, start: offset, end: offset + p.numel, persistent: p.numel < persistenceThreshold };
      offset += p.numel;
      return slot;
    }));
    const name = g.length === 1 ? layers[g[0]].name : `${layers[g[0]].name}…${layers[g[g.length - 1]].name}`;
    return { name, layers: g, params, gatheredElements: params.filter((p) => !p.persistent).reduce((s, p) => s + p.end - p.start, 0) };
  });
}
