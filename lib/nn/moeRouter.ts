/**
 * The router of an MoE layer on one group of tokens: logits x·W_r, top-k routing,
 * capacity, the auxiliary losses; and its backward. Shared by the one-device
 * layer (moeLayer) and the expert-parallel one (lib/expert-parallel).
 */
import { topKRouting, gatesBackward, type Routing, type RoutingOrder } from "./moeRouting.js";
import { applyCapacity, expertCapacity, type DropPolicy } from "./moeCapacity.js";
import { loadBalancingLoss, routerZLoss, type RouterLoss } from "./moeLosses.js";
import { addInto, roundCompute } from "./ops.js";
import type { Activation, Ops, Param } from "./types.js";

/**
 * How an MoE layer routes (every field required; {@link resolveMoeOptions} fills the defaults).
 * @see the sources of {@link routeTokens}
 */
export interface MoeRouterOptions {
  /** E, experts (integer ≥ 1). */
  numExperts: number;
  /** k, experts per token (integer in [1, E]). */
  topK: number;
  order: RoutingOrder;
  /** CF, or null for no capacity (dropless, Megatron's default). */
  capacityFactor: number | null;
  dropPolicy: DropPolicy;
  /** α of the load-balancing loss (Switch: 10⁻²; 0 turns it off). */
  auxLossCoeff: number;
  auxLossVariant: "switch" | "gshard";
  /** Coefficient of the router z-loss (ST-MoE: 10⁻³; 0 turns it off). */
  zLossCoeff: number;
}

/**
 * What the router decided for one group of tokens, kept for its backward.
 * @see the sources of {@link routeTokens}
 */
export interface RouterState {
  /** (T, h) the group's tokens. */
  x: Activation;
  /** (T, E) x·W_r. */
  logits: Float32Array;
  routing: Routing;
  /** (T, k) 1 where the (token, slot) pair fits its expert's capacity. */
  kept: Uint8Array;
  /** Tokens per expert in this group (Infinity when dropless). */
  capacity: number;
  /** The load-balancing loss (without α). */
  aux: RouterLoss;
  /** The z-loss (without its coefficient). */
  z: RouterLoss;
  /** Tokens per expert as routed, before drops (with DeepSeek-V3's bias, if any). */
  routedPerExpert: number[];
}

/**
 * Routes one group of T tokens: logits = x·W_r, then {@link topKRouting},
 * {@link expertCapacity} and {@link applyCapacity} on the group, and the losses.
 * @param router W_r, (h, E)
 * @param x (T, h) the group's tokens (T ≥ 0)
 * @param o routing options
 * @param expertBias (E) selection bias (DeepSeek-V3's b_i), or undefined
 * @param ops precision and matmul
 * @returns the {@link RouterState}
 * @throws {RangeError} from topKRouting and expertCapacity (e.g. `topK must be an integer in [1, numExperts = 4], got 5`)
 * @example routeTokens(router, { data: x, rows: 4, cols: 8 }, options, undefined, cpuOps()).routing.experts // (4, k) expert ids
 * @see Megatron-LM `megatron/core/transformer/moe/router.py` `TopKRouter.routing` at d98e8a6 (z-loss, top-k, token dropping, aux loss, in that order)
 */
export function routeTokens(router: Param, x: Activation, o: MoeRouterOptions, expertBias: ArrayLike<number> | undefined, ops: Ops): RouterState {
  const T = x.rows, h = x.cols, E = o.numExperts;
  const logits = T === 0 ? new Float32Array(0) : ops.matmul(x.data, router.data, { M: T, K: h, N: E }, ops.precision.accumulate); // (T, E)
  const routing = topKRouting(logits, T, E, o.topK, o.order, o.order === "sigmoid" ? expertBias : undefined);
  const capacity = o.capacityFactor === null ? Infinity : expertCapacity(T, E, o.topK, o.capacityFactor);
  const kept = applyCapacity(routing, capacity, o.dropPolicy);
  const routedPerExpert = new Array<number>(E).fill(0);
  for (const e of routing.experts) routedPerExpert[e]++;
  return { x, logits, routing, kept, capacity, aux: loadBalancingLoss(routing, o.auxLossVariant), z: routerZLoss(logits, T, E), routedPerExpert };
}

/**
 * Backward of the router: ∂L/∂logits = gatesBackward(dGates) + lossScale · (α·∂aux/∂logits + c_z·∂z/∂logits);
 * ADDS xᵀ·∂L/∂logits into W_r's grad and returns the router's part of ∂L/∂x.
 * @param router W_r, (h, E)
 * @param s the forward's state
 * @param dGates (T, k) ∂L/∂gates (0 where a pair was dropped)
 * @param o the same options as the forward
 * @param lossScale factor of the auxiliary losses' gradients (1/G for the mean over G groups)
 * @param ops precision and matmul
 * @returns (T, h) ∂L/∂x through the router, a new array
 * @example routerBackward(router, state, dGates, options, 1, cpuOps()) // (T, h)
 * @see Megatron-LM moe_utils.py `MoEAuxLossAutoScaler` at d98e8a6 (the auxiliary losses' gradient joins the router's in backward)
 */
export function routerBackward(router: Param, s: RouterState, dGates: Float32Array, o: MoeRouterOptions, lossScale: number, ops: Ops): Float32Array {
  const T = s.x.rows, h = s.x.cols, E = o.numExperts, acc = ops.precision.accumulate;
  if (T === 0) return new Float32Array(0);
  const dl = gatesBackward(s.routing, dGates);
  const a = lossScale * o.auxLossCoeff, c = lossScale * o.zLossCoeff;
  for (let i = 0; i < dl.length; i++) dl[i] += a * s.aux.dLogits[i] + c * s.z.dLogits[i];
  roundCompute(dl, ops);
  addInto(router.grad, ops.matmul(s.x.data, dl, { M: h, K: T, N: E, transA: true }, acc), ops); // xᵀ dl: (h, E)
  return ops.matmul(dl, router.data, { M: T, K: E, N: h, transB: true }, acc); // dl W_rᵀ: (T, h)
}
