/**
 * The options of an MoE block, with their defaults and checks.
 */
import type { MoeRouterOptions } from "./moeRouter.js";

/**
 * Options of an MoE block (only numExperts and topK are required).
 * @see the sources of {@link resolveMoeOptions}
 */
export interface MoeOptions extends Partial<MoeRouterOptions> {
  numExperts: number;
  topK: number;
  /** H of every expert (default 4h). */
  expertHiddenDim?: number;
  /** G: rows are split into G contiguous groups, each with its own capacity and auxiliary losses (default 1). */
  numGroups?: number;
  /** γ of DeepSeek-V3's bias update (default 0: off). */
  biasUpdateRate?: number;
  /** Multiplies the auxiliary losses' gradients, as Megatron's MoEAuxLossAutoScaler does the main loss's scale (default 1). */
  auxLossScale?: number;
}

/**
 * Every option of an MoE block, filled in.
 * @see the sources of {@link resolveMoeOptions}
 */
export type ResolvedMoeOptions = MoeRouterOptions & Required<Pick<MoeOptions, "expertHiddenDim" | "numGroups" | "biasUpdateRate" | "auxLossScale">>;

/**
 * Fills in and checks an MoE block's options. Defaults: order "topk-softmax" (Megatron's default, Mixtral),
 * dropless (capacityFactor null), dropPolicy "position", auxLossCoeff 0.01 and variant "switch" (Switch Transformer's α),
 * zLossCoeff 0, expertHiddenDim 4h, numGroups 1, biasUpdateRate 0, auxLossScale 1.
 * @param o the options given
 * @param width h, for the default expert width
 * @returns the resolved options (a new object)
 * @throws {RangeError} `moe.numExperts must be an integer >= 1, got 0`; `moe.topK must be an integer in [1, numExperts = 4], got 5`;
 *   `moe.capacityFactor must be null or a finite number > 0, got 0`; `moe.auxLossCoeff must be a finite number >= 0, got -1` (likewise zLossCoeff, biasUpdateRate);
 *   `moe.numGroups must be an integer >= 1, got 0`; `moe.expertHiddenDim must be an integer >= 1, got 0`; `moe.order must be one of …`
 * @example resolveMoeOptions({ numExperts: 8, topK: 2 }, 32).expertHiddenDim // 128
 * @see Megatron-LM `megatron/core/transformer/transformer_config.py` at d98e8a6 (moe_router_pre_softmax False, moe_expert_capacity_factor None,
 *   moe_token_drop_policy "probs", moe_router_bias_update_rate 1e-3); Fedus et al. 2021 §2.2 (α = 10⁻²)
 */
export function resolveMoeOptions(o: MoeOptions, width: number): ResolvedMoeOptions {
  const int = (k: string, v: unknown, min: number) => { if (!Number.isInteger(v) || (v as number) < min) throw new RangeError(`moe.${k} must be an integer >= ${min}, got ${v}`); return v as number; };
  const nonNeg = (k: string, v: unknown) => { if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new RangeError(`moe.${k} must be a finite number >= 0, got ${v}`); return v; };
  const E = int("numExperts", o.numExperts, 1);
  if (!Number.isInteger(o.topK) || o.topK < 1 || o.topK > E) throw new RangeError(`moe.topK must be an integer in [1, numExperts = ${E}], got ${o.topK}`);
  const order = o.order ?? "topk-softmax";
  if (!["softmax-topk", "topk-softmax", "sigmoid"].includes(order)) throw new RangeError(`moe.order must be one of softmax-topk, topk-softmax, sigmoid, got ${JSON.stringify(order)}`);
  const cf = o.capacityFactor ?? null;
  if (cf !== null && (typeof cf !== "number" || !Number.isFinite(cf) || cf <= 0)) throw new RangeError(`moe.capacityFactor must be null or a finite number > 0, got ${cf}`);
  const dropPolicy = o.dropPolicy ?? "position";
  if (dropPolicy !== "position" && dropPolicy !== "probs") throw new RangeError(`moe.dropPolicy must be "position" or "probs", got ${JSON.stringify(dropPolicy)}`);
  const auxLossVariant = o.auxLossVariant ?? "switch";
  if (auxLossVariant !== "switch" && auxLossVariant !== "gshard") throw new RangeError(`moe.auxLossVariant must be "switch" or "gshard", got ${JSON.stringify(auxLossVariant)}`);
  return {
    numExperts: E, topK: o.topK, order, capacityFactor: cf, dropPolicy, auxLossVariant,
    auxLossCoeff: nonNeg("auxLossCoeff", o.auxLossCoeff ?? 0.01), zLossCoeff: nonNeg("zLossCoeff", o.zLossCoeff ?? 0),
    expertHiddenDim: int("expertHiddenDim", o.expertHiddenDim ?? 4 * width, 1), numGroups: int("numGroups", o.numGroups ?? 1, 1),
    biasUpdateRate: nonNeg("biasUpdateRate", o.biasUpdateRate ?? 0), auxLossScale: nonNeg("auxLossScale", o.auxLossScale ?? 1),
  };
}

/**
 * The row ranges of G contiguous groups of N rows: the first N mod G groups get one row more (numpy.array_split's rule).
 * @param rows N (integer ≥ 0)
 * @param numGroups G (integer ≥ 1)
 * @returns G pairs [start, end)
 * @example groupBounds(10, 4) // [[0, 3], [3, 6], [6, 8], [8, 10]]
 * @see numpy.array_split; Lepikhin et al. 2020, *GShard* §2.2 (tokens split into groups, capacity per group)
 */
export function groupBounds(rows: number, numGroups: number): [number, number][] {
  const base = Math.floor(rows / numGroups), extra = rows % numGroups, out: [number, number][] = [];
  let s = 0;
  for (let g = 0; g < numGroups; g++) { const n = base + (g < extra ? 1 : 0); out.push([s, s + n]); s += n; }
  return out;
}
