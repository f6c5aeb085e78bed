/**
 * The training loop of PyTorch's AMP recipe with a GradScaler passed in as an
 * object: the loop the "build it" exercise plugs a student's scaler into, and
 * the reference run it is compared with (the course's {@link GradScaler}).
 */
import { castArray, type TrainPrecision } from "./castArray.js";
import { clipGradNorm } from "./clipGradNorm.js";
import type { AmpModel } from "./ampStep.js";
import type { ScalableOptimizer } from "./GradScaler.js";
import { initOptimizerState, optimizerStep, type OptimizerConfig } from "../nn/optimizerStep.js";

/** What the loop calls on a scaler: torch.amp.GradScaler's per-iteration methods. */
export interface GradScalerLike {
  /** loss × S (float32). The loop calls `scale(1)` to learn the S that backward multiplies the loss by. */
  scale(loss: number): number;
  /** Unscales the optimizer's gradients in place and records inf/NaN. */
  unscale_(optimizer: ScalableOptimizer): void;
  /** Unscales if needed; calls `optimizer.step()` only without inf/NaN. Its return value is not used. */
  step(optimizer: ScalableOptimizer): unknown;
  /** Backoff or growth of S for the next iteration. */
  update(): void;
}

/** Options of {@link trainWithGradScaler}. */
export interface TrainWithGradScalerOptions {
  /** lib/nn's optimizer on the fp32 weights, e.g. `{kind: "adamw", lr: 1e-2}`. */
  optimizer: OptimizerConfig;
  /** Precision of forward and backward (default "fp16"). */
  precision?: TrainPrecision;
  /** Clip the gradients to this global norm between `unscale_` and `step` (PyTorch's recipe); default: no clipping. */
  maxGradNorm?: number;
}

/** One iteration as the loop saw it. */
export interface ScalerStepRecord {
  step: number;
  /** Mean loss of the batch (unscaled). */
  loss: number;
  /** S = scaler.scale(1) at the start of the iteration. */
  lossScale: number;
  /** True when `optimizer.step()` was not called (the scaler skipped the update). */
  skipped: boolean;
}

/**
 * Trains `steps` iterations of design B (torch.amp): fp32 weights cast to
 * `precision` for forward and backward of S·loss, fp32 gradients handed to
 * the scaler through an optimizer object whose `step()` runs lib/nn's
 * optimizer on the fp32 weights. Per iteration: S ← scaler.scale(1);
 * backward of S·loss; [scaler.unscale_(opt); clip in place]; scaler.step(opt);
 * scaler.update(). A step counts as skipped when `opt.step()` was not called.
 *
 * @param model the model adapter (e.g. `charLmSetup(...).model`)
 * @param init initial fp32 weights, not modified
 * @param nextBatch the batch of step i
 * @param scaler any object with torch.amp.GradScaler's methods (the course's `GradScaler`, or a student's)
 * @param steps number of iterations, integer >= 1
 * @param options optimizer, precision (default fp16), maxGradNorm
 * @returns `{records, weights}`: one record per iteration and the final fp32 weights
 * @throws {RangeError} `steps must be an integer >= 1, got 0`; `scaler.scale(1) must return a positive number, got NaN`; and whatever the scaler throws
 * @example
 * const s = charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8, tokensPerStep: 2 ** 22 });
 * trainWithGradScaler(s.model, s.init, s.batch, new GradScaler({ initScale: 2 ** 36, growthInterval: 10 }), 3, { optimizer: { kind: "adamw", lr: 1e-2 } }).records.map((r) => r.skipped);
 * // [true, true, false]: 2^36 and 2^35 overflow fp16, 2^34 does not
 * @see PyTorch "Automatic Mixed Precision examples" (typical loop; gradient clipping with unscale_); torch/amp/grad_scaler.py
 */
export function trainWithGradScaler<B>(model: AmpModel<B>, init: readonly Float32Array[], nextBatch: (step: number) => B, scaler: GradScalerLike, steps: number, options: TrainWithGradScalerOptions): { records: ScalerStepRecord[]; weights: Float32Array[] } {
  if (!(Number.isInteger(steps) && steps >= 1)) throw new RangeError(`steps must be an integer >= 1, got ${steps}`);
  const precision = options.precision ?? "fp16";
  let weights: Float32Array[] = init.map((w) => Float32Array.from(w));
  let optState = initOptimizerState(weights);
  const records: ScalerStepRecord[] = [];
  for (let i = 0; i < steps; i++) {
    const S = scaler.scale(1);
    if (!(typeof S === "number" && S > 0)) throw new RangeError(`scaler.scale(1) must return a positive number, got ${S}`);
    const { loss, grads } = model.lossAndGrads(weights.map((w) => castArray(precision, w)), nextBatch(i), { precision, lossScale: S });
    let stepped = false;
    const opt: ScalableOptimizer = {
      grads, // fp32 .grad, scaled by S; the scaler unscales them in place
      step() {
        const r = optimizerStep(weights, grads, optState, options.optimizer);
        weights = r.params as Float32Array[];
        optState = r.state;
        stepped = true;
      },
    };
    if (options.maxGradNorm !== undefined) {
      scaler.unscale_(opt);
      if (grads.every((g) => g.every(Number.isFinite))) {
        const c = clipGradNorm(grads, options.maxGradNorm);
        grads.forEach((g, k) => g.set(c.grads[k]!));
      }
    }
    scaler.step(opt);
    scaler.update();
    records.push({ step: i, loss, lossScale: S, skipped: !stepped });
  }
  return { records, weights };
}
