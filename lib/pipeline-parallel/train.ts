/**
 * Pipeline-parallel training of lib/nn's model on simulated stages: the model's layers are
 * split into p·v contiguous virtual stages, and a schedule's events are executed in time order.
 * An F pass runs its stage's layers on the activation "received" from the previous stage; a B pass
 * runs their backward on the gradient received from the next stage and adds weight gradients into
 * `param.grad`; one optimizer step per training step (after the flush).
 */
import {
  AdamW, backward, batchInput, corpus, createModel, cpuOps, crossEntropy, crossEntropyBackward, DEFAULT_MODEL, forward,
  forwardLayers, backwardLayers, IGNORE_INDEX, mulberry32, sampleBatch, zeroGrad,
  type Activation, type Batch, type Layer, type Model, type ModelConfig, type Saved,
} from "../nn/index.js";
import { generateSchedule } from "./generators.js";
import { balancePartition } from "./partition.js";
import { type Schedule, type ScheduleEvent, type ScheduleName } from "./schedule.js";
import { checkSchedule } from "./validate.js";

/** Options of {@link trainPipeline} and {@link trainOneDevice}. */
export interface PipelineTrainOptions {
  /** Stages (integer ≥ 1, p·v ≤ the model's layers). */
  p: number;
  /** Micro-batches per step (gradient-accumulation steps). */
  m: number;
  /** Chunks per stage (interleaved only; default 1). */
  v?: number;
  /** Sequences per micro-batch (default 2). */
  microBatchSize?: number;
  /** Positions per sequence (default 8). */
  seqLen?: number;
  /** Optimizer steps (default 3). */
  steps?: number;
  /** AdamW learning rate (default 1e-2). */
  lr?: number;
  /** Seed of the batch sampler (default 0). */
  seed?: number;
  /** Model sizes (default lib/nn's DEFAULT_MODEL with 4 blocks: 7 layers). */
  model?: Omit<ModelConfig, "vocabSize">;
}

/** What a training run returns. */
export interface PipelineTrainResult {
  /** Final weights, one copy per parameter, in model.params order. */
  weights: Float32Array[];
  /** Mean loss of each step's global batch. */
  losses: number[];
  /** Layer index bounds of the p·v virtual stages. */
  bounds: number[];
  /** Per stage: most micro-batches whose saved activations it held at once (chunk passes count 1/v). */
  peakActivations: number[];
  /** Per stage: most bytes of saved activations (lib/nn's Saved.bytes) held at once. */
  peakActivationBytes: number[];
}

const defaults = (o: PipelineTrainOptions) => ({
  v: o.v ?? 1, microBatchSize: o.microBatchSize ?? 2, seqLen: o.seqLen ?? 8, steps: o.steps ?? 3, lr: o.lr ?? 1e-2, seed: o.seed ?? 0,
  model: o.model ?? { ...DEFAULT_MODEL, numBlocks: 4 },
});

function setup(o: PipelineTrainOptions) {
  const d = defaults(o);
  const { vocab, tokens } = corpus();
  const model = createModel({ ...d.model, vocabSize: vocab.size });
  const rng = mulberry32(d.seed);
  const sample = () => Array.from({ length: o.m }, () => sampleBatch(tokens, { batchSize: d.microBatchSize, seqLen: d.seqLen, contextLength: d.model.contextLength }, rng));
  return { d, model, sample };
}

const countTokens = (mbs: Batch[]) => mbs.reduce((a, b) => a + b.targets.reduce((n, t) => n + (t === IGNORE_INDEX ? 0 : 1), 0), 0);

/**
 * Splits a model's layers into p·v contiguous virtual stages balanced by forward FLOPs (for one row).
 * @throws {RangeError} `p · v = 8 must be <= the model's 7 layers`
 * @example stageBounds(createModel({...DEFAULT_MODEL, numBlocks: 4, vocabSize: 59}), 2, 1) // [0, 4, 7] (layer bounds)
 */
export function stageBounds(model: Model, p: number, v = 1): number[] {
  const L = model.layers.length;
  if (p * v > L) throw new RangeError(`p · v = ${p * v} must be <= the model's ${L} layers`);
  return balancePartition(model.layers.map((l) => l.flops(1)), p * v).bounds;
}

/**
 * Runs one step's passes in event order on a model split at `bounds`; adds gradients into the
 * model's `param.grad` (the caller zeroes them and steps the optimizer).
 * @param events a valid schedule's events (checked by the caller)
 * @returns the step's loss sum and per-stage activation peaks
 * @throws {Error} `F of micro-batch 1 on virtual stage 2 has no input: its previous stage has not run it` (only for an invalid order)
 */
export function runPipelineStep(model: Model, bounds: readonly number[], p: number, v: number, events: readonly ScheduleEvent[], mbs: readonly Batch[], scale: number) {
  const ops = cpuOps();
  const P = p * v, m = mbs.length, V = model.config.vocabSize;
  const layers: Layer[][] = Array.from({ length: P }, (_, k) => model.layers.slice(bounds[k], bounds[k + 1]));
  const out: (Activation | undefined)[][] = Array.from({ length: P }, () => new Array(m));
  const grads: (Activation | undefined)[][] = Array.from({ length: P }, () => new Array(m));
  const saved: (Saved[] | undefined)[][] = Array.from({ length: P }, () => new Array(m));
  const probs: Float32Array[] = new Array(m);
  const kept = new Array(p).fill(0), keptBytes = new Array(p).fill(0);
  const peak = new Array(p).fill(0), peakBytes = new Array(p).fill(0);
  let lossSum = 0;
  const ordered = [...events].sort((a, b) => a.start - b.start || a.end - b.end || a.stage - b.stage);
  for (const e of ordered) {
    const k = e.chunk * p + e.stage, j = e.microBatch;
    if (e.kind === "F") {
      const x = k === 0 ? batchInput(mbs[j]) : out[k - 1][j];
      if (!x) throw new Error(`F of micro-batch ${j} on virtual stage ${k} has no input: its previous stage has not run it`);
      const r = forwardLayers(layers[k], x, ops);
      saved[k][j] = r.saved;
      if (k === P - 1) { const ce = crossEntropy(r.y, mbs[j].targets); probs[j] = ce.probs; lossSum += ce.lossSum; } else out[k][j] = r.y;
      if (k > 0) out[k - 1][j] = undefined; // the received activation lives on as the first layer's saved input
      kept[e.stage] += 1; keptBytes[e.stage] += r.saved.reduce((a, s) => a + s.bytes, 0);
      peak[e.stage] = Math.max(peak[e.stage], kept[e.stage]); peakBytes[e.stage] = Math.max(peakBytes[e.stage], keptBytes[e.stage]);
    } else if (e.kind === "B") {
      const sv = saved[k][j];
      const dy = k === P - 1 ? (probs[j] ? crossEntropyBackward(probs[j], mbs[j].targets, V, scale, ops.precision.compute) : undefined) : grads[k + 1][j];
      if (!sv || !dy) throw new Error(`B of micro-batch ${j} on virtual stage ${k} runs before its F or before the next stage's B`);
      const dx = backwardLayers(layers[k], sv, dy, ops);
      if (k > 0 && dx) grads[k][j] = dx;
      if (k < P - 1) grads[k + 1][j] = undefined;
      kept[e.stage] -= 1; keptBytes[e.stage] -= sv.reduce((a, s) => a + s.bytes, 0);
      saved[k][j] = undefined;
    } else {
      throw new Error("training runs schedules without W passes: lib/nn's layers compute input and weight gradients in one backward");
    }
  }
  return { lossSum, peak: peak.map((x) => x / v), peakBytes };
}

/**
 * Trains lib/nn's model with a pipeline schedule (or a schedule generator of your own) on p
 * simulated stages: per step, m micro-batches, one B per micro-batch and stage adding into the
 * gradients, one AdamW step after the flush. The loss is the mean over the global batch's tokens
 * (each micro-batch's backward is scaled by 1/tokens of the whole step), so the result equals
 * {@link trainOneDevice} with gradient accumulation: bit for bit, because every parameter receives
 * its micro-batches' contributions in the same order (0 … m−1) with the same arithmetic.
 * @param schedule a schedule name without W passes ("naive", "gpipe", "1f1b", "interleaved"), or a function (p, m, v) → events
 * @param o sizes (see {@link PipelineTrainOptions})
 * @returns final weights, losses, stage bounds and the activations each stage kept at its peak
 * @throws {Error} `invalid schedule: …` when the events break a rule of {@link checkSchedule}; `training runs schedules without W passes: …` for ZB-H1
 * @example trainPipeline("1f1b", { p: 4, m: 8 }).peakActivations // [4, 3, 2, 1]
 * @see Huang et al. 2019 (GPipe), §2.2 (synchronous: the same update as one device); Narayanan et al. 2021, §2.2 (pipeline flushes keep strict optimizer semantics)
 */
export function trainPipeline(schedule: ScheduleName | ((p: number, m: number, v: number) => ScheduleEvent[]), o: PipelineTrainOptions): PipelineTrainResult {
  const { d, model, sample } = setup(o);
  const bounds = stageBounds(model, o.p, d.v);
  const sched: Schedule = typeof schedule === "function"
    ? { name: "1f1b", p: o.p, m: o.m, v: d.v, splitBackward: false, events: schedule(o.p, o.m, d.v) }
    : generateSchedule(schedule, { p: o.p, m: o.m, v: d.v });
  if (sched.splitBackward) throw new Error("training runs schedules without W passes: lib/nn's layers compute input and weight gradients in one backward");
  const bad = checkSchedule(sched);
  if (bad.length) throw new Error(`invalid schedule: ${bad.slice(0, 3).join("; ")}`);
  const opt = new AdamW(model.params, { lr: d.lr });
  const losses: number[] = [];
  const peakActivations = new Array(o.p).fill(0), peakActivationBytes = new Array(o.p).fill(0);
  for (let step = 0; step < d.steps; step++) {
    const mbs = sample();
    const tokens = countTokens(mbs);
    zeroGrad(model.params);
    const r = runPipelineStep(model, bounds, o.p, d.v, sched.events, mbs, 1 / tokens);
    losses.push(r.lossSum / tokens);
    r.peak.forEach((x, s) => { peakActivations[s] = Math.max(peakActivations[s], x); peakActivationBytes[s] = Math.max(peakActivationBytes[s], r.peakBytes[s]); });
    opt.step();
  }
  return { weights: model.params.map((q) => Float32Array.from(q.data)), losses, bounds, peakActivations, peakActivationBytes };
}

/**
 * The same training on one device: per step, forward and backward of each micro-batch in order
 * (gradient accumulation, each scaled by 1/tokens of the step), then one AdamW step.
 * @param o sizes (p and v are ignored)
 * @returns final weights and losses
 * @example trainOneDevice({ p: 1, m: 4 }).losses.length // 3
 * @see lib/accumulation-checkpointing (the same accumulation, chapter 3)
 */
export function trainOneDevice(o: PipelineTrainOptions): { weights: Float32Array[]; losses: number[] } {
  const { d, model, sample } = setup(o);
  const opt = new AdamW(model.params, { lr: d.lr });
  const losses: number[] = [];
  for (let step = 0; step < d.steps; step++) {
    const mbs = sample();
    const tokens = countTokens(mbs);
    zeroGrad(model.params);
    let lossSum = 0;
    for (const mb of mbs) { const f = forward(model, mb); lossSum += f.lossSum; backward(model, f, 1 / tokens); }
    losses.push(lossSum / tokens);
    opt.step();
  }
  return { weights: model.params.map((q) => Float32Array.from(q.data)), losses };
}
