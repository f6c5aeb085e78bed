/**
 * Training lib/nn's character model with AdamW (lib/nn), Lion, SophiaG (GNB
 * estimator, the schedule of train_sophiag.py) or SophiaH (Hutchinson, same step), same model seed, same batches, same step count: the
 * measurement of the chapter.
 */
import { AdamW, corpus, createModel, forward, backward, sampleBatch, mulberry32, DEFAULT_MODEL, type Model, type ModelConfig } from "../nn/index.js";
import { SophiaG, isHessianStep, validateSophiaG } from "./sophiag.js";
import { Lion } from "./lion.js";
import { gnbGradients, hutchinson, modelHvp, rademacher } from "./estimators.js";
import { clipGradNorm } from "./clipGradNorm.js";

/** Which optimizer. */
export type OptimizerName = "adamw" | "lion" | "sophiag" | "sophiah";

/** Options of {@link trainCompare}. */
export interface TrainCompareOptions {
  optimizer: OptimizerName;
  /** Peak learning rate, > 0 (constant after a linear warm-up of `warmup` steps). */
  lr: number;
  /** Optimizer steps, integer >= 1. */
  steps: number;
  /** Seed of the batches and of the estimators' randomness (the model seed is DEFAULT_MODEL's + this). */
  seed?: number;
  /** Hessian interval k (Sophia only, default 10 as the GPT-2 configs), integer >= 1. */
  k?: number;
  /** ρ (Sophia only, default 0.05 as the GPT-2 small config). */
  rho?: number;
  /** Decoupled weight decay (default 0.1 for every optimizer, so that they differ only in the update). */
  weightDecay?: number;
  /** Warm-up steps (default 0). */
  warmup?: number;
  /** Sequences per step (default 8) and positions per sequence (default 16). */
  batchSize?: number;
  seqLen?: number;
  /**
   * Global gradient-norm clipping before every optimizer step, for every optimizer, and before
   * SophiaG's `updateHessian` (default 1.0, as `grad_clip` in both training scripts of the Sophia
   * repository; 0 disables it, as there). SophiaH's Hutchinson estimate is not a gradient and is not clipped.
   */
  gradClip?: number;
  /** Model sizes (default DEFAULT_MODEL). */
  model?: Partial<Omit<ModelConfig, "vocabSize">>;
  /** Sophia only: the step's denominator, "code" (ρ·bs·h + ε, `sophia.py`, default) or "paper" (max{ρ·bs·h, ε}, Algorithm 3). */
  denominator?: "code" | "paper";
}

/** What {@link trainCompare} returns. */
export interface TrainCompareResult {
  /** Mean training loss (nats/char) at each step, before the update. */
  losses: number[];
  /** Forward+backward passes spent, cumulative after each step (SophiaG: +1 every k steps, the GNB pass on a fresh batch; SophiaH: +2, the finite-difference Hvp). */
  passes: number[];
  /** Fraction of clipped coordinates at each step (Sophia only; empty otherwise). */
  clipFraction: number[];
  /** The trained model. */
  model: Model;
  /** SophiaH: fraction of negative entries of h after each refresh (empty otherwise). */
  negativeFraction: number[];
  /** The 0-based step at which training stopped on a non-finite loss or gradient, or null. */
  divergedAt: number | null;
  /** Wall-clock milliseconds since the start, after each step (the step, and the curvature estimate when one follows it). */
  ms: number[];
  /** Whether the gradient norm exceeded `gradClip` at each step (the script's `clip_time` counter); empty when clipping is off. */
  normClipped: boolean[];
}

/**
 * Trains one run.
 *
 * @param o optimizer, lr, steps, seed, Sophia's k and ρ
 * @returns losses per step, cumulative passes, clip fractions, the model
 * @throws {RangeError} `lr must be a finite number > 0, got 0`; `gradClip must be a finite number >= 0, got -1`; `steps must be an integer >= 1, got 0`;
 *   `k must be an integer >= 1, got 0`; `rho must be a finite number > 0, got 0`; `optimizer must be one of adamw, lion, sophiag, sophiah, got sgd`
 * @example
 * trainCompare({ optimizer: "sophiag", lr: 3e-3, steps: 200 }).losses.at(-1); // below the first loss (trainCompare.test.ts)
 * @see Liuhong99/Sophia train_sophiag.py (the step/Hessian schedule); lib/nn train.ts (the loop)
 */
export function trainCompare(o: TrainCompareOptions): TrainCompareResult {
  if (!["adamw", "lion", "sophiag", "sophiah"].includes(o.optimizer)) throw new RangeError(`optimizer must be one of adamw, lion, sophiag, sophiah, got ${o.optimizer}`);
  if (!(Number.isFinite(o.lr) && o.lr > 0)) throw new RangeError(`lr must be a finite number > 0, got ${o.lr}`);
  if (!(Number.isInteger(o.steps) && o.steps >= 1)) throw new RangeError(`steps must be an integer >= 1, got ${o.steps}`);
  const k = o.k ?? 10;
  if (!(Number.isInteger(k) && k >= 1)) throw new RangeError(`k must be an integer >= 1, got ${k}`);
  const seed = o.seed ?? 0, wd = o.weightDecay ?? 0.1, warm = o.warmup ?? 0, gradClip = o.gradClip ?? 1;
  if (!(Number.isFinite(gradClip) && gradClip >= 0)) throw new RangeError(`gradClip must be a finite number >= 0, got ${gradClip}`);
  const { vocab, tokens } = corpus();
  const cfg = { ...DEFAULT_MODEL, ...o.model, vocabSize: vocab.size };
  const model = createModel({ ...cfg, seed: cfg.seed + seed });
  const dataRng = mulberry32(1000 + seed), estRng = mulberry32(2000 + seed);
  const sample = () => sampleBatch(tokens, { batchSize: o.batchSize ?? 8, seqLen: o.seqLen ?? 16, contextLength: cfg.contextLength }, dataRng);
  const name = o.optimizer;
  const sophia = name === "sophiag" || name === "sophiah";
  if (sophia) validateSophiaG({ rho: o.rho ?? 0.05 });
  const opt = name === "adamw" ? new AdamW(model.params, { lr: o.lr, weightDecay: wd })
    : name === "lion" ? new Lion(model.params, { lr: o.lr, weightDecay: wd })
    : new SophiaG(model.params, { lr: o.lr, rho: o.rho ?? 0.05, weightDecay: wd, denominator: o.denominator });
  const losses: number[] = [], passes: number[] = [], clipFraction: number[] = [];
  const nParams = model.params.reduce((a, p) => a + p.data.length, 0);
  let spent = 0;
  const negativeFraction: number[] = [];
  let divergedAt: number | null = null;
  const ms: number[] = [], normClipped: boolean[] = [];
  const t0 = performance.now();
  for (let s = 0; s < o.steps; s++) {
    opt.lr = o.lr * (warm > 0 ? Math.min(1, (s + 1) / warm) : 1);
    const batch = sample();
    opt.zeroGrad();
    const f = forward(model, batch);
    if (!Number.isFinite(f.loss)) { divergedAt = s; break; }
    backward(model, f);
    spent += 1;
    try {
      if (gradClip > 0) normClipped.push(clipGradNorm(model.params, gradClip) > gradClip);
      if (opt instanceof SophiaG) { opt.step(f.tokenCount); clipFraction.push(opt.lastClipped / nParams); } else opt.step();
    } catch (e) {
      if (e instanceof RangeError && /must be finite/.test(e.message)) { divergedAt = s; break; }
      throw e;
    }
    losses.push(f.loss);
    if (sophia && isHessianStep(s, k)) {
      const hb = sample();
      const so = opt as SophiaG;
      if (name === "sophiag") {
        gnbGradients(model, hb, estRng);
        if (gradClip > 0) clipGradNorm(model.params, gradClip); // train_sophiag.py clips ĝ too, before update_hessian
        so.updateHessian();
        spent += 1;
      }
      else {
        // SophiaH: ĥ = u⊙(Hu) estimates diag(H) of the mean loss itself; GNB's stored ĝ⊙ĝ is ≈ diag(H)/bs
        // (the step multiplies by bs), so ĥ/bs enters the same EMA and ρ means the same for both.
        // With the code's step (ρ·bs·h + ε, no max) negative h gives uphill steps; `denominator: "paper"` clips them instead.
        const u = rademacher(nParams, estRng);
        const est = hutchinson(u, modelHvp(model, hb, u, 1e-2));
        const bs = hb.rows, b2 = so.betas[1];
        let q = 0, neg = 0;
        so.params.forEach((_, j) => { const h = so.hessian[j]!; for (let i = 0; i < h.length; i++) { h[i] = b2 * h[i]! + (1 - b2) * est[q++]! / bs; if (h[i]! < 0) neg++; } });
        negativeFraction.push(neg / nParams);
        spent += 2;
      }
    }
    passes.push(spent);
    ms.push(performance.now() - t0);
  }
  return { losses, passes, clipFraction, model, negativeFraction, divergedAt, ms, normClipped };
}
