// Data loader (Node, build time): lib/nn's character model trained with AdamW
// on one device and with its residual MLP blocks tensor-parallel on T = 2 and
// 4 simulated ranks (lib/tensor-parallel trainTensorParallel), same batches.
import { trainTensorParallel } from "../../lib/tensor-parallel/index.js";

const steps = 60;
const runs = [2, 4].map((T) => {
  const r = trainTensorParallel({ T, steps });
  return {
    T,
    maxWeightDiff: r.maxWeightDiff,
    maxLossDiff: Math.max(...r.lossSingle.map((l, i) => Math.abs(l - r.lossTp[i]))),
    lossSingle: r.lossSingle,
    lossTp: r.lossTp,
    lastStep: r.lastStepLog.map((l) => ({ pass: l.pass, collective: l.collective, op: l.op, elements: l.elements, bytes: l.bytes })),
  };
});
process.stdout.write(JSON.stringify({ steps, runs }, null, 2));
