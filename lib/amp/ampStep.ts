/**
 * One iteration of mixed-precision training, as a pure function: the loop of
 * Micikevicius et al. 2017 (and of the notes) with PyTorch's GradScaler rules.
 */
import { castArray, type TrainPrecision } from "./castArray.js";
import { GRAD_SCALER_DEFAULTS, updateScale, validateScaleUpdateOptions, type ScaleUpdateOptions } from "./updateScale.js";
import { unscaleGrads } from "./unscaleGrads.js";
import { clipGradNorm } from "./clipGradNorm.js";
import { initOptimizerState, optimizerStep, type OptimizerConfig, type OptimizerState } from "../nn/optimizerStep.js";

/** What the AMP step needs from a model: loss and gradients of S·loss in a precision. */
export interface AmpModel<B> {
  /**
   * @param weights the compute copy of the weights (already cast to `precision`)
   * @returns the mean loss (fp32, unscaled) and the gradients of lossScale·loss, each rounded to `precision`
   */
  lossAndGrads(weights: readonly Float32Array[], batch: B, options: { precision: TrainPrecision; lossScale: number }): { loss: number; grads: Float32Array[] };
}

/** How one AMP run is configured. */
export interface AmpConfig {
  /** Precision of the forward/backward copy ("fp32" = plain fp32 training). */
  precision: TrainPrecision;
  /** "none": S = 1 and no inf check; "dynamic": GradScaler; a number: static scale S (with inf check and skip). */
  lossScaling: "none" | "dynamic" | number;
  /** GradScaler options for "dynamic" (PyTorch defaults otherwise). */
  scaler?: Partial<ScaleUpdateOptions> & { initScale?: number };
  /** Keep fp32 master weights (default true). false: the weights themselves live in `precision`, so each update is rounded. */
  masterWeights?: boolean;
  /** lib/nn's AdamW or SGD (pure step, fp32 arithmetic as PyTorch), e.g. `{kind: "adamw", lr: 1e-2}`. */
  optimizer: OptimizerConfig;
  /** Clip the unscaled gradients to this global norm (after unscale, as torch's recipe). */
  maxGradNorm?: number;
}

/** The training state carried from step to step. */
export interface AmpState {
  step: number;
  /** fp32 master weights (or the low-precision weights when masterWeights is false). */
  master: Float32Array[];
  opt: OptimizerState;
  /** Current loss scale and GradScaler growth tracker. */
  scale: number;
  growthTracker: number;
}

/** One event of the step's trace, for the page's step-by-step view. */
export interface AmpEvent {
  /** Order within the step. */
  t: number;
  kind: "cast-weights" | "forward-backward" | "unscale" | "check-inf" | "clip" | "skip" | "optimizer-step" | "round-weights" | "update-scale";
  detail: string;
}

/** What happened in one step. */
export interface AmpStepRecord {
  step: number;
  loss: number;
  /** The loss scale used in this step's backward. */
  lossScale: number;
  foundInf: boolean;
  skipped: boolean;
  /** Global norm of the unscaled fp32 gradients (NaN when they are not finite). */
  gradNorm: number;
  /** Fraction of gradient elements that are exactly zero after unscaling. */
  zeroGradFraction: number;
  events: AmpEvent[];
}

/**
 * A fresh state: fp32 master weights copied from `init`, zero optimizer state,
 * the scaler's initial scale (2^16 by default; 1 for "none"; S for static S).
 * @param init initial weights (fp32), one array per parameter; copied, not modified
 * @param config precision, loss scaling (and scaler options), master-weights flag
 * @returns `{step: 0, master, opt, scale, growthTracker: 0}`
 * @throws {RangeError} `lossScaling must be "none", "dynamic" or a positive finite number, got -1`;
 *   the messages of {@link validateScaleUpdateOptions} (e.g. `growthFactor must be a finite number > 1, got 1`)
 * @example
 * initAmpState([Float32Array.of(1, 2)], { precision: "fp16", lossScaling: "dynamic", optimizer: { kind: "sgd", lr: 0.1 } }).scale; // 65536
 * @see PyTorch torch.amp.GradScaler docs (init_scale=2.**16); Micikevicius et al. 2017, Mixed Precision Training (fp32 master copy of weights)
 */
export function initAmpState(init: readonly Float32Array[], config: AmpConfig): AmpState {
  const master = init.map((w) => (config.masterWeights === false ? castArray(config.precision, w) : Float32Array.from(w)));
  let scale = 1;
  if (config.lossScaling === "dynamic") {
    const o = { ...GRAD_SCALER_DEFAULTS, ...config.scaler };
    validateScaleUpdateOptions(o);
    scale = Math.fround(o.initScale);
  } else if (typeof config.lossScaling === "number") {
    if (!(config.lossScaling > 0 && Number.isFinite(config.lossScaling))) throw new RangeError(`lossScaling must be "none", "dynamic" or a positive finite number, got ${config.lossScaling}`);
    scale = config.lossScaling;
  }
  return { step: 0, master, opt: initOptimizerState(master), scale, growthTracker: 0 };
}

/**
 * One AMP iteration: (1) cast the fp32 master weights to the compute
 * precision; (2) forward and backward on S·loss, every tensor in that
 * precision; (3) unscale the gradients into fp32 (×fp32(1/S)) and check for
 * inf/NaN; (4) skip the update if found, else clip (optional) and run the
 * optimizer on the fp32 master; (5) update S as GradScaler.update does.
 *
 * @param model the model adapter
 * @param state the current state (not modified)
 * @param batch this step's data
 * @param config precision, scaling, optimizer
 * @returns `{state, record}`
 * @throws {RangeError} the messages of {@link unscaleGrads}, {@link updateScale}, clipGradNorm and lib/nn's optimizerStep on bad inputs
 * @example
 * const s = charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8 });
 * const cfg = { precision: "fp16", lossScaling: "dynamic", optimizer: { kind: "adamw", lr: 1e-2 } } as const;
 * ampStep(s.model, initAmpState(s.init, cfg), s.batch(0), cfg).record.lossScale; // 65536
 * @see Micikevicius et al. 2017, "Mixed Precision Training", §3 and Figure 1; torch/amp/grad_scaler.py
 */
export function ampStep<B>(model: AmpModel<B>, state: AmpState, batch: B, config: AmpConfig): { state: AmpState; record: AmpStepRecord } {
  const events: AmpEvent[] = [];
  const ev = (kind: AmpEvent["kind"], detail: string) => events.push({ t: events.length, kind, detail });
  const S = state.scale;
  const weights = state.master.map((w) => castArray(config.precision, w));
  ev("cast-weights", `fp32 master → ${config.precision} copy (${weights.reduce((s, w) => s + w.length, 0)} values)`);
  const { loss, grads } = model.lossAndGrads(weights, batch, { precision: config.precision, lossScale: S });
  ev("forward-backward", `loss ${loss.toPrecision(5)}; backward of ${S}·loss in ${config.precision}`);
  const checks = config.lossScaling !== "none";
  const { grads: g32, foundInf: anyInf } = unscaleGrads(grads, S);
  const foundInf = checks && anyInf;
  ev("unscale", `gradients × fp32(1/${S}) into fp32`);
  if (checks) ev("check-inf", foundInf ? "inf/NaN found" : "all finite");
  let sq = 0, zeros = 0, count = 0;
  for (const g of g32) for (let i = 0; i < g.length; i++) { sq += g[i]! * g[i]!; zeros += g[i] === 0 ? 1 : 0; count++; }
  let gradNorm = Math.sqrt(sq);
  let master = state.master;
  let opt = state.opt;
  if (foundInf) {
    ev("skip", "optimizer step skipped; weights unchanged");
  } else {
    let useGrads = g32;
    if (config.maxGradNorm !== undefined && Number.isFinite(gradNorm)) {
      const c = clipGradNorm(g32, config.maxGradNorm);
      useGrads = c.grads;
      ev("clip", `norm ${gradNorm.toPrecision(4)} → coefficient ${c.clipCoef.toPrecision(4)}`);
    }
    const r = optimizerStep(state.master, useGrads, state.opt, config.optimizer);
    master = r.params;
    opt = r.state;
    ev("optimizer-step", `${config.optimizer.kind} on the ${config.masterWeights === false ? config.precision : "fp32 master"} weights`);
    if (config.masterWeights === false && config.precision !== "fp32") {
      master = master.map((w) => castArray(config.precision, w));
      ev("round-weights", `weights rounded back to ${config.precision}: small updates are lost`);
    }
  }
  let { scale, growthTracker } = state;
  if (config.lossScaling === "dynamic") {
    ({ scale, growthTracker } = updateScale(S, growthTracker, foundInf, { ...GRAD_SCALER_DEFAULTS, ...config.scaler }));
    ev("update-scale", `scale ${S} → ${scale} (growth tracker ${growthTracker})`);
  }
  if (!Number.isFinite(gradNorm)) gradNorm = NaN;
  return {
    state: { step: state.step + 1, master, opt, scale, growthTracker },
    record: { step: state.step, loss, lossScale: S, foundInf, skipped: foundInf, gradNorm, zeroGradFraction: count ? zeros / count : 0, events },
  };
}
