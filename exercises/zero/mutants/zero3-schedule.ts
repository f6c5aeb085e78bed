import type { Op, ScheduleUnit, Stage3Knobs, zero3Schedule } from "../zero3-schedule.js";

type F = typeof zero3Schedule;
interface Mistakes { noRegather?: boolean; neverRelease?: boolean; oneReduce?: boolean; ignoreLive?: boolean; noPersistentGather?: boolean; reshardOnlyAfterBackward?: boolean }

/** A schedule with the mistakes `m` switched in (none: the contract). */
function schedule(units: ScheduleUnit[], k: Stage3Knobs, m: Mistakes): Op[] {
  const ops: Op[] = [], live = new Set<number>();
  const size = (u: number) => units[u].gatheredElements;
  const fetch = (order: number[], i: number, pass: "f" | "b") => {
    if (m.noRegather && pass === "b") return;
    const want = [order[i]];
    let pre = 0;
    for (let j = i + 1; j < order.length; j++) {
      const u = order[j];
      if (live.has(u)) continue;
      const liveNow = [...live, ...want].reduce((s, v) => s + size(v), 0);
      if (pre + size(u) > k.stage3_prefetch_bucket_size || (!m.ignoreLive && liveNow + size(u) > k.stage3_max_live_parameters)) break;
      want.push(u); pre += size(u);
    }
    for (const u of want) if (!live.has(u) && size(u) > 0) { ops.push({ op: "gather", unit: u }); live.add(u); }
  };
  const release = (u: number) => { if (!m.neverRelease && live.delete(u)) ops.push({ op: "release", unit: u }); };
  const fwd = units.map((_, i) => i), bwd = fwd.slice().reverse();
  fwd.forEach((u, i) => { fetch(fwd, i, "f"); ops.push({ op: "forward", unit: u }); if (!m.reshardOnlyAfterBackward) release(u); });
  let lo = -1, hi = -1;
  bwd.forEach((u, i) => {
    fetch(bwd, i, "b");
    ops.push({ op: "backward", unit: u });
    release(u);
    for (const p of units[u].params.slice().reverse()) {
      if (!m.oneReduce && lo >= 0 && hi - lo + (p.end - p.start) > k.reduce_bucket_size) { ops.push({ op: "reduce", start: lo, end: hi }); lo = -1; }
      if (lo < 0) { lo = p.start; hi = p.end; } else lo = p.start;
    }
  });
  if (lo >= 0) ops.push({ op: "reduce", start: lo, end: hi });
  if (m.neverRelease) for (const u of [...live]) ops.push({ op: "release", unit: u });
  ops.push({ op: "step" });
  if (!m.noPersistentGather) for (const p of units.flatMap((u) => u.params)) if (p.persistent) ops.push({ op: "allgather-params", start: p.start, end: p.end });
  return ops;
}

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "does not gather again before backward (assumes forward's copy is still there)": { impl: (u, k) => schedule(u, k, { noRegather: true }), caughtBy: "trains to DDP's weights (P = 1…8, Ψ = 3,555)" },
  "releases only at the end of the step": { impl: (u, k) => schedule(u, k, { neverRelease: true }), caughtBy: "frees what it gathers: the peak per rank" },
  "reduces all gradients at once after backward": { impl: (u, k) => schedule(u, k, { oneReduce: true }), caughtBy: ["gradients reduced in buckets as backward goes", "frees what it gathers: the peak per rank"] },
  "prefetch ignores stage3_max_live_parameters": { impl: (u, k) => schedule(u, k, { ignoreLive: true }), caughtBy: "prefetch within stage3_prefetch_bucket_size and stage3_max_live_parameters" },
  "forgets the all-gather of persistent tensors after the step": { impl: (u, k) => schedule(u, k, { noPersistentGather: true }), caughtBy: "trains to DDP's weights (P = 1…8, Ψ = 3,555)" },
  "returns no operations (nothing gathered, so nothing to peak)": { impl: () => [], caughtBy: ["the stub's example", "trains to DDP's weights (P = 1…8, Ψ = 3,555)", "frees what it gathers: the peak per rank"] },
  "keeps parameters from forward to backward (SHARD_GRAD_OP, not FULL_SHARD)": { impl: (u, k) => schedule(u, k, { reshardOnlyAfterBackward: true }), caughtBy: ["communication: 3(P−1)Ψ per step; persistent tensors 2(P−1)", "frees what it gathers: the peak per rank"] },
};
