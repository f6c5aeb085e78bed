import type { Mutant } from "../../harness/index.js";
import type { fsdp2Step, Op, Rows, ShardedModel } from "../fsdp2-step.js";

type F = typeof fsdp2Step;
interface Mistakes { arraySplit?: boolean; floorPadding?: boolean; trueKeeps?: boolean; intAsTrue?: boolean; rootReshards?: boolean; noBackwardPrefetch?: boolean; reduceEveryLayer?: boolean; noRegather?: boolean }

/** A written-out solution with the mistakes `m` switched in (none: the contract). */
function plan(model: ShardedModel, G: number, m: Mistakes): ReturnType<F> {
  const shards: Record<string, { rows: Rows[]; paddedRows: number }> = {};
  for (const l of model.layers) for (const p of l.params) {
    const n = p.shape[0], c = Math.ceil(n / G);
    const rows = m.arraySplit
      ? Array.from({ length: G }, (_, k) => { const base = Math.floor(n / G), extra = n % G, start = k * base + Math.min(k, extra); return { start, end: start + base + (k < extra ? 1 : 0) }; })
      : Array.from({ length: G }, (_, k) => ({ start: Math.min(n, k * c), end: Math.min(n, (k + 1) * c) }));
    shards[p.name] = { rows, paddedRows: m.floorPadding ? Math.floor(n / G) : c };
  }
  const resolved = (g: ShardedModel["groups"][number]): boolean | number => {
    const r = g.reshardAfterForward;
    if (r === null) return m.rootReshards ? true : !g.isRoot;
    if (typeof r === "boolean") return r;
    if (r === 1) return false;
    if (r === G || m.intAsTrue) return true;
    return r;
  };
  const resolve = (g: ShardedModel["groups"][number]) => { const r = resolved(g); return r === true && m.trueKeeps ? false : r; };
  const ops: Op[] = [], live = new Set<number>(), groups = model.groups;
  const groupOf = (l: number) => groups.findIndex((g) => g.layers.includes(l));
  const unshard = (g: number) => { if (!live.has(g)) { ops.push({ op: "unshard", group: g }); live.add(g); } };
  const root = groups.findIndex((g) => g.isRoot);
  unshard(root);
  const finished: number[] = [];
  model.layers.forEach((_, l) => {
    const g = groupOf(l), grp = groups[g];
    if (!grp.isRoot && l === grp.layers[0]) unshard(g);
    ops.push({ op: "forward", layer: l });
    if (!grp.isRoot && l === grp.layers[grp.layers.length - 1]) {
      const r = resolve(grp);
      if (r !== false) { ops.push({ op: "reshard", group: g, to: r === true ? "sharded" : "post-forward" }); live.delete(g); }
      finished.push(g);
    }
  });
  const r = resolve(groups[root]);
  if (r !== false) { ops.push({ op: "reshard", group: root, to: r === true ? "sharded" : "post-forward" }); live.delete(root); }
  finished.push(root);
  const seen = new Set<number>();
  for (let l = model.layers.length - 1; l >= 0; l--) {
    const g = groupOf(l);
    if (!seen.has(g)) {
      seen.add(g);
      if (!m.noRegather) unshard(g);
      const i = finished.indexOf(g);
      if (!m.noBackwardPrefetch && i > 0) unshard(finished[i - 1]);
    }
    ops.push({ op: "backward", layer: l });
    if (l === groups[g].layers[0]) { ops.push({ op: "reshard", group: g, to: "sharded" }); live.delete(g); ops.push({ op: "reduce-scatter", group: g }); }
    else if (m.reduceEveryLayer) ops.push({ op: "reduce-scatter", group: g });
  }
  ops.push({ op: "step" });
  return { shards, ops };
}

export const mutants: Record<string, Mutant<F>> = {
  "cuts rows as numpy.array_split (the first n mod G chunks one row longer)": { impl: (m, G) => plan(m, G, { arraySplit: true }), caughtBy: ["Shard(0): torch.chunk on dim 0, padded", "trains to one device's weights (fp32, within 1e-5)"] },
  "pads to ⌊n/G⌋ rows: the longest chunk does not fit": { impl: (m, G) => plan(m, G, { floorPadding: true }), caughtBy: ["Shard(0): torch.chunk on dim 0, padded", "trains to one device's weights (fp32, within 1e-5)"] },
  "reshard_after_forward=True keeps the parameters until backward": { impl: (m, G) => plan(m, G, { trueKeeps: true }), caughtBy: ["every message: sender, receiver, offset, length and bytes", "peak memory per rank"] },
  "an int reshard_after_forward reshards to all G ranks": { impl: (m, G) => plan(m, G, { intAsTrue: true }), caughtBy: ["every message: sender, receiver, offset, length and bytes", "peak memory per rank"] },
  "the root resharded after forward (null read as true for the root too)": { impl: (m, G) => plan(m, G, { rootReshards: true }), caughtBy: "every message: sender, receiver, offset, length and bytes" },
  "no backward prefetch: each group gathered only at its own pre-backward": { impl: (m, G) => plan(m, G, { noBackwardPrefetch: true }), caughtBy: "every message: sender, receiver, offset, length and bytes" },
  "reduce-scatters after every layer's backward, not once per group": { impl: (m, G) => plan(m, G, { reduceEveryLayer: true }), caughtBy: "every message: sender, receiver, offset, length and bytes" },
  "does not gather again before backward (assumes forward's copy is still there)": { impl: (m, G) => plan(m, G, { noRegather: true }), caughtBy: "trains to one device's weights (fp32, within 1e-5)" },
};
