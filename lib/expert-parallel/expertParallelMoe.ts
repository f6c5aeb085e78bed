import { combineSlots, combineSlotsBackward, cpuOps, expertBackward, expertForward, routeTokens, routerBackward, sumInputGradients } from "../nn/index.js";
import { localExpertCount } from "./expertPlacement.js";
import { planDispatch } from "./planDispatch.js";
import type { EpGroup, EpMoeOptions, EpRank } from "./types.js";





/** Groups a receive buffer's rows (source-major chunks of local experts) by local expert; returns the row lists. */
function rowsByLocalExpert(received: number[][], L: number): number[][] {
  const rows: number[][] = Array.from({ length: L }, () => []);
  let at = 0;
  for (const fromSource of received) for (let i = 0; i < L; i++) for (let n = 0; n < fromSource[i]; n++) rows[i].push(at++);
  return rows;
}

/** Rows of a (rows, h) array. */
const gather = (src: Float32Array, rows: readonly number[], h: number, map: (r: number) => number = (r) => r) => {
  const out = new Float32Array(rows.length * h);
  rows.forEach((r, n) => out.set(src.subarray(map(r) * h, map(r) * h + h), n * h));
  return out;
};

/**
 * Forward (and, with `dys`, backward) of an MoE block whose experts are spread over the P ranks of `group`,
 * each rank routing its own tokens: the dispatch all-to-all, the local experts, the combine all-to-all.
 *
 * Forward, per rank r: route its N_r tokens (routeTokens: capacity from N_r); order the kept pairs by expert then
 * token ({@link planDispatch}); **dispatch**: all-to-all of those rows (splits·h); the receiver sorts the
 * source-major chunks by local expert, runs each expert, unsorts; **combine**: the reverse all-to-all brings every
 * output home; y_t = x_t + Σ_j kept·g·o. Backward (dys given): ∂L/∂o = g·dy goes out by all-to-all, each expert's
 * backward runs where it lives (ADDING its weight gradients), ∂L/∂x of each pair comes home by all-to-all, and the
 * router's backward (gates, aux loss and z-loss with scale auxLossScale/P) ADDS into rank r's router replica.
 * Four all-to-alls with dys, two without; the router replicas' gradients are each rank's own (summing them over the
 * group is the data-parallel all-reduce's job). Runs in float32 (cpuOps()).
 *
 * @param group the P ranks and their all-to-all
 * @param ranks what each rank holds (P entries)
 * @param xs per rank, its tokens (N_r, h), N_r ≥ 0
 * @param dys per rank ∂L/∂y (N_r, h), or null for the forward alone (no gradient is touched)
 * @param o routing options and h
 * @returns ys (and dxs with dys) per rank, new arrays
 * @throws {RangeError} `ranks must hold one entry per rank (P = 2), got 1`; `xs[1] must have a multiple of hiddenSize = 4 elements, got 6`;
 *   `ranks[0] must hold numExperts / P = 2 experts, got 1`; and those of localExpertCount and routeTokens
 * @example expertParallelMoe(new EpComm(2), ranks, [x0, x1], null, { ...options, hiddenSize: 8 }).ys // [(N_0, 8), (N_1, 8)]
 * @see Lepikhin et al. 2020, *GShard* §3 (dispatch and combine by all-to-all); Rajbhandari et al. 2022, *DeepSpeed-MoE*;
 *   Megatron-LM `megatron/core/transformer/moe/token_dispatcher.py` at d98e8a6 (`MoEAlltoAllTokenDispatcher`: permute, all-to-all, sort_chunks_by_idxs, experts, and back)
 */
export function expertParallelMoe(group: EpGroup, ranks: readonly EpRank[], xs: readonly Float32Array[], dys: readonly Float32Array[] | null, o: EpMoeOptions): { ys: Float32Array[]; dxs: Float32Array[] | null } {
  const P = group.P, h = o.hiddenSize, k = o.topK, L = localExpertCount(o.numExperts, P), ops = cpuOps();
  if (ranks.length !== P) throw new RangeError(`ranks must hold one entry per rank (P = ${P}), got ${ranks.length}`);
  ranks.forEach((r, i) => { if (r.experts.length !== L) throw new RangeError(`ranks[${i}] must hold numExperts / P = ${L} experts, got ${r.experts.length}`); });
  xs.forEach((x, i) => { if (x.length % h !== 0) throw new RangeError(`xs[${i}] must have a multiple of hiddenSize = ${h} elements, got ${x.length}`); });
  const states = xs.map((x, r) => routeTokens(ranks[r].router, { data: x, rows: x.length / h, cols: h }, o, ranks[r].expertBias, ops));
  const plan = planDispatch(states.map((s) => s.routing), { ...o, epSize: P });
  const splitsH = plan.splits.map((row) => row.map((n) => n * h));
  const back = splitsH[0].map((_, d) => splitsH.map((row) => row[d])); // the transpose: the reverse all-to-all
  const byExpert = plan.received.map((rec) => rowsByLocalExpert(rec, L));
  const tokenOf = (r: number) => (slot: number) => Math.floor(slot / k);
  // dispatch, experts, combine
  const got = group.allToAll(xs.map((x, r) => gather(x, plan.sendOrder[r], h, tokenOf(r))), splitsH, "dispatch");
  const saved = byExpert.map((rows, d) => rows.map((rs, i) => { const x = gather(got[d], rs, h); return { x, ...expertForward(ranks[d].experts[i], x, rs.length, ops) }; }));
  const outs = byExpert.map((rows, d) => { const out = new Float32Array(got[d].length); rows.forEach((rs, i) => rs.forEach((row, n) => out.set(saved[d][i].o.subarray(n * h, n * h + h), row * h))); return out; });
  const home = group.allToAll(outs, back, "combine");
  const slotOutputs = xs.map((x, r) => { const s = new Float32Array((x.length / h) * k * h); plan.sendOrder[r].forEach((slot, n) => s.set(home[r].subarray(n * h, n * h + h), slot * h)); return s; });
  const ys = xs.map((x, r) => combineSlots(x, slotOutputs[r], states[r].routing.gates, plan.kept[r], k, h));
  if (!dys) return { ys, dxs: null };
  // backward: ∂L/∂o out to the experts, expert backward, ∂L/∂x of each pair home, router backward
  const grads = dys.map((dy, r) => combineSlotsBackward(dy, slotOutputs[r], states[r].routing.gates, plan.kept[r], k, h));
  const dOut = group.allToAll(grads.map((g, r) => gather(g.dSlots, plan.sendOrder[r], h)), splitsH, "combine backward");
  const dIn = byExpert.map((rows, d) => {
    const dx = new Float32Array(dOut[d].length);
    rows.forEach((rs, i) => {
      const s = saved[d][i], dxe = expertBackward(ranks[d].experts[i], s.x, s.a, gather(dOut[d], rs, h), rs.length, ops);
      rs.forEach((row, n) => dx.set(dxe.subarray(n * h, n * h + h), row * h));
    });
    return dx;
  });
  const dHome = group.allToAll(dIn, back, "dispatch backward");
  const scale = (o.auxLossScale ?? 1) / P;
  const dxs = xs.map((x, r) => {
    const dxSlots = new Float32Array((x.length / h) * k * h);
    plan.sendOrder[r].forEach((slot, n) => dxSlots.set(dHome[r].subarray(n * h, n * h + h), slot * h));
    const dxRouter = routerBackward(ranks[r].router, states[r], grads[r].dGates, o, scale, ops);
    return sumInputGradients(dys[r], dxSlots, dxRouter, k, h);
  });
  return { ys, dxs };
}
