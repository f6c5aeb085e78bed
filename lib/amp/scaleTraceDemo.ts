/**
 * The settings of the amp page's loss-scale trace: the live model trained in
 * fp16 under GradScaler rules, from a deliberately too-large initial scale.
 * The page's sliders start here, and the build computes this run once
 * (src/data/amp-precomputed.json.ts), so the page shows it without training on open.
 */
import type { AmpConfig } from "./ampStep.js";

/** The page's loss-scale trace, default settings. */
export interface ScaleTraceSettings {
  /** log₂ of GradScaler's init_scale. */
  log2InitScale: number;
  /** GradScaler's growth_interval, integer >= 1. */
  growthInterval: number;
  /** GradScaler's backoff_factor, in (0, 1). */
  backoffFactor: number;
}

/**
 * Defaults of the trace: init_scale 2^36 (far above what fp16 gradients
 * allow, so the first steps calibrate), growth_interval 10 (short, so the
 * growth probes are visible in 200 steps), backoff 0.5 (PyTorch's default);
 * 200 steps of AdamW (lr 1e-2) with N = 2^22 tokens per step (Llama 2's batch).
 *
 * @example SCALE_TRACE_DEMO.steps // 200
 * @see PyTorch torch.amp.GradScaler docs (init_scale, growth_interval, backoff_factor); Touvron et al. 2023, Llama 2, §2.2 (4M-token batches)
 */
export const SCALE_TRACE_DEMO = Object.freeze({
  steps: 200,
  tokensPerStep: 2 ** 22,
  optimizer: Object.freeze({ kind: "adamw", lr: 1e-2 } as const),
  settings: Object.freeze({ log2InitScale: 36, growthInterval: 10, backoffFactor: 0.5 } as ScaleTraceSettings),
});

/**
 * The AmpConfig of the trace for these settings (fp16, dynamic scaling, AdamW).
 * @param s log₂ init_scale, growth_interval, backoff_factor
 * @returns the config that {@link trainAmp} / {@link ampSteps} take
 * @throws nothing itself; {@link initAmpState} rejects bad options (e.g. `growthInterval must be an integer >= 1, got 0`)
 * @example scaleTraceConfig(SCALE_TRACE_DEMO.settings).scaler // {initScale: 68719476736, growthInterval: 10, backoffFactor: 0.5}
 * @see PyTorch torch.amp.GradScaler
 */
export function scaleTraceConfig(s: ScaleTraceSettings): AmpConfig {
  return {
    precision: "fp16",
    lossScaling: "dynamic",
    scaler: { initScale: 2 ** s.log2InitScale, growthInterval: s.growthInterval, backoffFactor: s.backoffFactor },
    optimizer: { ...SCALE_TRACE_DEMO.optimizer },
  };
}
