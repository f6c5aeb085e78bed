import { minTokensPerRank as lib } from "../../../lib/context-parallel/index.js";
import type { minTokensPerRank, OverlapOptions } from "../min-tokens-per-rank.js";

type F = typeof minTokensPerRank;

/** Walks c = 1, 2, … with a given least work per step; the checks of the contract first. */
function search(work: (o: OverlapOptions, c: number) => number, o2: { ignoreParity?: boolean; bytesFactor?: number } = {}): F {
  return (o) => {
    lib({ ...o, cpSize: 1 }); // the contract's RangeErrors (cpSize 1 skips the search)
    if (!Number.isInteger(o.cpSize) || o.cpSize < 1) throw new RangeError(`cpSize must be an integer >= 1, got ${o.cpSize}`);
    const step = o.layout === "zigzag" && !o2.ignoreParity ? 2 : 1;
    if (o.cpSize === 1) return step;
    const hKv = (o.numKvHeads * o.hiddenSize) / o.numHeads;
    for (let c = step; c < 1e7; c += step) {
      const compute = (4 * work(o, c) * o.hiddenSize * o.microBatch) / o.deviceFlopsPerS;
      const send = o.cost.alphaS + ((o2.bytesFactor ?? 2) * c * hKv * o.microBatch * o.bytesPerElement) / o.cost.bandwidthBytesPerS;
      if (compute >= send * (1 - 1e-12)) return c;
    }
    return Infinity;
  };
}

const square = (_: OverlapOptions, c: number) => c * c;
const average = (o: OverlapOptions, c: number) => (o.causal ? (c * c * o.cpSize + c) / 2 / o.cpSize : c * c);

export const mutants = {
  "ignores the causal mask (c² pairs in every block)": { impl: search(square), caughtBy: ["causal masks: zig-zag and striped", "contiguous causal shards: 2 ranks, and never beyond"] },
  "uses the average work of a step instead of the least": { impl: search(average), caughtBy: ["causal masks: zig-zag and striped", "contiguous causal shards: 2 ranks, and never beyond"] },
  "sends only K (c·h_kv·b·e bytes a block)": { impl: search(square, { bytesFactor: 1 }), caughtBy: ["Ring Attention's c ≥ F/B (no mask, no latency)", "latency and grouped-query attention"] },
  "counts c²/2 pairs for zig-zag's own block at step 0 (it keeps c²/2 + c/2): wrong for C = 2": {
    impl: ((o) => (o.layout === "zigzag" && o.causal && o.cpSize === 2 ? search((_, c) => (c * c) / 2)(o) : libMin(o))) as F,
    caughtBy: ["causal masks: zig-zag and striped", "random models and links"],
  },
  "forgets that zig-zag needs an even c": {
    impl: ((o) => { const c = libMin(o); return o.layout === "zigzag" && Number.isFinite(c) && o.cpSize > 1 ? Math.max(1, c - 1) : o.layout === "zigzag" && o.cpSize === 1 ? 1 : c; }) as F,
    caughtBy: "C = 1, and zig-zag's even split",
  },
  "rounds the positive root of the quadratic to the nearest integer": {
    impl: ((o) => {
      const c = libMin(o);
      if (!Number.isFinite(c) || o.cpSize === 1 || o.causal) return c;
      const h = o.hiddenSize, hKv = (o.numKvHeads * h) / o.numHeads, b = o.microBatch;
      const A = (4 * h * b) / o.deviceFlopsPerS, Bq = -(2 * hKv * b * o.bytesPerElement) / o.cost.bandwidthBytesPerS;
      return Math.round((-Bq + Math.sqrt(Bq * Bq + 4 * A * o.cost.alphaS)) / (2 * A));
    }) as F,
    caughtBy: "latency and grouped-query attention",
  },
} satisfies Record<string, { impl: F; caughtBy: string | string[] }>;

function libMin(o: OverlapOptions): number { return lib(o); }
