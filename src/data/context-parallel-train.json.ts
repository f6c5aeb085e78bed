// Data loader (Node, build time): lib/nn's character model, with a causal
// self-attention layer, trained with AdamW on one device and with that layer
// context-parallel over C = 2 and 4 simulated ranks (zig-zag), same batches
// (lib/context-parallel trainContextParallel).
import { trainContextParallel } from "../../lib/context-parallel/index.js";

const steps = 40;
const runs = [2, 4].map((cpSize) => {
  const r = trainContextParallel({ cpSize, layout: "zigzag", steps });
  return {
    cpSize,
    layout: "zigzag",
    maxWeightDiff: r.maxWeightDiff,
    maxLossDiff: Math.max(...r.lossSingle.map((l, i) => Math.abs(l - r.lossCp[i]))),
    lossSingle: r.lossSingle,
    lossCp: r.lossCp,
    ringMessages: r.lastRingEvents.length,
    ringBytesPerRank: r.lastRingEvents.filter((e) => e.sender === 0).reduce((s, e) => s + e.bytes, 0),
    allReduceBytesPerRank: r.lastAllReduceEvents.filter((e) => e.sender === 0).reduce((s, e) => s + e.bytes, 0),
  };
});
process.stdout.write(JSON.stringify({ steps, runs }, null, 2));
