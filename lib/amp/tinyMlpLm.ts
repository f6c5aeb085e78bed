/**
 * A tiny language model with a hand-written backward pass in a simulated
 * precision: embeddings of the two previous symbols → ReLU MLP → softmax
 * cross-entropy. Small enough to train hundreds of steps per second in
 * Node, big enough to show fp16 underflow and overflow.
 */
import { caster, type TrainPrecision } from "./castArray.js";
import type { Batch } from "./markovText.js";
import { gaussian, type Rng } from "../random.js";

/** Sizes of a {@link TinyMlpLm}. */
export interface TinyMlpLmConfig {
  vocabSize: number;
  /** Embedding width d; the MLP input is 2d. */
  embedDim: number;
  /** Hidden width h. */
  hidden: number;
}

/** Parameter names, in the order of the parameter and gradient arrays. */
export const PARAM_NAMES = ["wte", "w1", "b1", "w2", "b2"] as const;

/** Options of one forward/backward. */
export interface ForwardBackwardOptions {
  /** Precision of weights, activations and gradients; the loss is computed in fp32 as autocast does. */
  precision: TrainPrecision;
  /** The loss scale S: backward starts from S·∂loss/∂logits. Default 1. */
  lossScale?: number;
  /**
   * N, the token count the gradient is normalised by (default B): backward
   * differentiates S·Σ_b CE_b / N. Set N > B to stand for one micro-batch of
   * a step over N tokens (gradient accumulation divides each micro-batch's
   * loss so), which makes per-token gradients as small as in large runs.
   */
  tokensPerStep?: number;
  /** No rounding at all (float64): only for gradient checks. */
  exact?: boolean;
}

/** Result of {@link TinyMlpLm.forwardBackward}. */
export interface ForwardBackwardResult {
  /** Mean cross-entropy (nats), unscaled, fp32. */
  loss: number;
  /** Gradients of S·loss, in the order of PARAM_NAMES, each rounded to the precision (may hold ±Infinity/NaN on overflow). */
  grads: Float32Array[];
  /** Gradient of S·loss w.r.t. the hidden pre-activations, (B, h): an activation gradient, for the exponent histogram. */
  activationGrad: Float32Array;
}

/**
 * Initialises parameters (seeded): wte ~ N(0, 1), w1 ~ N(0, 1/2d), w2 ~ N(0, 0.02²) as GPT-2's output layers, biases 0.
 * @returns Float32Arrays in the order of {@link PARAM_NAMES}: wte (V, d), w1 (2d, h), b1 (h), w2 (h, V), b2 (V)
 */
export function initTinyMlpLm(cfg: TinyMlpLmConfig, rng: Rng): Float32Array[] {
  const { vocabSize: V, embedDim: d, hidden: h } = cfg;
  for (const [k, v] of Object.entries(cfg)) if (!(Number.isInteger(v) && v >= 1)) throw new RangeError(`${k} must be an integer >= 1, got ${v}`);
  const normal = (n: number, std: number) => Float32Array.from({ length: n }, () => gaussian(rng) * std);
  return [normal(V * d, 1), normal(2 * d * h, 1 / Math.sqrt(2 * d)), new Float32Array(h), normal(h * V, 0.02), new Float32Array(V)];
}

/**
 * Forward and backward of the tiny LM on one batch, every tensor rounded to
 * `precision` (matmuls accumulate in float64 and round once, like fp32
 * accumulation), the softmax cross-entropy and its gradient in fp32.
 *
 * loss = mean_b −log softmax(logits_b)[target_b]; backward starts from
 * S·(softmax − onehot)/N rounded to `precision`, so small gradients underflow
 * when S is 1 and large ones overflow when S is too big.
 *
 * @param cfg model sizes
 * @param params weights in the order of {@link PARAM_NAMES} (already cast to the compute precision by the caller)
 * @param batch context (B, 2) and target (B)
 * @param options precision, lossScale, exact
 * @returns {@link ForwardBackwardResult}
 * @throws {RangeError} `params[1] (w1) must have 2d·h = 2048 elements, got 10`
 */
export function forwardBackward(cfg: TinyMlpLmConfig, params: readonly Float32Array[], batch: Batch, options: ForwardBackwardOptions): ForwardBackwardResult {
  const { vocabSize: V, embedDim: d, hidden: h } = cfg;
  const D = 2 * d;
  const B = batch.target.length;
  const sizes = [V * d, D * h, h, h * V, V];
  sizes.forEach((n, i) => { if (params[i]?.length !== n) throw new RangeError(`params[${i}] (${PARAM_NAMES[i]}) must have ${n} elements, got ${params[i]?.length}`); });
  const S = options.lossScale ?? 1;
  const N = options.tokensPerStep ?? B;
  if (!(N >= B && Number.isFinite(N))) throw new RangeError(`tokensPerStep must be a finite number >= the batch size ${B}, got ${N}`);
  const c = options.exact ? (x: number) => x : caster(options.precision);
  const [wte, w1, b1, w2, b2] = params as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
  const F = options.exact ? Float64Array : Float32Array;
  // forward
  const x = new F(B * D); // (B, 2d)
  for (let b = 0; b < B; b++) for (let j = 0; j < 2; j++) for (let q = 0; q < d; q++) x[b * D + j * d + q] = wte[batch.context[2 * b + j]! * d + q]!;
  const z1 = new F(B * h); // (B, h)
  for (let b = 0; b < B; b++) for (let o = 0; o < h; o++) {
    let s = b1[o]!;
    for (let i = 0; i < D; i++) s += x[b * D + i]! * w1[i * h + o]!;
    z1[b * h + o] = c(s);
  }
  const logits = new F(B * V); // (B, V)
  for (let b = 0; b < B; b++) for (let v = 0; v < V; v++) {
    let s = b2[v]!;
    for (let o = 0; o < h; o++) s += Math.max(0, z1[b * h + o]!) * w2[o * V + v]!;
    logits[b * V + v] = c(s);
  }
  // loss and dlogits in fp32 (autocast runs softmax/cross-entropy in fp32)
  let loss = 0;
  const dlogits = new F(B * V); // (B, V), scaled
  for (let b = 0; b < B; b++) {
    let mx = -Infinity;
    for (let v = 0; v < V; v++) mx = Math.max(mx, logits[b * V + v]!);
    let z = 0;
    for (let v = 0; v < V; v++) z += Math.exp(logits[b * V + v]! - mx);
    const t = batch.target[b]!;
    loss += -(logits[b * V + t]! - mx - Math.log(z)) / B;
    for (let v = 0; v < V; v++) dlogits[b * V + v] = c((S * (Math.exp(logits[b * V + v]! - mx) / z - (v === t ? 1 : 0))) / N);
  }
  // backward
  const gw2 = new F(h * V), gb2 = new F(V), gw1 = new F(D * h), gb1 = new F(h), gwte = new F(V * d);
  const dz1 = new F(B * h); // (B, h)
  for (let b = 0; b < B; b++) for (let o = 0; o < h; o++) {
    if (z1[b * h + o]! <= 0) continue;
    let s = 0;
    for (let v = 0; v < V; v++) s += dlogits[b * V + v]! * w2[o * V + v]!;
    dz1[b * h + o] = c(s);
  }
  for (let o = 0; o < h; o++) for (let v = 0; v < V; v++) {
    let s = 0;
    for (let b = 0; b < B; b++) s += Math.max(0, z1[b * h + o]!) * dlogits[b * V + v]!;
    gw2[o * V + v] = c(s);
  }
  for (let v = 0; v < V; v++) { let s = 0; for (let b = 0; b < B; b++) s += dlogits[b * V + v]!; gb2[v] = c(s); }
  for (let i = 0; i < D; i++) for (let o = 0; o < h; o++) {
    let s = 0;
    for (let b = 0; b < B; b++) s += x[b * D + i]! * dz1[b * h + o]!;
    gw1[i * h + o] = c(s);
  }
  for (let o = 0; o < h; o++) { let s = 0; for (let b = 0; b < B; b++) s += dz1[b * h + o]!; gb1[o] = c(s); }
  const acc = new Float64Array(V * d); // dx scattered into embedding rows, accumulated then rounded once
  for (let b = 0; b < B; b++) for (let i = 0; i < D; i++) {
    let s = 0;
    for (let o = 0; o < h; o++) s += dz1[b * h + o]! * w1[i * h + o]!;
    const row = batch.context[2 * b + (i < d ? 0 : 1)]!;
    acc[row * d + (i % d)] += c(s); // dx (B, 2d) element, rounded like a stored tensor
  }
  for (let i = 0; i < V * d; i++) gwte[i] = c(acc[i]!);
  const toF32 = (a: Float32Array | Float64Array) => (a instanceof Float32Array ? a : Float32Array.from(a));
  return { loss: options.exact ? loss : Math.fround(loss), grads: [gwte, gw1, gb1, gw2, gb2].map(toF32), activationGrad: toF32(dz1) };
}
