// Data loader (Node, build time): lib/nn's MoE model trained on one device and
// with expert parallelism on P = 2 and 4 simulated ranks, same batches
// (lib/expert-parallel trainExpertParallel).
import { trainExpertParallel } from "../../lib/expert-parallel/index.js";

const steps = 30;
const runs = [2, 4].map((P) => {
  const r = trainExpertParallel({ epSize: P, steps, moe: { numExperts: 8, topK: 2, capacityFactor: 1.25 }, model: { hiddenDim: 16 } });
  return {
    P, maxWeightDiff: r.maxWeightDiff, maxLossDiff: Math.max(...r.lossSingle.map((l, i) => Math.abs(l - r.lossEp[i]))),
    lossSingle: r.lossSingle, lossEp: r.lossEp, denseAllReduceBytesPerRank: r.denseAllReduceBytesPerRank,
    // the last block's forward and backward call in the last step: dispatch, combine, combine backward, dispatch backward
    lastBlock: r.lastStepLog.slice(-4).map((l) => ({ label: l.label, bytes: l.bytes, splits: l.splits, timeS: l.timeS })),
  };
});
process.stdout.write(JSON.stringify({ steps, runs }));
