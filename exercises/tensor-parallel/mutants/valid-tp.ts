import type { validTpSizes } from "../valid-tp.js";

type F = typeof validTpSizes;
type Cfg = Parameters<F>[0];
function checked(c: Cfg, maxT: number | undefined): { G: number; maxT: number } {
  const G = c.numKvHeads ?? c.numHeads;
  for (const [k, v] of [["numHeads", c.numHeads], ["numKvHeads", G], ["hiddenSize", c.hiddenSize], ["ffnHiddenSize", c.ffnHiddenSize]] as const) if (!Number.isInteger(v) || v < 1) throw new RangeError(`${k} must be an integer >= 1, got ${v}`);
  if (c.numHeads % G !== 0) throw new RangeError(`numKvHeads (${G}) must divide numHeads (${c.numHeads})`);
  if (c.hiddenSize % c.numHeads !== 0) throw new RangeError(`hiddenSize (${c.hiddenSize}) must be a multiple of numHeads (${c.numHeads}) when headDim is not given`);
  const m = maxT ?? c.numHeads;
  if (!Number.isInteger(m) || m < 1) throw new RangeError(`maxT must be an integer >= 1, got ${m}`);
  return { G, maxT: m };
}
const sizes = (maxT: number, ok: (T: number) => boolean) => Array.from({ length: maxT }, (_, i) => i + 1).filter(ok);
/** The fused QKV width (a + 2G)·d divides by T whenever T exceeds G. */
const qkvSplits = (c: Cfg, G: number, T: number) => T <= G || ((c.numHeads + 2 * G) * (c.hiddenSize / c.numHeads)) % T === 0;

export const mutants = {
  "the rule of Megatron Core ≤ 0.15: T must divide the KV heads": { impl: ((c, maxT) => { const { G, maxT: m } = checked(c, maxT); return sizes(m, (T) => c.numHeads % T === 0 && G % T === 0 && c.ffnHiddenSize % T === 0); }) as F, caughtBy: "real configs (Llama-2-7B, 70B, Mistral-7B)" },
  "ignores the FFN size": { impl: ((c, maxT) => { const { G, maxT: m } = checked(c, maxT); return sizes(m, (T) => c.numHeads % T === 0 && (G % T === 0 || T % G === 0) && qkvSplits(c, G, T)); }) as F, caughtBy: "KV heads neither a multiple nor a divisor of T" },
  "forgets that the fused QKV weight must split into T blocks when T > G": { impl: ((c, maxT) => { const { G, maxT: m } = checked(c, maxT); return sizes(m, (T) => c.numHeads % T === 0 && (G % T === 0 || T % G === 0) && c.ffnHiddenSize % T === 0); }) as F, caughtBy: "more ranks than KV heads: the fused QKV weight must split into T blocks" },
  "only powers of two": { impl: ((c, maxT) => { const { G, maxT: m } = checked(c, maxT); return sizes(m, (T) => (T & (T - 1)) === 0 && c.numHeads % T === 0 && (G % T === 0 || T % G === 0) && qkvSplits(c, G, T) && c.ffnHiddenSize % T === 0); }) as F, caughtBy: "random configs" },
  "stops at 8 (one node) when maxT is omitted": { impl: ((c, maxT) => { const { G, maxT: m } = checked(c, maxT ?? Math.min(8, c.numHeads)); return sizes(m, (T) => c.numHeads % T === 0 && (G % T === 0 || T % G === 0) && qkvSplits(c, G, T) && c.ffnHiddenSize % T === 0); }) as F, caughtBy: "real configs (Llama-2-7B, 70B, Mistral-7B)" },
};
