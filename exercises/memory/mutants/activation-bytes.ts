import type { activationBytesPerLayer, LayerSetting } from "../activation-bytes.js";

function bytes(o: LayerSetting, m: { attention?: "none" | "linear"; splitAll?: boolean; fullSplit?: boolean; noThrow?: boolean } = {}): number {
  const { seqLen: s, microBatch: b, hiddenSize: h, numHeads: a, tensorParallel: t } = o;
  if (!m.noThrow && a % t !== 0) throw new RangeError(`tensorParallel (${t}) must divide numHeads (${a})`);
  const sbh = s * b * h;
  if (o.recompute === "full") return Math.ceil(o.sequenceParallel || m.fullSplit ? (2 * sbh) / t : 2 * sbh);
  const linear = o.sequenceParallel || m.splitAll ? (34 * sbh) / t : 10 * sbh + (24 * sbh) / t;
  const attention = o.recompute === "selective" || m.attention === "none" ? 0 : m.attention === "linear" ? (5 * a * s * b) / t : (5 * a * s * s * b) / t;
  return Math.ceil(linear + attention);
}

export const mutants: Record<string, typeof activationBytesPerLayer> = {
  "forgets the 5as²b attention term": (o) => bytes(o, { attention: "none" }),
  "writes 5asb instead of 5as²b (attention scores are s × s)": (o) => bytes(o, { attention: "linear" }),
  "divides all 34 by t without sequence parallelism": (o) => bytes(o, { splitAll: true }),
  "splits the full-recompute checkpoint by t without sequence parallelism": (o) => bytes(o, { fullSplit: true }),
  "accepts a TP size that does not divide the heads": (o) => bytes(o, { noThrow: true }),
};
