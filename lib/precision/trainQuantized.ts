/**
 * Training in simulated fp16 or bf16: the course model of lib/nn with a 16-bit
 * working copy of fp32 master weights, every activation and gradient rounded to
 * the 16-bit format, and a pluggable rounding function (the "quantize step").
 */
import { corpus, DEFAULT_MODEL } from "../nn/train.js";
import { createModel, forward, backward, type ModelConfig } from "../nn/model.js";
import { copyParams, zeroGrad } from "../nn/param.js";
import { sampleBatch } from "../nn/sampler.js";
import { AdamW } from "../nn/AdamW.js";
import { cpuOps } from "../nn/ops.js";
import { roundArrayWith, type Quantize } from "../nn/precision.js";
import { mulberry32 } from "../random.js";
import { castArray, fastRounder } from "./fastRound.js";

/** Fails unless a weight update returned two Float32Arrays of `n` values of `format`. */
function checkUpdate(r: unknown, n: number, format: "fp16" | "bf16"): void {
  const round = fastRounder(format);
  const problem = (a: unknown, name: string): string | undefined => {
    if (!(a instanceof Float32Array)) return `${name} is ${a === null ? "null" : typeof a}`;
    if (a.length !== n) return `${name} has ${a.length} values`;
    for (let i = 0; i < n; i++) if (round(a[i]) !== a[i] && !Number.isNaN(a[i])) return `${name}[${i}] = ${a[i]} is not a ${format} value`;
    return undefined;
  };
  const o = r as { weights?: unknown; carry?: unknown } | null;
  const why = o === null || typeof o !== "object" ? `it returned ${o === null ? "null" : typeof o}` : problem(o.weights, "weights") ?? problem(o.carry, "carry");
  if (why) throw new RangeError(`weightUpdate must return {weights, carry}, two Float32Arrays of ${n} values of ${format}: ${why}`);
}

/** Options of {@link trainQuantized}. */
export interface TrainQuantizedOptions {
  /** The 16-bit format of the working weights, activations and gradients. */
  format: "fp16" | "bf16";
  /** Optimizer steps, an integer >= 1. */
  steps: number;
  /** The rounding to `format` (default: lib/precision's `castArray`, round to nearest even). */
  quantize?: Quantize;
  /** Keep fp32 master weights (default true). false: the weights themselves are stored in `format` after every update. */
  masterWeights?: boolean;
  /**
   * With `masterWeights: false`, how an optimizer step's update reaches the 16-bit weights:
   * called once per parameter and step with the 16-bit weights, the update AdamW computed
   * (its float32 result minus the old weight) and the parameter's 16-bit carry (zeros at
   * first); it returns the new weights and carry, every value a value of `format` (for
   * example {@link compensatedUpdate}). Default: the weights are rounded, the update's
   * dropped part is lost.
   */
  weightUpdate?: WeightUpdate;
  /** A static loss scale, a power of two >= 1 (default 1; chapter 4 makes it dynamic). */
  lossScale?: number;
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
}

/** An update of 16-bit weights with a 16-bit carry per weight (see {@link TrainQuantizedOptions.weightUpdate}). */
export type WeightUpdate = (weights: Float32Array, update: Float32Array, carry: Float32Array) => { weights: Float32Array; carry: Float32Array };

/** What {@link trainQuantized} returns. */
export interface TrainQuantizedResult {
  /** Mean training loss of every step (nats per character), computed by the 16-bit forward. */
  losses: number[];
  /** The trained weights, one fp32 array per parameter (the master copy; 16-bit values when masterWeights is false). */
  weights: Float32Array[];
  /** Parameter names, in the order of `weights`, e.g. "blocks.0.W1". */
  names: string[];
}

/**
 * Trains lib/nn's character model on the sonnets with AdamW in simulated fp16
 * or bf16, the recipe of mixed-precision training: before every step the fp32
 * master weights are rounded to `format` by `quantize` (the working copy),
 * forward and backward run with every op output rounded to `format` by the
 * same `quantize` (matmul partial sums in fp32, as on tensor cores), the
 * gradients are unscaled into fp32 and AdamW updates the fp32 master.
 *
 * With `masterWeights: false` the updated weights are rounded back to `format`
 * after every step, so an update smaller than half a spacing of the weight is lost.
 *
 * @param o format, steps, rounding, and the sizes and seeds of the run
 * @returns the loss of every step and the trained weights
 * With `masterWeights: false` and a `weightUpdate`, that function applies each step's update
 * to the 16-bit weights with a 16-bit carry per weight (both checked to be values of `format`).
 *
 * @throws {RangeError} `format must be "fp16" or "bf16", got "<x>"`; `steps must be an integer >= 1, got <x>`;
 *   `lossScale must be a power of two >= 1, got <x>`; the hook's message when `quantize` returns the wrong length;
 *   `weightUpdate must return {weights, carry}, two Float32Arrays of <n> values of <format>: <what was wrong>`
 * @example
 * const { losses, weights } = trainQuantized({ format: "bf16", steps: 30 });
 * // losses[0] ≈ ln(vocabulary size); losses fall; weights[0] is emb.W, (V, d)
 * @see Micikevicius et al. 2017, Mixed Precision Training, §3.1 (fp32 master copy of weights), §3.2 (loss scaling),
 *   §3.3 (fp32 accumulation); Kalamkar et al. 2019, A Study of BFLOAT16 for Deep Learning Training
 */
export function trainQuantized(o: TrainQuantizedOptions): TrainQuantizedResult {
  if (o.format !== "fp16" && o.format !== "bf16") throw new RangeError(`format must be "fp16" or "bf16", got "${String(o.format)}"`);
  if (!Number.isInteger(o.steps) || o.steps < 1) throw new RangeError(`steps must be an integer >= 1, got ${o.steps}`);
  const lossScale = o.lossScale ?? 1;
  if (!(lossScale >= 1 && Number.isFinite(lossScale) && 2 ** Math.round(Math.log2(lossScale)) === lossScale)) {
    throw new RangeError(`lossScale must be a power of two >= 1, got ${lossScale}`);
  }
  const format = o.format, quantize: Quantize = o.quantize ?? ((v, f) => castArray(f, v));
  const { tokens, vocab } = corpus();
  const cfg: ModelConfig = { ...DEFAULT_MODEL, ...o.model, vocabSize: vocab.size };
  const master = createModel(cfg), work = createModel(cfg);
  const opt = new AdamW(master.params, { lr: o.lr ?? 1e-2 });
  const ops = { ...cpuOps({ compute: format, accumulate: "fp32" }), quantize };
  const rng = mulberry32(o.dataSeed ?? 0);
  const shape = { batchSize: o.batchSize ?? 4, seqLen: o.seqLen ?? 16, contextLength: cfg.contextLength };
  const losses: number[] = [];
  const carries = master.params.map((p) => new Float32Array(p.data.length));
  for (let s = 0; s < o.steps; s++) {
    const batch = sampleBatch(tokens, shape, rng);
    copyParams(master.params, work.params, format, quantize); // the quantize step: fp32 master → 16-bit working copy
    zeroGrad(work.params);
    const f = forward(work, batch, ops);
    backward(work, f, lossScale / f.tokenCount, ops);
    master.params.forEach((p, i) => { const g = work.params[i].grad; for (let k = 0; k < g.length; k++) p.grad[k] = g[k] / lossScale; }); // exact: a power of two
    const old = o.masterWeights === false && o.weightUpdate ? master.params.map((p) => Float32Array.from(p.data)) : [];
    opt.step();
    if (o.masterWeights === false && o.weightUpdate) {
      master.params.forEach((p, i) => {
        const update = Float32Array.from(p.data, (x, k) => x - old[i][k]);
        const r = o.weightUpdate!(old[i], update, carries[i]);
        checkUpdate(r, p.data.length, format);
        p.data.set(r.weights);
        carries[i] = Float32Array.from(r.carry);
      });
    } else if (o.masterWeights === false) for (const p of master.params) roundArrayWith(format, p.data, quantize);
    losses.push(f.loss);
  }
  return { losses, weights: master.params.map((p) => Float32Array.from(p.data)), names: master.params.map((p) => p.name) };
}
