/**
 * ZeRO-Offload's one-step delayed parameter update (DPU) on the course model:
 * the forward and backward of step t run on the parameters of update t − 2,
 * because update t − 1 is still on the CPU while the GPU computes.
 */
import { AdamW, type AdamWOptions, corpus, createModel, DEFAULT_MODEL, forward, backward, mulberry32, sampleBatch, type ModelConfig, type Param } from "../nn/index.js";

/** Options of {@link trainWithDpu}. */
export interface DpuTrainOptions {
  /** Optimizer steps (integer ≥ 1). */
  steps: number;
  /** Delay the update by one step (default false: the synchronous update). */
  dpu?: boolean;
  /** Steps run without delay before DPU starts (integer ≥ 0; default 0). The paper starts DPU after a number of warm-up iterations. */
  dpuWarmupSteps?: number;
  /** Sequences per step (default 8). */
  batchSize?: number;
  /** Positions per sequence (default 16). */
  seqLen?: number;
  /** Seed of the batch sampler (default 0). */
  dataSeed?: number;
  /** Model sizes (default lib/nn's DEFAULT_MODEL). */
  model?: Partial<Omit<ModelConfig, "vocabSize">>;
  /** AdamW hyperparameters (default lr 1e-2, otherwise PyTorch's). */
  adamw?: AdamWOptions;
}

/** What {@link trainWithDpu} returns. */
export interface DpuTrainResult {
  /** Mean training loss of every step, nats per character (measured on the parameters the GPU used). */
  losses: number[];
  /** The fp32 master parameters after the last update, one array per parameter (new arrays). */
  master: Float32Array[];
}

/**
 * Trains lib/nn's character model with AdamW, the update either synchronous
 * or delayed by one step.
 *
 * Synchronous: gₜ = ∇L(θₜ₋₁), θₜ = Adam(θₜ₋₁, gₜ). DPU (after the warm-up):
 * gₜ = ∇L(θₜ₋₂), θₜ = Adam(θₜ₋₁, gₜ): the gradient is one update stale. The
 * master θ lives on the "CPU"; the model that runs forward and backward is the
 * "GPU" copy. Both runs see the same batches (same seed), so any difference
 * comes from the delay alone.
 *
 * @param o steps, delay, warm-up, sizes, seeds
 * @returns per-step losses and the final master parameters
 * @throws RangeError `steps must be an integer >= 1, got 0`; `dpuWarmupSteps must be an integer >= 0, got -1`
 * @example trainWithDpu({ steps: 100, dpu: true }).losses.length // 100; not the synchronous run's losses, but close (trainWithDpu.test.ts; the chapter page measures how close)
 * @see Ren et al. 2021, *ZeRO-Offload*, §5.2 "One-Step Delayed Parameter Update" (DPU, enabled after warm-up iterations)
 */
export function trainWithDpu(o: DpuTrainOptions): DpuTrainResult {
  if (!Number.isSafeInteger(o.steps) || o.steps < 1) throw new RangeError(`steps must be an integer >= 1, got ${o.steps}`);
  const warmup = o.dpuWarmupSteps ?? 0;
  if (!Number.isSafeInteger(warmup) || warmup < 0) throw new RangeError(`dpuWarmupSteps must be an integer >= 0, got ${warmup}`);
  const { vocab, tokens } = corpus();
  const cfg = { ...DEFAULT_MODEL, ...o.model, vocabSize: vocab.size };
  const gpu = createModel(cfg);
  const master: Param[] = gpu.params.map((p) => ({ name: p.name, shape: p.shape, data: p.data.slice(), grad: new Float32Array(p.data.length) }));
  const opt = new AdamW(master, { lr: 1e-2, ...o.adamw });
  const rng = mulberry32(o.dataSeed ?? 0);
  const losses: number[] = [];
  for (let s = 0; s < o.steps; s++) {
    const batch = sampleBatch(tokens, { batchSize: o.batchSize ?? 8, seqLen: o.seqLen ?? 16, contextLength: cfg.contextLength }, rng);
    for (const p of gpu.params) p.grad.fill(0);
    const f = forward(gpu, batch);
    backward(gpu, f, 1 / f.tokenCount);
    losses.push(f.loss);
    gpu.params.forEach((p, j) => master[j].grad.set(p.grad)); // gradients to the CPU
    const delayed = (o.dpu ?? false) && s >= warmup;
    const before = delayed ? master.map((p) => p.data.slice()) : null;
    opt.step(); // the CPU's Adam
    // Parameters back to the GPU: this update's, or (DPU) the previous one's while this one is still running.
    gpu.params.forEach((p, j) => p.data.set(before ? before[j] : master[j].data));
  }
  return { losses, master: master.map((p) => p.data.slice()) };
}
