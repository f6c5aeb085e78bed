/**
 * A mixture-of-experts block: y = x + Σ_{j<k} g_j(x) · e_{i_j}(x), with a
 * linear router W_r (h, E), E tanh-MLP experts, top-k routing, optional
 * capacity, and the router's auxiliary losses. It replaces the residual MLP
 * blocks of the course model when `ModelConfig.moe` is set.
 */
import { createParam } from "./param.js";
import type { Rng } from "../random.js";
import { bytesPerElement } from "./precision.js";
import { createExpert, expertBackward, expertForward, type Expert } from "./expertMlp.js";
import { routeTokens, routerBackward, type MoeRouterOptions, type RouterState } from "./moeRouter.js";
import { combineSlots, combineSlotsBackward, sumInputGradients } from "./moeCombine.js";
import { resolveMoeOptions, groupBounds, type MoeOptions, type ResolvedMoeOptions } from "./moeOptions.js";
import type { Activation, Layer, Ops, Param } from "./types.js";

/**
 * Router statistics of one forward (summed over groups), for logs and figures.
 * @see Megatron-LM `megatron/core/transformer/moe/moe_logging.py` at d98e8a6 (what Megatron logs per layer)
 */
export interface MoeStats {
  /** Tokens each expert was routed, before drops. */
  routedPerExpert: number[];
  /** Tokens each expert processed, after drops. */
  keptPerExpert: number[];
  /** Routed (token, expert) pairs dropped for capacity. */
  dropped: number;
  /** Load-balancing loss without α, mean over groups (1 when balanced, E/k when one expert takes everything, "switch"). */
  auxLoss: number;
  /** Router z-loss without its coefficient, mean over groups. */
  zLoss: number;
}

/**
 * What an MoE block's forward keeps for its backward.
 * @see the sources of {@link moeLayer}
 */
export interface MoeSaved {
  states: RouterState[];
  /** (N·k, h) each slot's expert output o (0 where dropped). */
  slotOutputs: Float32Array;
  /** (N·k) gates, (N·k) kept flags, over all groups in token order. */
  gates: Float32Array;
  kept: Uint8Array;
  /** Per expert: the slots t·k + j it processed, in token order, its input rows and its tanh activations. */
  perExpert: { slots: number[]; x: Float32Array; a: Float32Array }[];
  stats: MoeStats;
}

/**
 * An MoE block: a {@link Layer} of kind "moe" with its router, experts, and DeepSeek-V3's selection bias.
 * @see the sources of {@link moeLayer}
 */
export interface MoeLayer extends Layer {
  kind: "moe";
  router: Param;
  experts: Expert[];
  /** (E) DeepSeek-V3's b_i: added to the scores for selection only ("sigmoid" routing); a buffer, not a parameter. */
  expertBias: Float32Array;
  options: ResolvedMoeOptions;
  /** b_i += rate · sign(mean load − load_i) (DeepSeek-V3 §2.1.2); does nothing when biasUpdateRate is 0. */
  updateExpertBias(routedPerExpert: readonly number[]): void;
}

/**
 * A mixture-of-experts block of width h: router W_r (h, E) ~ N(0, 1/h), E experts (see createExpert).
 *
 * Forward, per group of rows (GShard's groups; one by default): logits = x·W_r, top-k routing, capacity and drops,
 * then each expert runs on the rows routed to it and y_t = x_t + Σ_j kept·g_{t,j}·o_{t,j}.
 * Backward: through the combine, each expert, and the router, with the auxiliary losses'
 * gradients α·∂aux/∂logits and c_z·∂z/∂logits (each a mean over groups) added to the router's,
 * as if the training loss were CE + α·aux + c_z·z (times `auxLossScale`).
 *
 * @param name prefix of the parameter names ("<name>.router", "<name>.experts.<e>.W1" …)
 * @param width h
 * @param rng seeded generator
 * @param options E, k and the routing (see {@link MoeOptions}); expertHiddenDim defaults to 4h
 * @returns an {@link MoeLayer} mapping (N, h) to (N, h); `saved.moe` holds the routing and {@link MoeStats}
 * @throws {RangeError} from resolveMoeOptions (e.g. `moe.topK must be an integer in [1, numExperts = 4], got 5`)
 * @example moeLayer("blocks.0", 8, mulberry32(0), { numExperts: 4, topK: 2 }).params.length // 17: the router and 4 × (W1, b1, W2, b2)
 * @see Shazeer et al. 2017, *Outrageously Large Neural Networks* §2; Lepikhin et al. 2020, *GShard* §2.2 and Algorithm 1 (groups, capacity, l_aux);
 *   Fedus et al. 2021, *Switch Transformers* §2; Megatron-LM `megatron/core/transformer/moe/moe_layer.py` at d98e8a6
 */
export function moeLayer(name: string, width: number, rng: Rng, options: MoeOptions): MoeLayer {
  const h = width, o = resolveMoeOptions(options, h), E = o.numExperts, k = o.topK, H = o.expertHiddenDim;
  const router = createParam(`${name}.router`, [h, E], 1 / Math.sqrt(h), rng);
  const experts = Array.from({ length: E }, (_, e) => createExpert(`${name}.experts.${e}`, h, H, rng));
  const expertBias = new Float32Array(E);
  const params = [router, ...experts.flatMap((e) => [e.W1, e.b1, e.W2, e.b2])];
  const routerOptions: MoeRouterOptions = o;
  const layer: MoeLayer = {
    name, kind: "moe", params, inFeatures: h, outFeatures: h, router, experts, expertBias, options: o,
    forward(x: Activation, ops: Ops) {
      const N = x.rows;
      const states = groupBounds(N, o.numGroups).map(([s, e]) => routeTokens(router, { data: x.data.subarray(s * h, e * h), rows: e - s, cols: h }, routerOptions, expertBias, ops));
      const gates = concat(states.map((s) => s.routing.gates)), kept = Uint8Array.from(concat(states.map((s) => Float32Array.from(s.kept))));
      const expertOf = Int32Array.from(concat(states.map((s) => Float32Array.from(s.routing.experts))));
      const slotOutputs = new Float32Array(N * k * h);
      const perExpert = experts.map((ex, e) => {
        const slots: number[] = [];
        for (let s = 0; s < N * k; s++) if (kept[s] && expertOf[s] === e) slots.push(s);
        const xe = new Float32Array(slots.length * h); // (n_e, h)
        slots.forEach((s, r) => xe.set(x.data.subarray(Math.floor(s / k) * h, Math.floor(s / k) * h + h), r * h));
        const { a, o: out } = expertForward(ex, xe, slots.length, ops);
        slots.forEach((s, r) => slotOutputs.set(out.subarray(r * h, (r + 1) * h), s * h));
        return { slots, x: xe, a };
      });
      const y = combineSlots(x.data, slotOutputs, gates, kept, k, h);
      const stats: MoeStats = {
        routedPerExpert: sumRows(states.map((s) => s.routedPerExpert), E),
        keptPerExpert: perExpert.map((p) => p.slots.length),
        dropped: N * k - perExpert.reduce((a, p) => a + p.slots.length, 0),
        auxLoss: states.reduce((a, s) => a + s.aux.loss, 0) / Math.max(1, states.length),
        zLoss: states.reduce((a, s) => a + s.z.loss, 0) / Math.max(1, states.length),
      };
      const moe: MoeSaved = { states, slotOutputs, gates, kept, perExpert, stats };
      const bytes = (N * h + N * k * (H + 2 * h)) * bytesPerElement(ops.precision.compute) + N * E * 4;
      return { y: { data: y, rows: N, cols: h }, saved: { x, extra: [], bytes, moe } };
    },
    backward(saved, dy, ops) {
      const m = saved.moe as MoeSaved, N = saved.x.rows;
      const { dSlots, dGates } = combineSlotsBackward(dy.data, m.slotOutputs, m.gates, m.kept, k, h);
      const dxSlots = new Float32Array(N * k * h);
      m.perExpert.forEach((p, e) => {
        const dO = new Float32Array(p.slots.length * h);
        p.slots.forEach((s, r) => dO.set(dSlots.subarray(s * h, (s + 1) * h), r * h));
        const dxe = expertBackward(experts[e], p.x, p.a, dO, p.slots.length, ops);
        p.slots.forEach((s, r) => dxSlots.set(dxe.subarray(r * h, (r + 1) * h), s * h));
      });
      const scale = o.auxLossScale / Math.max(1, m.states.length);
      const bounds = groupBounds(N, o.numGroups);
      const dxRouter = concat(m.states.map((s, g) => routerBackward(router, s, dGates.subarray(bounds[g][0] * k, bounds[g][1] * k), routerOptions, scale, ops)));
      return { data: sumInputGradients(dy.data, dxSlots, dxRouter, k, h), rows: N, cols: h };
    },
    flops: (rows) => 2 * rows * h * E + k * rows * (4 * h * H + 2 * H + 3 * h),
    savedBytes: (rows, format) => (rows * h + rows * k * (H + 2 * h)) * bytesPerElement(format) + rows * E * 4,
    updateExpertBias(routed) {
      if (o.biasUpdateRate === 0) return;
      const mean = routed.reduce((a, b) => a + b, 0) / E;
      for (let i = 0; i < E; i++) expertBias[i] += o.biasUpdateRate * Math.sign(mean - routed[i]);
    },
  };
  return layer;
}

/** Concatenation of Float32Arrays. */
function concat(parts: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

/** Elementwise sum of rows of length E. */
function sumRows(rows: readonly number[][], E: number): number[] {
  return rows.reduce((acc, r) => acc.map((v, i) => v + r[i]), new Array<number>(E).fill(0));
}
