// Data loader (Node, build time): trains lib/nn's character model with the
// synchronous update and with ZeRO-Offload's one-step delayed update (DPU),
// at two learning rates, so the offload page can show how far DPU moves
// training without training in the browser.
import { trainWithDpu } from "../../lib/offload/index.js";

const steps = 120;
const dpuWarmupSteps = 10;
const tail = 20;
const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;

const out = [1e-2, 3e-3].map((lr) => {
  const sync = trainWithDpu({ steps, adamw: { lr } });
  const dpu = trainWithDpu({ steps, adamw: { lr }, dpu: true, dpuWarmupSteps });
  let num = 0, den = 0;
  sync.master.forEach((m, j) => m.forEach((x, i) => { num += (dpu.master[j][i] - x) ** 2; den += x * x; }));
  return {
    lr,
    sync: sync.losses,
    dpu: dpu.losses,
    tailSync: mean(sync.losses.slice(-tail)),
    tailDpu: mean(dpu.losses.slice(-tail)),
    weightRelL2: Math.sqrt(num / den),
    firstDifferentStep: sync.losses.findIndex((l, i) => l !== dpu.losses[i]),
  };
});

process.stdout.write(JSON.stringify({ steps, dpuWarmupSteps, tail, model: "lib/nn DEFAULT_MODEL on Shakespeare's sonnets, AdamW, batch 8 × 16", runs: out }));
