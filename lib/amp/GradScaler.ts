/**
 * PyTorch's `torch.amp.GradScaler`, with the same methods, defaults, state
 * machine and error messages, over Float32Array gradients.
 */
import { GRAD_SCALER_DEFAULTS, updateScale, validateScaleUpdateOptions, type ScaleUpdateOptions } from "./updateScale.js";
import { invScale } from "./unscaleGrads.js";

/** What GradScaler needs from an optimizer: its parameters' gradients (unscaled in place) and its step. */
export interface ScalableOptimizer {
  /** One gradient per parameter (fp32 master gradients), or null for a parameter without a gradient. */
  readonly grads: readonly (Float32Array | null)[];
  /** Updates the parameters from `grads`. */
  step(): void;
}

/** Options of {@link GradScaler}; every field optional, defaults as in PyTorch. */
export interface GradScalerOptions extends Partial<ScaleUpdateOptions> {
  /** Initial scale, default 2^16. */
  initScale?: number;
  /** false: `scale` returns the loss unchanged, `step` just steps, `unscale_`/`update` do nothing. Default true. */
  enabled?: boolean;
}

/** Per-optimizer stage within one iteration, as PyTorch's `OptState`. */
export type OptState = "READY" | "UNSCALED" | "STEPPED";

/** Result of {@link GradScaler.step}. */
export interface ScalerStepResult {
  /** Whether `optimizer.step()` ran. */
  stepped: boolean;
  /** Whether an inf/NaN was found in the optimizer's gradients this iteration. */
  foundInf: boolean;
}

/**
 * Dynamic loss scaling for mixed-precision training (PyTorch semantics).
 *
 * Per iteration: `scale(loss)` → backward on the scaled loss → optionally
 * `unscale_(opt)` (at most once, e.g. before clipping) → `step(opt)` (unscales
 * if not yet done; skips `opt.step()` when any gradient is inf/NaN) →
 * `update()` (backoff on inf/NaN, growth after `growthInterval` clean steps).
 * The scale is a float32 value, created lazily by the first `scale()`.
 *
 * @example
 * const s = new GradScaler({ growthInterval: 2 });
 * s.scale(0.5); // 32768
 * // ... backward fills opt.grads with scaled gradients ...
 * s.step(opt); s.update(); s.getScale(); // 65536 still (1 clean step of 2)
 * @see pytorch/pytorch torch/amp/grad_scaler.py; https://pytorch.org/docs/stable/amp.html#gradient-scaling
 */
export class GradScaler {
  readonly growthFactor: number;
  readonly backoffFactor: number;
  readonly growthInterval: number;
  private readonly enabled: boolean;
  private initScale: number;
  private scaleValue: number | null = null;
  private growthTracker: number | null = null;
  private initGrowthTracker = 0;
  private perOptimizer = new Map<ScalableOptimizer, { stage: OptState; foundInf: boolean | null }>();

  /**
   * @param options initScale (2^16), growthFactor (2), backoffFactor (0.5), growthInterval (2000), enabled (true)
   * @throws {RangeError} when enabled and an option is out of range, e.g. `growthFactor must be a finite number > 1, got 1`
   */
  constructor(options: GradScalerOptions = {}) {
    this.enabled = options.enabled ?? true;
    this.initScale = options.initScale ?? GRAD_SCALER_DEFAULTS.initScale;
    this.growthFactor = options.growthFactor ?? GRAD_SCALER_DEFAULTS.growthFactor;
    this.backoffFactor = options.backoffFactor ?? GRAD_SCALER_DEFAULTS.backoffFactor;
    this.growthInterval = options.growthInterval ?? GRAD_SCALER_DEFAULTS.growthInterval;
    if (this.enabled) {
      validateScaleUpdateOptions(this);
      if (!(this.initScale > 0 && Number.isFinite(this.initScale))) throw new RangeError(`initScale must be a positive finite number, got ${this.initScale}`);
    }
  }

  private state(opt: ScalableOptimizer) {
    let s = this.perOptimizer.get(opt);
    if (!s) this.perOptimizer.set(opt, (s = { stage: "READY", foundInf: null }));
    return s;
  }

  private check(funcname: string): number {
    if (this.scaleValue === null || this.growthTracker === null) {
      throw new Error(`Attempted ${funcname} but _scale is None.  This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration.`);
    }
    return this.scaleValue;
  }

  /**
   * Multiplies the loss by the current scale (float32). Returns it unchanged when disabled.
   * A NaN or infinite loss is not an error here (as in PyTorch): it makes the
   * gradients non-finite, so `step` skips and `update` backs off.
   */
  scale(loss: number): number {
    if (!this.enabled) return loss;
    if (this.scaleValue === null) {
      this.scaleValue = Math.fround(this.initScale);
      this.growthTracker = this.initGrowthTracker;
    }
    return Math.fround(loss * this.scaleValue);
  }

  /**
   * Divides the optimizer's gradients by the scale, in place, and records
   * whether any was inf/NaN. Call it at most once per optimizer per iteration.
   * @throws {Error} `unscale_() has already been called on this optimizer since the last update().`
   * @throws {Error} `unscale_() is being called after step().`
   * @throws {Error} `Attempted unscale_ but _scale is None.  This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration.`
   */
  unscale_(optimizer: ScalableOptimizer): void {
    if (!this.enabled) return;
    const scale = this.check("unscale_");
    const st = this.state(optimizer);
    if (st.stage === "UNSCALED") throw new Error("unscale_() has already been called on this optimizer since the last update().");
    if (st.stage === "STEPPED") throw new Error("unscale_() is being called after step().");
    const inv = invScale(scale);
    let foundInf = false;
    let any = false;
    for (const g of optimizer.grads) {
      if (!g) continue;
      any = true;
      for (let i = 0; i < g.length; i++) {
        if (!Number.isFinite(g[i]!)) foundInf = true;
        if (inv !== 1) g[i] = g[i]! * inv;
      }
    }
    st.foundInf = any ? foundInf : null;
    st.stage = "UNSCALED";
  }

  /**
   * Unscales (unless `unscale_` was called) and runs `optimizer.step()` only
   * when no gradient is inf/NaN.
   * @throws {Error} `step() has already been called since the last update().`
   * @throws {Error} `No inf checks were recorded for this optimizer.` (no parameter has a gradient)
   * @throws {Error} `Attempted step but _scale is None.  This may indicate …` (no `scale()` call yet)
   */
  step(optimizer: ScalableOptimizer): ScalerStepResult {
    if (!this.enabled) {
      optimizer.step();
      return { stepped: true, foundInf: false };
    }
    this.check("step");
    const st = this.state(optimizer);
    if (st.stage === "STEPPED") throw new Error("step() has already been called since the last update().");
    if (st.stage === "READY") this.unscale_(optimizer);
    if (st.foundInf === null) throw new Error("No inf checks were recorded for this optimizer.");
    const foundInf = st.foundInf;
    if (!foundInf) optimizer.step();
    st.stage = "STEPPED";
    return { stepped: !foundInf, foundInf };
  }

  /**
   * Updates the scale from this iteration's inf checks (backoff or growth, see
   * `updateScale`), or sets it to `newScale` (the growth tracker is kept).
   * Then forgets the per-optimizer states for the next iteration.
   * @throws {Error} `No inf checks were recorded prior to update.`
   * @throws {RangeError} `newScale must be a positive finite number, got -1`
   * @throws {Error} `Attempted update but _scale is None.  This may indicate …` (no `scale()` call yet)
   */
  update(newScale?: number): void {
    if (!this.enabled) return;
    const scale = this.check("update");
    if (newScale !== undefined) {
      if (!(typeof newScale === "number" && newScale > 0 && Number.isFinite(newScale))) throw new RangeError(`newScale must be a positive finite number, got ${newScale}`);
      this.scaleValue = Math.fround(newScale);
    } else {
      const found = [...this.perOptimizer.values()].filter((s) => s.foundInf !== null).map((s) => s.foundInf);
      if (found.length === 0) throw new Error("No inf checks were recorded prior to update.");
      const next = updateScale(scale, this.growthTracker!, found.some(Boolean), this);
      this.scaleValue = next.scale;
      this.growthTracker = next.growthTracker;
    }
    this.perOptimizer = new Map();
  }

  /** The current scale; the initial scale before the first `scale()`; 1.0 when disabled. */
  getScale(): number {
    if (!this.enabled) return 1.0;
    return this.scaleValue ?? this.initScale;
  }

  /** Consecutive unskipped steps since the last growth or backoff (PyTorch's `_growth_tracker`). */
  getGrowthTracker(): number {
    if (!this.enabled) return 0;
    return this.growthTracker ?? this.initGrowthTracker;
  }

  /** This optimizer's stage in the current iteration. */
  stageOf(optimizer: ScalableOptimizer): OptState {
    return this.perOptimizer.get(optimizer)?.stage ?? "READY";
  }

  isEnabled(): boolean {
    return this.enabled;
  }

  /** `{scale, growthFactor, backoffFactor, growthInterval, _growth_tracker}` as PyTorch's `state_dict()`; `{}` when disabled. */
  stateDict(): Record<string, number> {
    if (!this.enabled) return {};
    return { scale: this.getScale(), growth_factor: this.growthFactor, backoff_factor: this.backoffFactor, growth_interval: this.growthInterval, _growth_tracker: this.getGrowthTracker() };
  }

  /**
   * Restores the scale and growth tracker saved by {@link stateDict}.
   * @throws {Error} `The source state dict is empty, possibly because it was saved from a disabled instance of GradScaler.`
   */
  loadStateDict(sd: Record<string, number>): void {
    if (!this.enabled) return;
    if (Object.keys(sd).length === 0) throw new Error("The source state dict is empty, possibly because it was saved from a disabled instance of GradScaler.");
    this.initScale = sd.scale!;
    if (this.scaleValue !== null) this.scaleValue = Math.fround(sd.scale!);
    this.initGrowthTracker = sd._growth_tracker!;
    if (this.growthTracker !== null) this.growthTracker = sd._growth_tracker!;
  }
}
