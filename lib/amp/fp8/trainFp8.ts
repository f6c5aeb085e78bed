/**
 * FP8 training of the course model: fp32 master weights and AdamW, a bf16
 * working copy for everything but the GEMMs of the FP8 linear layers, which
 * run in FP8 through an {@link Fp8Context}. The same loop runs the fp32 and
 * bf16 baselines, so every run starts from the same weights on the same batches.
 */
import { AdamW, backward, copyParams, corpus, cpuOps, createModel, DEFAULT_MODEL, forward, sampleBatch, zeroGrad, type ModelConfig } from "../../nn/index.js";
import { mulberry32 } from "../../random.js";
import { Fp8Context, type Fp8ContextOptions, type Fp8TensorStats } from "./Fp8Context.js";
import type { Fp8Scaling } from "./resolveFp8Scaling.js";

/** Options of {@link fp8TrainingSteps} and {@link trainFp8}. */
export interface TrainFp8Options extends Fp8ContextOptions {
  /** "fp32", "bf16" (the baselines), or an FP8 scaling. */
  precision: "fp32" | "bf16" | Fp8Scaling;
  /** Optimizer steps, an integer >= 1. */
  steps: number;
  /** Sequences per step (default 4). */
  batchSize?: number;
  /** Positions per sequence (default 16). */
  seqLen?: number;
  /** Seed of the batch sampler (default 0). */
  dataSeed?: number;
  /** AdamW learning rate (default 1e-2; other hyperparameters PyTorch's defaults). */
  lr?: number;
  /** Model sizes (default lib/nn's DEFAULT_MODEL). */
  model?: Partial<Omit<ModelConfig, "vocabSize">>;
  /** Names of the weights whose GEMMs run in FP8 (default: every linear weight but the head's). */
  fp8Weights?: string[];
}

/** One step of an FP8 (or baseline) run. */
export interface Fp8StepRecord {
  step: number;
  /** Mean training loss of the step (nats per character). */
  loss: number;
  /** What each FP8 tensor's casts did (empty for the baselines). */
  tensors: Fp8TensorStats[];
  /** Relative error of each FP8 forward GEMM (with `measureError`), by weight name. */
  forwardError: Record<string, number>;
}

/**
 * Trains lib/nn's character model on the sonnets, one step at a time: before
 * each step the fp32 master weights are rounded to a bf16 working copy; forward
 * and backward run in bf16 with fp32 GEMM accumulation, except the GEMMs of the
 * FP8 weights (forward x·W, dgrad dy·Wᵀ, wgrad xᵀ·dy), whose operands are cast
 * to FP8 by the chosen scaling; the gradients go into fp32 and AdamW updates the
 * master. No loss scaling: the per-tensor (or per-tile) scales do that job.
 * @param o precision, steps, sizes, seeds, FP8 options
 * @returns a generator of one {@link Fp8StepRecord} per step
 * @throws {RangeError} `steps must be an integer >= 1, got 0`; `fp8Weights must name linear weights of the model, got "x.W"`; the scaling's messages
 * @example [...fp8TrainingSteps({ precision: { kind: "delayed" }, steps: 2 })].map((r) => r.step) // [0, 1]
 * @see DeepSeek-V3 Technical Report §3.3.1 (FP8 GEMMs, embedding and output head in higher precision, fp32 master weights and gradients);
 *   Micikevicius et al. 2022, FP8 Formats for Deep Learning, §4; TE `fp8_autocast`/`autocast` (FP8 inside te.Linear only)
 */
export function* fp8TrainingSteps(o: TrainFp8Options): Generator<Fp8StepRecord> {
  if (!Number.isInteger(o.steps) || o.steps < 1) throw new RangeError(`steps must be an integer >= 1, got ${o.steps}`);
  const { tokens, vocab } = corpus();
  const cfg: ModelConfig = { ...DEFAULT_MODEL, ...o.model, vocabSize: vocab.size };
  const master = createModel(cfg), work = createModel(cfg);
  const opt = new AdamW(master.params, { lr: o.lr ?? 1e-2 });
  const linear = work.params.filter((p) => /\.W\d?$/.test(p.name) && p.name !== "head.W" && p.shape.length === 2 && !p.name.startsWith("emb"));
  const names = o.fp8Weights ?? linear.map((p) => p.name);
  const fp8 = names.map((n) => { const p = work.params.find((q) => q.name === n && q.shape.length === 2 && !n.startsWith("emb")); if (!p) throw new RangeError(`fp8Weights must name linear weights of the model, got ${JSON.stringify(n)}`); return p; });
  const ctx = typeof o.precision === "object" ? new Fp8Context(fp8, o.precision, o) : null;
  if (o.precision !== "fp32" && o.precision !== "bf16" && !ctx) throw new RangeError(`precision must be "fp32", "bf16" or an FP8 scaling, got ${JSON.stringify(o.precision)}`);
  const ops = ctx ? ctx.ops : o.precision === "bf16" ? cpuOps({ compute: "bf16", accumulate: "fp32" }) : cpuOps();
  const model = o.precision === "fp32" ? master : work;
  const rng = mulberry32(o.dataSeed ?? 0);
  const shape = { batchSize: o.batchSize ?? 4, seqLen: o.seqLen ?? 16, contextLength: cfg.contextLength };
  for (let step = 0; step < o.steps; step++) {
    const batch = sampleBatch(tokens, shape, rng);
    if (model === work) copyParams(master.params, work.params, "bf16"); // the bf16 working copy (FP8 casts start from it)
    zeroGrad(model.params);
    ctx?.beginStep(step);
    const f = forward(model, batch, ops);
    backward(model, f, 1 / f.tokenCount, ops);
    if (model === work) master.params.forEach((p, i) => p.grad.set(work.params[i].grad));
    opt.step();
    const tensors = ctx ? ctx.endStep() : [];
    yield { step, loss: f.loss, tensors, forwardError: ctx ? Object.fromEntries(ctx.forwardError) : {} };
  }
}

/**
 * Runs {@link fp8TrainingSteps} to the end.
 * @param o as {@link fp8TrainingSteps}
 * @returns the loss of every step and every step's record
 * @throws as {@link fp8TrainingSteps}
 * @example trainFp8({ precision: { kind: "blockwise", blockSize: 16 }, steps: 30 }).losses.length // 30
 * @see {@link fp8TrainingSteps}
 */
export function trainFp8(o: TrainFp8Options): { losses: number[]; records: Fp8StepRecord[] } {
  const records = [...fp8TrainingSteps(o)];
  return { losses: records.map((r) => r.loss), records };
}
