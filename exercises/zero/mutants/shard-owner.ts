import type { shardOwner } from "../shard-owner.js";

type F = typeof shardOwner;
const guard = (n: number, P: number, i: number) => {
  if (!Number.isInteger(P) || P < 1) throw new RangeError(`numRanks must be an integer >= 1, got ${P}`);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`numParams must be an integer >= 1, got ${n}`);
  if (!Number.isInteger(i) || i < 0 || i >= n) throw new RangeError(`index must be an integer in [0, ${n}), got ${i}`);
};

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "shards of ⌈Ψ/P⌉ each (the last one short), as torch.chunk": {
    impl: (n, P, i) => { guard(n, P, i); const s = Math.ceil(n / P); return { rank: Math.floor(i / s), offset: i % s }; },
    caughtBy: "P does not divide Ψ: the first Ψ mod P shards are one longer",
  },
  "shards of ⌊Ψ/P⌋, the remainder to the last rank": {
    impl: (n, P, i) => { guard(n, P, i); const s = Math.floor(n / P); const r = s === 0 ? P - 1 : Math.min(P - 1, Math.floor(i / s)); return { rank: r, offset: i - r * s }; },
    caughtBy: ["P does not divide Ψ: the first Ψ mod P shards are one longer", "more ranks than parameters; every boundary"],
  },
  "round-robin owner (i mod P)": {
    impl: (n, P, i) => { guard(n, P, i); return { rank: i % P, offset: Math.floor(i / P) }; },
    caughtBy: ["the stub's example", "P divides Ψ"],
  },
  "no input checks": {
    impl: (n, P, i) => { const s = Math.floor(n / P), e = n % P, big = e * (s + 1); const rank = i < big ? Math.floor(i / (s + 1)) : e + Math.floor((i - big) / s); return { rank, offset: i - (rank < e ? rank * (s + 1) : big + (rank - e) * s) }; },
    caughtBy: "bad input",
  },
};
