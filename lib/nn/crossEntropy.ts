/**
 * Softmax cross-entropy over the vocabulary, with PyTorch's ignore_index.
 */
import { roundArrayWith, type Format, type Quantize } from "./precision.js";
import type { Activation } from "./types.js";

/**
 * Targets equal to this are padding: no loss, no gradient, not counted (PyTorch's default ignore_index).
 *
 * @example
 * IGNORE_INDEX; // -100
 * @see PyTorch torch.nn.functional.cross_entropy docs (ignore_index=-100)
 */
export const IGNORE_INDEX = -100;

/** What {@link crossEntropy} returns. */
export interface CrossEntropyResult {
  /** Σ over counted rows of −log softmax(logits)[target], in float64. */
  lossSum: number;
  /** Rows whose target is not IGNORE_INDEX. */
  tokenCount: number;
  /** lossSum / tokenCount (PyTorch reduction="mean"); NaN when tokenCount = 0, as in PyTorch. */
  loss: number;
  /** softmax(logits), (N, V), float32: kept for the backward. */
  probs: Float32Array;
}

/**
 * Softmax cross-entropy, computed in float32/float64 whatever the compute format
 * (autocast runs softmax and losses in fp32).
 *
 * loss_n = logsumexp(z_n) − z_n[t_n], summed over rows with t_n ≠ IGNORE_INDEX.
 *
 * @param logits (N, V)
 * @param targets N ids in [0, V) or IGNORE_INDEX
 * @param ignoreIndex target value of padded rows (default {@link IGNORE_INDEX})
 * @returns the summed loss, the counted rows, the mean, and the probabilities
 * @throws {RangeError} `targets must have N = <N> elements, got <n>`; `targets[<n>] must be an integer in [0, V) or -100, got <t>`
 * @example
 * crossEntropy({ data: Float32Array.of(0, 0), rows: 1, cols: 2 }, Int32Array.of(1)).loss; // ln 2 = 0.693…
 * @see PyTorch torch.nn.functional.cross_entropy (ignore_index=-100, reduction="mean")
 */
export function crossEntropy(logits: Activation, targets: Int32Array, ignoreIndex = IGNORE_INDEX): CrossEntropyResult {
  const { rows: N, cols: V } = logits;
  if (targets.length !== N) throw new RangeError(`targets must have N = ${N} elements, got ${targets.length}`);
  const probs = new Float32Array(N * V);
  let lossSum = 0, tokenCount = 0;
  for (let n = 0; n < N; n++) {
    const t = targets[n];
    if (t !== ignoreIndex && (t < 0 || t >= V)) throw new RangeError(`targets[${n}] must be an integer in [0, ${V}) or ${ignoreIndex}, got ${t}`);
    let max = -Infinity;
    for (let v = 0; v < V; v++) max = Math.max(max, logits.data[n * V + v]); // (N, V)
    let z = 0;
    for (let v = 0; v < V; v++) z += Math.exp(logits.data[n * V + v] - max);
    for (let v = 0; v < V; v++) probs[n * V + v] = Math.exp(logits.data[n * V + v] - max) / z;
    if (t === ignoreIndex) continue;
    lossSum += Math.log(z) + max - logits.data[n * V + t];
    tokenCount++;
  }
  return { lossSum, tokenCount, loss: lossSum / tokenCount, probs };
}

/**
 * The gradient of scale · lossSum with respect to the logits: scale · (softmax − onehot(target)),
 * zero on ignored rows, rounded to `format`.
 *
 * With scale = 1/tokenCount this is the gradient of the mean loss; with
 * scale = lossScale/windowTokens it is what gradient accumulation with loss scaling backpropagates.
 *
 * @param probs softmax(logits), (N, V)
 * @param targets N ids or IGNORE_INDEX
 * @param V vocabulary size
 * @param scale multiplier (finite), e.g. 1/tokenCount or lossScale/windowTokens
 * @param format compute format of the result
 * @param ignoreIndex target value of padded rows (default {@link IGNORE_INDEX})
 * @param quantize optional replacement of the rounding to a 16-bit `format` (see lib/nn `Quantize`; default: lib/precision's rounding)
 * @returns dlogits, (N, V)
 * @throws {RangeError} `scale must be a finite number, got <scale>`
 * @example
 * crossEntropyBackward(Float32Array.of(0.5, 0.5), Int32Array.of(1), 2, 1, "fp32").data; // Float32Array [0.5, -0.5]
 * @see PyTorch torch.nn.functional.cross_entropy docs (ignore_index=-100: ignored targets contribute no gradient);
 *   Goodfellow, Bengio & Courville 2016, Deep Learning (the softmax output unit: ∂/∂z of −log softmax(z)[t] is softmax(z) − onehot(t))
 */
export function crossEntropyBackward(probs: Float32Array, targets: Int32Array, V: number, scale: number, format: Format, ignoreIndex = IGNORE_INDEX, quantize?: Quantize): Activation {
  if (!Number.isFinite(scale)) throw new RangeError(`scale must be a finite number, got ${scale}`);
  const N = targets.length;
  const d = new Float32Array(N * V);
  for (let n = 0; n < N; n++) {
    const t = targets[n];
    if (t === ignoreIndex) continue;
    for (let v = 0; v < V; v++) d[n * V + v] = scale * (probs[n * V + v] - (v === t ? 1 : 0)); // (N, V)
  }
  return { data: roundArrayWith(format, d, quantize), rows: N, cols: V };
}
