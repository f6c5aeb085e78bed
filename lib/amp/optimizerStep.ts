/**
 * SGD and AdamW updates as pure functions on fp32 master weights (the
 * formulas of torch.optim.SGD and torch.optim.AdamW), for the AMP step.
 */

/** SGD without momentum: w ← w − lr·g. */
export interface SgdConfig {
  kind: "sgd";
  lr: number;
}

/** AdamW with PyTorch's defaults: betas (0.9, 0.999), eps 1e-8, weight_decay 1e-2. */
export interface AdamWConfig {
  kind: "adamw";
  lr: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
  weightDecay?: number;
}

export type OptimizerConfig = SgdConfig | AdamWConfig;

/** Optimizer state: step count and AdamW's moments (one per parameter, fp32). */
export interface OptimizerState {
  t: number;
  m: Float32Array[];
  v: Float32Array[];
}

/** A zero state for parameters of these sizes. */
export function initOptimizerState(params: readonly Float32Array[]): OptimizerState {
  return { t: 0, m: params.map((p) => new Float32Array(p.length)), v: params.map((p) => new Float32Array(p.length)) };
}

/**
 * One optimizer step: returns new parameters and state; inputs unchanged.
 *
 * SGD: w ← w − lr·g. AdamW (torch.optim.AdamW): t ← t+1; w ← w·(1 − lr·λ);
 * m ← β1·m + (1−β1)·g; v ← β2·v + (1−β2)·g²;
 * w ← w − lr·(m/(1−β1^t)) / (sqrt(v/(1−β2^t)) + eps). All stored in float32.
 *
 * @param params fp32 master weights
 * @param grads fp32 gradients, same shapes
 * @param state from {@link initOptimizerState} or a previous step
 * @param config the optimizer and its hyper-parameters
 * @returns `{params, state}`
 * @throws {RangeError} `lr must be a positive finite number, got 0`
 * @example optimizerStep([Float32Array.of(1)], [Float32Array.of(0.5)], initOptimizerState([Float32Array.of(1)]), {kind: "sgd", lr: 0.1}).params // [Float32Array [0.95]]
 * @see https://pytorch.org/docs/stable/generated/torch.optim.AdamW.html (algorithm box)
 */
export function optimizerStep(params: readonly Float32Array[], grads: readonly Float32Array[], state: OptimizerState, config: OptimizerConfig): { params: Float32Array[]; state: OptimizerState } {
  if (!(config.lr > 0 && Number.isFinite(config.lr))) throw new RangeError(`lr must be a positive finite number, got ${config.lr}`);
  if (grads.length !== params.length) throw new RangeError(`grads must have one tensor per parameter (${params.length}), got ${grads.length}`);
  const t = state.t + 1;
  if (config.kind === "sgd") {
    return { params: params.map((p, i) => p.map((w, j) => w - config.lr * grads[i]![j]!)), state: { ...state, t } };
  }
  const b1 = config.beta1 ?? 0.9, b2 = config.beta2 ?? 0.999, eps = config.eps ?? 1e-8, wd = config.weightDecay ?? 1e-2;
  const bc1 = 1 - b1 ** t, bc2 = 1 - b2 ** t;
  const m = state.m.map((a) => a.slice());
  const v = state.v.map((a) => a.slice());
  const out = params.map((p, i) => {
    const w = p.slice();
    for (let j = 0; j < w.length; j++) {
      const g = grads[i]![j]!;
      w[j] = w[j]! * (1 - config.lr * wd);
      m[i]![j] = b1 * m[i]![j]! + (1 - b1) * g;
      v[i]![j] = b2 * v[i]![j]! + (1 - b2) * g * g;
      w[j] = w[j]! - (config.lr * (m[i]![j]! / bc1)) / (Math.sqrt(v[i]![j]! / bc2) + eps);
    }
    return w;
  });
  return { params: out, state: { t, m, v } };
}
