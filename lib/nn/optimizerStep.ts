/**
 * The course's AdamW and SGD as one pure step function on plain arrays: what
 * a training loop that keeps its own state (the AMP step of chapter 4) calls.
 */
import { AdamW, type AdamWOptions } from "./AdamW.js";
import { SGD, type SGDOptions } from "./SGD.js";
import type { Param } from "./types.js";

/** SGD (torch.optim.SGD) and its hyperparameters. */
export type SgdConfig = { kind: "sgd" } & SGDOptions;
/** AdamW (torch.optim.AdamW) and its hyperparameters. */
export type AdamWConfig = { kind: "adamw" } & AdamWOptions;
/** Which optimizer, with PyTorch's names and defaults for what is left out. */
export type OptimizerConfig = SgdConfig | AdamWConfig;

/**
 * Optimizer state: steps taken t, AdamW's first and second moments m, v
 * (SGD: m is the momentum buffer, v unused), one fp32 array per parameter.
 */
export interface OptimizerState {
  t: number;
  m: Float32Array[];
  v: Float32Array[];
}

/**
 * A zero state (t = 0, zero moments) for parameters of these sizes.
 *
 * @param params the parameter arrays
 * @returns `{t: 0, m, v}` with zero arrays of the same lengths
 * @example
 * initOptimizerState([new Float32Array(3)]).m[0].length; // 3
 * @see PyTorch torch.optim.AdamW docs (m₀ = 0, v₀ = 0); PyTorch torch.optim.SGD docs (momentum buffer);
 *   Loshchilov & Hutter 2019, Decoupled Weight Decay Regularization
 */
export function initOptimizerState(params: readonly Float32Array[]): OptimizerState {
  return { t: 0, m: params.map((p) => new Float32Array(p.length)), v: params.map((p) => new Float32Array(p.length)) };
}

/**
 * One step of lib/nn's {@link AdamW} or {@link SGD} as a pure function: the
 * same float32 arithmetic as `opt.step()` (each op rounded to fp32, as
 * PyTorch does), on copies; the inputs are not modified.
 *
 * AdamW: θ ← θ·(1 − lr·λ); m ← β1·m + (1 − β1)·g; v ← β2·v + (1 − β2)·g²;
 * θ ← θ − (lr / (1 − β1^t))·m / (√v / √(1 − β2^t) + ε). SGD: θ ← θ − lr·g
 * (with momentum: the buffer b of torch.optim.SGD, kept in `m`).
 *
 * @param params fp32 weights, one array per parameter
 * @param grads fp32 gradients, same lengths
 * @param state from {@link initOptimizerState} or a previous step
 * @param config `{kind: "sgd" | "adamw", lr, …}` (PyTorch defaults for the rest)
 * @returns `{params, state}`: new arrays
 * @throws {RangeError} `lr must be a positive finite number, got 0`;
 *   `grads must have one tensor per parameter (2), got 1`; `grads[0] must have 3 elements, got 2`;
 *   and the optimizers' own hyperparameter messages
 * @example
 * optimizerStep([Float32Array.of(1)], [Float32Array.of(0.5)], initOptimizerState([Float32Array.of(1)]), { kind: "sgd", lr: 0.1 }).params;
 * // [Float32Array [0.95]]
 * @see https://pytorch.org/docs/stable/generated/torch.optim.AdamW.html; https://pytorch.org/docs/stable/generated/torch.optim.SGD.html
 */
export function optimizerStep(params: readonly Float32Array[], grads: readonly Float32Array[], state: OptimizerState, config: OptimizerConfig): { params: Float32Array[]; state: OptimizerState } {
  if (!(config.lr !== undefined && config.lr > 0 && Number.isFinite(config.lr))) throw new RangeError(`lr must be a positive finite number, got ${config.lr}`);
  if (grads.length !== params.length) throw new RangeError(`grads must have one tensor per parameter (${params.length}), got ${grads.length}`);
  const ps: Param[] = params.map((p, i) => {
    if (grads[i].length !== p.length) throw new RangeError(`grads[${i}] must have ${p.length} elements, got ${grads[i].length}`);
    return { name: `p${i}`, shape: [p.length], data: p.slice(), grad: grads[i] };
  });
  const m = state.m.map((a) => a.slice()), v = state.v.map((a) => a.slice());
  if (config.kind === "adamw") {
    const { kind: _, ...o } = config;
    const opt = new AdamW(ps, o);
    opt.stepCount = state.t;
    m.forEach((a, i) => opt.expAvg[i].set(a));
    v.forEach((a, i) => opt.expAvgSq[i].set(a));
    opt.step();
    return { params: ps.map((p) => p.data), state: { t: opt.stepCount, m: opt.expAvg.slice(), v: opt.expAvgSq.slice() } };
  }
  const { kind: _, ...o } = config;
  const opt = new SGD(ps, o);
  if (state.t > 0 && opt.momentum !== 0) m.forEach((a, i) => { opt.momentumBuffer[i] = a; }); // torch: no buffer before the first step
  opt.step();
  return { params: ps.map((p) => p.data), state: { t: state.t + 1, m: opt.momentumBuffer.map((b, i) => b ?? m[i]), v } };
}
