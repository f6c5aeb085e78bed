import { mulberry32 } from "../random.js";

/**
 * Sizes of the tiny MLP ŷ = W2·tanh(W1·x + b1) + b2.
 * @see the sources of {@link mlpNumParams}: PyTorch nn.Linear docs (weight (out, in) plus bias (out))
 */
export interface MlpDims {
  inputDim: number;
  hiddenDim: number;
  outputDim: number;
}

/**
 * The MLP's parameters as one flat Float64Array: W1 (H×D, row-major), b1 (H), W2 (O×H), b2 (O).
 * @see the sources of {@link mlpNumParams}: PyTorch nn.Linear docs (weight (out, in) plus bias (out))
 */
export interface Mlp {
  dims: MlpDims;
  params: Float64Array;
}

/**
 * Number of parameters: H·D + H + O·H + O.
 * @param dims D, H, O (integers ≥ 1)
 * @returns the parameter count
 * @example mlpNumParams({ inputDim: 2, hiddenDim: 3, outputDim: 1 }) // 13
 * @see PyTorch nn.Linear docs (weight (out, in) plus bias (out))
 */
export function mlpNumParams({ inputDim: D, hiddenDim: H, outputDim: O }: MlpDims): number {
  return H * D + H + O * H + O;
}

/**
 * A seeded MLP with weights uniform in ±1/√fan_in (PyTorch nn.Linear's default range).
 * @throws RangeError `hiddenDim must be an integer >= 1, got 0`
 * @example mlpInit({ inputDim: 2, hiddenDim: 3, outputDim: 1 }, 1).params.length // 13
 * @param dims D, H, O (integers ≥ 1)
 * @param seed mulberry32 seed
 * @returns `{dims, params}`, params of length {@link mlpNumParams}
 * @see PyTorch nn.Linear docs (weights and bias initialised from U(−1/√in_features, 1/√in_features))
 * @throws {TypeError} `seed must be a finite integer, got 0.5` (from mulberry32)
 */
export function mlpInit(dims: MlpDims, seed: number): Mlp {
  for (const k of ["inputDim", "hiddenDim", "outputDim"] as const) {
    if (!Number.isInteger(dims[k]) || dims[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${dims[k]}`);
  }
  const rand = mulberry32(seed);
  const { inputDim: D, hiddenDim: H } = dims;
  const params = new Float64Array(mlpNumParams(dims));
  const w2Start = H * D + H;
  for (let i = 0; i < params.length; i++) {
    const fanIn = i < w2Start ? D : H;
    params[i] = (2 * rand() - 1) / Math.sqrt(fanIn);
  }
  return { dims, params };
}

/**
 * Mean squared error over a batch and its gradient, by hand (backpropagation):
 * L = (1/B) Σ_b ½‖ŷ_b − y_b‖², with h = tanh(W1·x + b1), ŷ = W2·h + b2;
 * ∂L/∂ŷ = (ŷ − y)/B, ∂L/∂W2 = Σ δ·hᵀ, ∂L/∂h = W2ᵀδ, ∂L/∂z = (1 − h²)⊙∂L/∂h, ∂L/∂W1 = Σ ∂L/∂z·xᵀ.
 *
 * @param model the MLP
 * @param X (B, D) inputs
 * @param Y (B, O) targets
 * @returns `{loss, grad}` with grad laid out like params; B = 0 gives loss 0 and a zero gradient
 * @throws RangeError `X[1] has length 3, expected inputDim 2`
 * @example mlpLossAndGrad(mlpInit({ inputDim: 1, hiddenDim: 1, outputDim: 1 }, 1), [[0]], [[0]]).grad.length // 4
 * @see Goodfellow, Bengio & Courville 2016, Deep Learning, Sec. 6.5 (back-propagation)
 */
export function mlpLossAndGrad(model: Mlp, X: readonly (readonly number[])[], Y: readonly (readonly number[])[]): { loss: number; grad: Float64Array } {
  const { inputDim: D, hiddenDim: H, outputDim: O } = model.dims;
  const p = model.params;
  const B = X.length;
  if (Y.length !== B) throw new RangeError(`Y has ${Y.length} rows, expected ${B} (one per row of X)`);
  const grad = new Float64Array(p.length);
  const [oB1, oW2, oB2] = [H * D, H * D + H, H * D + H + O * H];
  let loss = 0;
  const h = new Float64Array(H);
  for (let b = 0; b < B; b++) {
    const x = X[b], y = Y[b];
    if (x.length !== D) throw new RangeError(`X[${b}] has length ${x.length}, expected inputDim ${D}`);
    if (y.length !== O) throw new RangeError(`Y[${b}] has length ${y.length}, expected outputDim ${O}`);
    for (let j = 0; j < H; j++) {
      let z = p[oB1 + j];
      for (let i = 0; i < D; i++) z += p[j * D + i] * x[i]; // W1 (H, D)
      h[j] = Math.tanh(z);
    }
    for (let k = 0; k < O; k++) {
      let yhat = p[oB2 + k];
      for (let j = 0; j < H; j++) yhat += p[oW2 + k * H + j] * h[j]; // W2 (O, H)
      const delta = (yhat - y[k]) / B;
      loss += (0.5 * (yhat - y[k]) ** 2) / B;
      grad[oB2 + k] += delta;
      for (let j = 0; j < H; j++) {
        grad[oW2 + k * H + j] += delta * h[j];
        const dz = delta * p[oW2 + k * H + j] * (1 - h[j] * h[j]);
        grad[oB1 + j] += dz;
        for (let i = 0; i < D; i++) grad[j * D + i] += dz * x[i];
      }
    }
  }
  return { loss, grad };
}

/**
 * A seeded regression data set: y = sin(Σ x) + 0.1·noise, x uniform in [−1, 1]^D.
 * @example regressionData(4, 2, 1, 7).X.length // 4
 * @param numSamples B, samples
 * @param inputDim D
 * @param outputDim O
 * @param seed mulberry32 seed
 * @returns `{X, Y}`: X (B, D), Y (B, O) with y_k = sin(Σx + k) + 0.1·u, u uniform in [−1, 1]
 * @see the page's section "DDP trains like one process on the whole batch" (src/data-parallel.md); lib/random.ts mulberry32
 * @throws {TypeError} `seed must be a finite integer, got 0.5` (from mulberry32)
 */
export function regressionData(numSamples: number, inputDim: number, outputDim: number, seed: number): { X: number[][]; Y: number[][] } {
  const rand = mulberry32(seed);
  const X = Array.from({ length: numSamples }, () => Array.from({ length: inputDim }, () => 2 * rand() - 1));
  const Y = X.map((x) => Array.from({ length: outputDim }, (_, k) => Math.sin(x.reduce((s, v) => s + v, 0) + k) + 0.1 * (2 * rand() - 1)));
  return { X, Y };
}
