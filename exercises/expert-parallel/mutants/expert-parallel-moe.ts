import { combineSlots, combineSlotsBackward, cpuOps, expertBackward, expertForward, routeTokens, routerBackward, sumInputGradients } from "../../../lib/nn/index.js";
import type { expertParallelMoe } from "../expert-parallel-moe.js";

type F = typeof expertParallelMoe;
interface Mistake { noSort?: boolean; globalCapacity?: boolean; ungatedBackward?: boolean; auxScaleOne?: boolean }

/** A hand-written expert-parallel block with one mistake switched on. */
function block(m: Mistake): F {
  return (group, ranks, xs, dys, o) => {
    const P = group.P, h = o.hiddenSize, k = o.topK, L = o.numExperts / P, ops = cpuOps();
    const ro = m.globalCapacity && o.capacityFactor !== null ? { ...o, capacityFactor: o.capacityFactor * P } : o;
    const st = xs.map((x, r) => routeTokens(ranks[r].router, { data: x, rows: x.length / h, cols: h }, ro, ranks[r].expertBias, ops));
    // pairs (rank, slot, expert) kept, grouped by expert then slot
    const pairs = st.map((s) => [...s.kept.keys()].filter((i) => s.kept[i]).sort((a, b) => s.routing.experts[a] - s.routing.experts[b] || a - b));
    const owner = (e: number) => Math.floor(e / L);
    const splits = pairs.map((ps, r) => Array.from({ length: P }, (_, d) => ps.filter((s) => owner(st[r].routing.experts[s]) === d).length * h));
    const rows = (src: Float32Array, idx: number[]) => { const out = new Float32Array(idx.length * h); idx.forEach((i, n) => out.set(src.subarray(i * h, i * h + h), n * h)); return out; };
    const recv = group.allToAll(pairs.map((ps, r) => rows(xs[r], ps.map((s) => Math.floor(s / k)))), splits, "dispatch");
    // which local expert each received row belongs to, in arrival order (source-major)
    const localOf = (d: number) => {
      const ids: number[] = [];
      for (let s = 0; s < P; s++) for (const slot of pairs[s]) { const e = st[s].routing.experts[slot]; if (owner(e) === d) ids.push(e - d * L); }
      if (m.noSort) { const counts = Array.from({ length: L }, (_, i) => ids.filter((x) => x === i).length); return counts.flatMap((n, i) => new Array(n).fill(i)); }
      return ids;
    };
    const locals = Array.from({ length: P }, (_, d) => localOf(d));
    const run = locals.map((ids, d) => Array.from({ length: L }, (_, i) => { const idx = ids.flatMap((x, n) => (x === i ? [n] : [])); const x = rows(recv[d], idx); return { idx, x, ...expertForward(ranks[d].experts[i], x, idx.length, ops) }; }));
    const outs = run.map((es, d) => { const out = new Float32Array(recv[d].length); es.forEach((e) => e.idx.forEach((n, j) => out.set(e.o.subarray(j * h, j * h + h), n * h))); return out; });
    const tr = splits[0].map((_, d) => splits.map((row) => row[d]));
    const home = group.allToAll(outs, tr, "combine");
    const slotOut = xs.map((x, r) => { const so = new Float32Array((x.length / h) * k * h); pairs[r].forEach((s, n) => so.set(home[r].subarray(n * h, n * h + h), s * h)); return so; });
    const ys = xs.map((x, r) => combineSlots(x, slotOut[r], st[r].routing.gates, st[r].kept, k, h));
    if (!dys) return { ys, dxs: null };
    const back = dys.map((dy, r) => combineSlotsBackward(dy, slotOut[r], m.ungatedBackward ? new Float32Array(st[r].routing.gates.length).fill(1) : st[r].routing.gates, st[r].kept, k, h));
    const dOut = group.allToAll(back.map((b, r) => rows(b.dSlots, pairs[r])), splits, "combine backward");
    const dIn = run.map((es, d) => { const dx = new Float32Array(dOut[d].length); es.forEach((e, i) => { const g = expertBackward(ranks[d].experts[i], e.x, e.a, rows(dOut[d], e.idx), e.idx.length, ops); e.idx.forEach((n, j) => dx.set(g.subarray(j * h, j * h + h), n * h)); }); return dx; });
    const dHome = group.allToAll(dIn, tr, "dispatch backward");
    const dGates = back.map((b, r) => (m.ungatedBackward ? combineSlotsBackward(dys[r], slotOut[r], st[r].routing.gates, st[r].kept, k, h).dGates : b.dGates));
    const dxs = xs.map((x, r) => {
      const dxSlots = new Float32Array((x.length / h) * k * h);
      pairs[r].forEach((s, n) => dxSlots.set(dHome[r].subarray(n * h, n * h + h), s * h));
      return sumInputGradients(dys[r], dxSlots, routerBackward(ranks[r].router, st[r], dGates[r], o, (o.auxLossScale ?? 1) / (m.auxScaleOne ? 1 : P), ops), k, h);
    });
    return { ys, dxs };
  };
}

export const mutants = {
  "runs the local experts on the received rows without sorting them by local expert (rows arrive source by source)": { impl: block({ noSort: true }), caughtBy: ["forward output equals one device", "trains to the same weights as one device (P = 2, 4)"] },
  "computes the capacity from the whole group's tokens instead of each rank's own": { impl: block({ globalCapacity: true }), caughtBy: ["forward output equals one device", "trains to the same weights as one device (P = 2, 4)"] },
  "sends ∂L/∂o = dy to the experts, forgetting the gate (∂L/∂o = g·dy)": { impl: block({ ungatedBackward: true }), caughtBy: ["input gradient and weight gradients equal one device", "trains to the same weights as one device (P = 2, 4)"] },
  "scales each rank's auxiliary-loss gradient by auxLossScale instead of auxLossScale/P": { impl: block({ auxScaleOne: true }), caughtBy: ["input gradient and weight gradients equal one device", "trains to the same weights as one device (P = 2, 4)"] },
} satisfies Record<string, { impl: F; caughtBy: string[] }>;
