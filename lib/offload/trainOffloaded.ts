/**
 * The GPU side of ZeRO-Offload on lib/nn's model, with the CPU step plugged in:
 * the machinery the chapter's build-it exercise runs a student's step in.
 */
import { corpus, createModel, cpuOps, DEFAULT_MODEL, forward, backward, mulberry32, roundArray, sampleBatch, zeroGrad } from "../nn/index.js";
import type { OffloadState, OffloadStepConfig } from "./offloadStep.js";

/** A CPU step: {@link offloadStep} or a student's; may be async (a worker). */
export type OffloadStepFn = (state: OffloadState, grads16: Float32Array[], config: OffloadStepConfig) =>
  { state: OffloadState; params16: Float32Array[] } | Promise<{ state: OffloadState; params16: Float32Array[] }>;

/** Options of {@link trainOffloaded}. */
export interface TrainOffloadedOptions {
  /** Steps (integer ≥ 1). */
  steps: number;
  /** Passed to the step (lr defaults to 1e-2 here). */
  config?: OffloadStepConfig;
  /** Seed of the batches (default 0). */
  dataSeed?: number;
}

/**
 * Trains a small lib/nn model (width 16, one block) with fp16 compute on the
 * "GPU" and the optimizer on the "CPU": each step, forward and backward run on
 * the fp16 parameters, the gradients are rounded to fp16 ("sent to the CPU"),
 * `step` updates the master and returns the fp16 parameters for the next step.
 *
 * @param step the CPU step
 * @param o steps, step config, seed
 * @returns the loss of every step and the last state
 * @throws RangeError `steps must be an integer >= 1, got 0`; TypeError `step returned …, not {state, params16}` (when the step's answer has the wrong shape)
 * @example (await trainOffloaded(offloadStep, { steps: 30 })).losses.length // 30
 * @see Ren et al. 2021, *ZeRO-Offload*, §4; lib/nn (cpuOps with compute "fp16")
 */
export async function trainOffloaded(step: OffloadStepFn, o: TrainOffloadedOptions): Promise<{ losses: number[]; state: OffloadState }> {
  if (!Number.isSafeInteger(o.steps) || o.steps < 1) throw new RangeError(`steps must be an integer >= 1, got ${o.steps}`);
  const { vocab, tokens } = corpus();
  const gpu = createModel({ ...DEFAULT_MODEL, vocabSize: vocab.size, width: 16, hiddenDim: 32, numBlocks: 1, seed: 3 });
  let state: OffloadState = { t: 0, master: gpu.params.map((p) => p.data.slice()), m: gpu.params.map((p) => new Float32Array(p.data.length)), v: gpu.params.map((p) => new Float32Array(p.data.length)) };
  for (const p of gpu.params) p.data.set(roundArray("fp16", p.data));
  const ops = cpuOps({ compute: "fp16", accumulate: "fp32" });
  const rng = mulberry32(o.dataSeed ?? 0);
  const losses: number[] = [];
  for (let s = 0; s < o.steps; s++) {
    const batch = sampleBatch(tokens, { batchSize: 4, seqLen: 16, contextLength: DEFAULT_MODEL.contextLength }, rng);
    zeroGrad(gpu.params);
    const f = forward(gpu, batch, ops);
    backward(gpu, f, 1 / f.tokenCount, ops);
    losses.push(f.loss);
    const r = await step(state, gpu.params.map((p) => roundArray("fp16", p.grad.slice())), { lr: 1e-2, ...o.config });
    if (!r || !Array.isArray(r.params16) || r.params16.length !== gpu.params.length || !r.state) {
      throw new TypeError(`step returned ${JSON.stringify(r)?.slice(0, 80)}, not {state, params16} with ${gpu.params.length} parameters`);
    }
    gpu.params.forEach((p, j) => p.data.set(r.params16[j]));
    state = r.state;
  }
  return { losses, state };
}
