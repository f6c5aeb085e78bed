/**
 * The two diagonal Hessian estimators of Sophia (Liu et al. 2023, §2.3):
 * Gauss-Newton-Bartlett (GNB) and Hutchinson, on plain functions and on lib/nn's model.
 */
import { forward, backward, zeroGrad, type Model, type Batch, type Rng, IGNORE_INDEX } from "../nn/index.js";

/**
 * Hutchinson's estimate of diag(H): u ⊙ (H u), unbiased when E[u uᵀ] = I (Rademacher or Gaussian u).
 *
 * @param u the probe (n)
 * @param hu the Hessian-vector product H u (n)
 * @returns a new array u ⊙ hu; entries can be negative (H indefinite, or noise)
 * @throws {RangeError} `hu must have 2 elements, got 1`
 * @example hutchinson([1, -1], [3, -2]); // [3, 2]
 * @see Hutchinson 1989, A stochastic estimator of the trace of the influence matrix; Liu et al. 2023, §2.3 (Option 1) and Algorithm 1
 */
export function hutchinson(u: ArrayLike<number>, hu: ArrayLike<number>): Float64Array {
  if (hu.length !== u.length) throw new RangeError(`hu must have ${u.length} elements, got ${hu.length}`);
  const out = new Float64Array(u.length);
  for (let i = 0; i < u.length; i++) out[i] = u[i] * hu[i];
  return out;
}

/**
 * A Rademacher vector (entries ±1 with probability ½ each).
 * @param n length; @param rng seeded uniform generator
 * @returns Float64Array of ±1
 * @example rademacher(3, mulberry32(0)); // e.g. [1, -1, 1]
 * @see Hutchinson 1989
 */
export function rademacher(n: number, rng: Rng): Float64Array {
  const u = new Float64Array(n);
  for (let i = 0; i < n; i++) u[i] = rng() < 0.5 ? -1 : 1;
  return u;
}

/**
 * Hessian-vector product by a central finite difference of gradients:
 * H u ≈ (∇L(θ + δu) − ∇L(θ − δu)) / (2δ). Exact (up to rounding) for a quadratic;
 * error O(δ²) from the third derivative plus O(ε_float / δ) rounding otherwise.
 *
 * @param grad the gradient function ∇L (returns a new array of n)
 * @param theta the point (n); @param u the direction (n); @param delta step δ > 0
 * @returns H u (n)
 * @throws {RangeError} `delta must be a finite number > 0, got 0`
 * @example fdHvp((x) => Float64Array.from(x, (v, i) => (i + 1) * v), [1, 1], [1, 1], 1e-3); // ≈ [1, 2]
 * @see Pearlmutter 1994, Fast Exact Multiplication by the Hessian (the finite-difference form it improves on)
 */
export function fdHvp(grad: (x: Float64Array) => ArrayLike<number>, theta: ArrayLike<number>, u: ArrayLike<number>, delta: number): Float64Array {
  if (!(Number.isFinite(delta) && delta > 0)) throw new RangeError(`delta must be a finite number > 0, got ${delta}`);
  const n = theta.length;
  const plus = Float64Array.from(theta, (t, i) => t + delta * u[i]!);
  const minus = Float64Array.from(theta, (t, i) => t - delta * u[i]!);
  const gp = grad(plus), gm = grad(minus);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = (gp[i]! - gm[i]!) / (2 * delta);
  return out;
}

/**
 * Samples one index from a discrete distribution (inverse CDF).
 * @param probs probabilities, summing to ≈ 1; @param offset start; @param V count; @param rng uniform generator
 * @returns an index in [0, V)
 * @example sampleIndex(Float32Array.of(0, 1), 0, 2, mulberry32(0)); // 1
 * @see PyTorch torch.distributions.Categorical.sample docs
 */
export function sampleIndex(probs: ArrayLike<number>, offset: number, V: number, rng: Rng): number {
  const r = rng();
  let c = 0;
  for (let v = 0; v < V; v++) { c += probs[offset + v]!; if (r < c) return v; }
  for (let v = V - 1; v >= 0; v--) if (probs[offset + v]! > 0) return v;
  return V - 1;
}

/**
 * GNB gradients on lib/nn's model: a forward pass, labels ŷ sampled from the model's own
 * softmax at every counted position, and the gradient of the MEAN loss on ŷ written into
 * `p.grad` (after zeroing it) — the ĝ that `update_hessian` squares. The estimate itself is
 * bs·ĝ⊙ĝ (Algorithm 3); the code stores ĝ⊙ĝ and multiplies by bs in the step.
 *
 * @param model lib/nn model (its `grad` arrays are overwritten)
 * @param batch contexts (its targets only decide which positions count: IGNORE_INDEX stays ignored)
 * @param rng sampler of the labels
 * @returns `{loss, tokenCount}`: the loss on the true targets (a free by-product) and the token count bs
 * @example
 * gnbGradients(model, batch, mulberry32(1)); opt.updateHessian();
 * @see Liuhong99/Sophia train_sophiag.py (Categorical(logits).sample(), cross_entropy, backward, update_hessian);
 *   Liu et al. 2023, Algorithm 2 (GNB) and §2.3 (Option 2)
 */
export function gnbGradients(model: Model, batch: Batch, rng: Rng): { loss: number; tokenCount: number } {
  const f = forward(model, batch);
  const V = model.config.vocabSize, N = batch.rows;
  const sampled = new Int32Array(N);
  for (let n = 0; n < N; n++) sampled[n] = batch.targets[n] === IGNORE_INDEX ? IGNORE_INDEX : sampleIndex(f.cache.probs, n * V, V, rng);
  zeroGrad(model.params);
  backward(model, { ...f, cache: { ...f.cache, targets: sampled } }, f.tokenCount > 0 ? 1 / f.tokenCount : 0);
  return { loss: f.loss, tokenCount: f.tokenCount };
}

/**
 * The gradient of the mean loss of lib/nn's model at its current weights, as one flat Float64Array.
 * @param model the model (grads are overwritten); @param batch the batch
 * @returns flat gradient in parameter order
 * @example modelGrad(model, batch).length === parameterCount(model.params)
 * @see lib/nn backward
 */
export function modelGrad(model: Model, batch: Batch): Float64Array {
  zeroGrad(model.params);
  backward(model, forward(model, batch));
  const n = model.params.reduce((a, p) => a + p.data.length, 0);
  const out = new Float64Array(n);
  let o = 0;
  for (const p of model.params) { out.set(p.grad, o); o += p.grad.length; }
  return out;
}

/**
 * Hessian-vector product of lib/nn's model by {@link fdHvp} (lib/nn has no second-order
 * autodiff). Restores the weights afterwards. Weights are float32: δ below ~1e-3 loses
 * digits to rounding (its error is measured in estimators.test.ts).
 *
 * @param model the model; @param batch the batch; @param u direction (flat, parameter order); @param delta δ (default 1e-3)
 * @returns H u (flat)
 * @example modelHvp(model, batch, rademacher(n, rng));
 * @see Pearlmutter 1994
 */
export function modelHvp(model: Model, batch: Batch, u: ArrayLike<number>, delta = 1e-3): Float64Array {
  const saved = model.params.map((p) => p.data.slice());
  const theta = new Float64Array(u.length);
  let o = 0;
  for (const p of model.params) { theta.set(p.data, o); o += p.data.length; }
  const grad = (x: Float64Array) => {
    let q = 0;
    for (const p of model.params) { for (let i = 0; i < p.data.length; i++) p.data[i] = x[q++]!; }
    return modelGrad(model, batch);
  };
  try { return fdHvp(grad, theta, u, delta); } finally { model.params.forEach((p, j) => p.data.set(saved[j]!)); }
}

/**
 * The GNB estimate for the simplest softmax model: one shared logit vector z (the parameters),
 * B positions all predicting p = softmax(z), labels ŷ_b sampled from p. The gradient of the mean
 * loss on the sampled labels is ĝ = (1/B)·Σ_b (p − e_{ŷ_b}); the estimate is B·ĝ⊙ĝ. Here the
 * Gauss-Newton matrix equals the Hessian diag(p) − ppᵀ, so E[B·ĝ⊙ĝ] = p ⊙ (1 − p) exactly.
 *
 * @param probs p (V entries, >= 0, summing to 1 within 1e-6)
 * @param labels the sampled ŷ_b (B >= 1 integers in [0, V))
 * @returns B·ĝ⊙ĝ (V entries, new array)
 * @throws {RangeError} `labels must hold at least one label`; `labels[1] must be an integer in [0, 3), got 3`;
 *   `probs must be >= 0 and sum to 1, got sum 0.5`
 * @example gnbLogitEstimate([0.5, 0.5], [0, 1]); // ĝ = [0, 0] → [0, 0]; gnbLogitEstimate([0.5, 0.5], [0]) → [0.25, 0.25]
 * @see Liu et al. 2023, Algorithm 2 (GNB) and §2.3; Bartlett 1953 (E over ŷ of ∇log p(ŷ) = 0, second identity)
 */
export function gnbLogitEstimate(probs: readonly number[], labels: readonly number[]): number[] {
  const V = probs.length, B = labels.length;
  if (B < 1) throw new RangeError("labels must hold at least one label");
  const sum = probs.reduce((a, b) => a + b, 0);
  if (!probs.every((p) => p >= 0) || !(Math.abs(sum - 1) <= 1e-6)) throw new RangeError(`probs must be >= 0 and sum to 1, got sum ${sum}`);
  labels.forEach((y, b) => { if (!(Number.isInteger(y) && y >= 0 && y < V)) throw new RangeError(`labels[${b}] must be an integer in [0, ${V}), got ${y}`); });
  const g = probs.map((p) => p);
  for (const y of labels) g[y]! -= 1 / B;
  return g.map((x) => B * x * x);
}
