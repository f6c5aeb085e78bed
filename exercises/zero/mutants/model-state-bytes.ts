import type { modelStateBytes } from "../model-state-bytes.js";

type F = typeof modelStateBytes;
const guard = (n: number, P: number, s: number) => {
  if (!Number.isInteger(P) || P < 1) throw new RangeError(`numRanks must be an integer >= 1, got ${P}`);
  if (![0, 1, 2, 3].includes(s)) throw new RangeError(`stage must be 0, 1, 2 or 3, got ${s}`);
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`numParams must be an integer >= 0, got ${n}`);
};
const make = (n: number, P: number, s: number, o: { floor?: boolean; k?: number; stage2Params?: boolean; stage1Grads?: boolean }) => {
  guard(n, P, s);
  const shard = o.floor ? Math.floor(n / P) : Math.ceil(n / P);
  const params = 2 * (s >= 3 || (o.stage2Params && s >= 2) ? shard : n);
  const grads = 2 * (s >= 2 || (o.stage1Grads && s >= 1) ? shard : n);
  const optimizerStates = (o.k ?? 12) * (s >= 1 ? shard : n);
  return { params, grads, optimizerStates, total: params + grads + optimizerStates };
};

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "Ψ/P rounded down": { impl: (n, P, s) => make(n, P, s, { floor: true }), caughtBy: ["the stub's example", "P does not divide Ψ: the largest shard"] },
  "K = 8 (forgets the fp32 master copy)": { impl: (n, P, s) => make(n, P, s, { k: 8 }), caughtBy: ["the stub's example", "the ZeRO paper's Figure 1 (7.5B parameters, 64 GPUs)"] },
  "stage 1 also partitions the gradients": { impl: (n, P, s) => make(n, P, s, { stage1Grads: true }), caughtBy: ["the ZeRO paper's Figure 1 (7.5B parameters, 64 GPUs)", "each stage partitions one more state"] },
  "stage 2 also partitions the parameters": { impl: (n, P, s) => make(n, P, s, { stage2Params: true }), caughtBy: ["the stub's example", "each stage partitions one more state"] },
  "no input checks": { impl: (n, P, s) => { const shard = Math.ceil(n / P); const params = 2 * (s >= 3 ? shard : n), grads = 2 * (s >= 2 ? shard : n), o = 12 * (s >= 1 ? shard : n); return { params, grads, optimizerStates: o, total: params + grads + o }; }, caughtBy: "bad input" },
};
