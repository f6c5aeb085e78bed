/**
 * The reference every data-parallel run of the chapter is checked against: one process,
 * fp32, the whole global batch of each optimizer step at once.
 */
import { corpus, createModel, forward, backward, flatData, flatGrad, zeroGrad, optimizerStep, initOptimizerState, concatBatches } from "../nn/index.js";
import { AMP_LIVE_MODEL } from "../amp/charLmSetup.js";
import { zeroMicroBatches, type TrainingRunOptions } from "./trainZero.js";

/**
 * Trains lib/nn's model in fp32 on one device, each optimizer step on the concatenation of every rank's micro-batches
 * (the batches `zeroMicroBatches` gives P ranks and K micro-batches), with AdamW. A data-parallel run in fp32 sums the
 * same gradients in another order, so it agrees to float32 rounding (the chapter's tests: within 1e-5 after 3 steps),
 * not bit for bit.
 *
 * @param c numRanks P (whose batches), and the run's model, batches, steps, K and optimizer
 * @returns the fp32 weights in `model.params` order
 * @throws RangeError `gradAccumSteps must be an integer >= 1, got 0`
 * @example trainOneDevice({ numRanks: 4, steps: 3 }).length // 3555 (AMP_LIVE_MODEL)
 * @see Goyal et al. 2017, Accurate, Large Minibatch SGD (data parallelism as one large batch); PyTorch DDP notes (gradients averaged over ranks = the global batch's)
 */
export function trainOneDevice(c: TrainingRunOptions & { numRanks: number }): Float32Array {
  const m = createModel({ ...(c.model ?? AMP_LIVE_MODEL), vocabSize: corpus().vocab.size });
  let w: Float32Array = Float32Array.from(flatData(m.params)), state = initOptimizerState([w]);
  for (const step of zeroMicroBatches({ ...c, stage: 0 })) {
    let o = 0;
    for (const p of m.params) { p.data.set(w.subarray(o, o + p.data.length)); o += p.data.length; }
    zeroGrad(m.params);
    backward(m, forward(m, concatBatches(step.flat())));
    const next = optimizerStep([w], [Float32Array.from(flatGrad(m.params))], state, c.optimizer ?? { kind: "adamw", lr: 1e-2 });
    w = next.params[0]; state = next.state;
  }
  return w;
}
