/**
 * The course model: a character-level language model
 * embedding → linear → numBlocks × residual MLP → linear head → softmax cross-entropy,
 * with forward and backward written out layer by layer.
 */
import { embedding } from "./embedding.js";
import { linear } from "./linear.js";
import { residualMlp } from "./residualMlp.js";
import { selfAttention } from "./selfAttention.js";
import { moeLayer } from "./moeLayer.js";
import type { MoeOptions } from "./moeOptions.js";
import { crossEntropy, crossEntropyBackward, IGNORE_INDEX } from "./crossEntropy.js";
import { cpuOps } from "./ops.js";
import { mulberry32 } from "../random.js";
import type { Batch } from "./sampler.js";
import type { Activation, Layer, Ops, Param, Saved } from "./types.js";

/** Sizes of the model. */
export interface ModelConfig {
  /** V, characters in the vocabulary. */
  vocabSize: number;
  /** C, characters of context per prediction. */
  contextLength: number;
  /** d, embedding width per character. */
  embedDim: number;
  /** h, width of the residual stream. */
  width: number;
  /** Width of each block's tanh layer. */
  hiddenDim: number;
  /** Residual MLP blocks (>= 0). */
  numBlocks: number;
  /** Seed of the initial weights. */
  seed: number;
  /** Insert a causal self-attention block over the C embeddings before the projection (default false). */
  attention?: boolean;
  /**
   * Make every block a mixture of experts (moeLayer) instead of a residual MLP; each expert's hidden
   * width defaults to `hiddenDim` (default: no experts).
   */
  moe?: MoeOptions;
}

/** A model: its config, its layers in order, and all their parameters. */
export interface Model {
  config: ModelConfig;
  layers: Layer[];
  params: Param[];
}

/**
 * Builds the model with seeded initial weights.
 *
 * @param config sizes and seed (all sizes integers >= 1, numBlocks >= 0)
 * @returns layers [emb, (attn,) proj, blocks.0 … blocks.{numBlocks−1}, head]; the blocks are MoE blocks when `config.moe` is set
 * @throws {RangeError} `config.width must be an integer >= 1, got 0`
 * @example
 * const m = createModel({ vocabSize: 40, contextLength: 8, embedDim: 8, width: 32, hiddenDim: 64, numBlocks: 2, seed: 1 });
 * m.layers.length; // 5
 * @see Bengio et al. 2003, A Neural Probabilistic Language Model (embedding of a context window → MLP → softmax)
 */
export function createModel(config: ModelConfig): Model {
  for (const k of ["vocabSize", "contextLength", "embedDim", "width", "hiddenDim"] as const) {
    if (!Number.isInteger(config[k]) || config[k] < 1) throw new RangeError(`config.${k} must be an integer >= 1, got ${config[k]}`);
  }
  if (!Number.isInteger(config.numBlocks) || config.numBlocks < 0) throw new RangeError(`config.numBlocks must be an integer >= 0, got ${config.numBlocks}`);
  const { vocabSize: V, contextLength: C, embedDim: d, width: h, hiddenDim: H, numBlocks } = config;
  const rng = mulberry32(config.seed);
  const layers: Layer[] = [embedding("emb", V, C, d, rng)];
  if (config.attention) layers.push(selfAttention("attn", C, d, rng));
  layers.push(linear("proj", C * d, h, rng));
  for (let i = 0; i < numBlocks; i++) {
    layers.push(config.moe ? moeLayer(`blocks.${i}`, h, rng, { expertHiddenDim: H, ...config.moe }) : residualMlp(`blocks.${i}`, h, H, rng));
  }
  layers.push(linear("head", h, V, rng));
  return { config: { ...config, ...(config.moe ? { moe: { ...config.moe } } : {}) }, layers, params: layers.flatMap((l) => l.params) };
}

/**
 * The token ids of a batch as the embedding's input activation, (N, C), ids stored as float32 (exact below 2^24).
 *
 * @param batch N rows of C context ids
 * @returns `{data, rows: N, cols: C}`, data a Float32Array copy of `batch.contexts`
 * @example
 * batchInput({ contexts: Int32Array.of(1, 2, 3, 4), targets: Int32Array.of(0, 1), rows: 2, contextLength: 2 });
 * // { data: Float32Array [1, 2, 3, 4], rows: 2, cols: 2 }
 * @see PyTorch torch.nn.Embedding docs (input: a tensor of indices)
 */
export function batchInput(batch: Batch): Activation {
  return { data: Float32Array.from(batch.contexts), rows: batch.rows, cols: batch.contextLength };
}

/**
 * Runs `layers` in order, keeping every layer's saved tensors.
 *
 * @param layers the layers (or a segment of them)
 * @param x the input, (N, layers[0].inFeatures)
 * @param ops precision and matmul
 * @returns the output and one Saved per layer
 * @throws whatever a layer's forward throws, e.g. the embedding's {RangeError}
 *   `batch.contexts[<i>] must be an integer token id in [0, <V>), got <id>`
 * @example
 * const { y, saved } = forwardLayers(model.layers, batchInput(batch), cpuOps());
 * // y: (N, V) logits; saved.length === model.layers.length
 * @see Goodfellow, Bengio & Courville 2016, Deep Learning (forward propagation in a feedforward network)
 */
export function forwardLayers(layers: readonly Layer[], x: Activation, ops: Ops): { y: Activation; saved: Saved[] } {
  const saved: Saved[] = [];
  for (const layer of layers) { const r = layer.forward(x, ops); saved.push(r.saved); x = r.y; }
  return { y: x, saved };
}

/**
 * Backpropagates `dy` through `layers` in reverse order, adding parameter gradients.
 *
 * @param layers the same layers as the forward
 * @param saved what their forward saved
 * @param dy gradient of the output
 * @param ops precision and matmul
 * @returns the gradient of the input, or null if the first layer has none (embedding)
 * @throws {RangeError} `layer <name> needs a gradient but layer <next> returned none` when a layer that
 *   is not first returns no input gradient (e.g. an embedding placed after another layer)
 * @example
 * const { y, saved } = forwardLayers(model.layers, batchInput(batch), cpuOps());
 * backwardLayers(model.layers, saved, dlogits, cpuOps()); // null (the embedding has no input gradient); param.grad updated
 * @see Rumelhart, Hinton & Williams 1986, Learning representations by back-propagating errors; Goodfellow, Bengio & Courville 2016, Deep Learning (back-propagation)
 */
export function backwardLayers(layers: readonly Layer[], saved: readonly Saved[], dy: Activation, ops: Ops): Activation | null {
  let d: Activation | null = dy;
  for (let i = layers.length - 1; i >= 0; i--) {
    if (d === null) throw new RangeError(`layer ${layers[i].name} needs a gradient but layer ${layers[i + 1].name} returned none`);
    d = layers[i].backward(saved[i], d, ops);
  }
  return d;
}

/** What {@link forward} returns. */
export interface ForwardResult {
  /** Mean loss over counted tokens (PyTorch reduction="mean"). */
  loss: number;
  /** Summed loss over counted tokens. */
  lossSum: number;
  /** Tokens whose target is not IGNORE_INDEX. */
  tokenCount: number;
  /** What backward needs. */
  cache: { saved: Saved[]; probs: Float32Array; targets: Int32Array };
}

/**
 * The forward pass and the loss on a batch.
 *
 * @param model the model
 * @param batch N examples
 * @param ops precision and matmul (default fp32 on the CPU)
 * @returns loss (nats per counted token), lossSum, tokenCount and the cache for {@link backward}
 * @throws {RangeError} `batch.contexts[<i>] must be an integer token id in [0, <V>), got <id>`;
 *   `targets[<n>] must be an integer in [0, V) or -100, got <t>`; `targets must have N = <N> elements, got <n>`
 * @example
 * const { loss } = forward(model, batch); // about ln V at initialisation
 * @see PyTorch torch.nn.functional.cross_entropy docs (reduction="mean", ignore_index=-100); Bengio et al. 2003, A Neural Probabilistic Language Model
 */
export function forward(model: Model, batch: Batch, ops: Ops = cpuOps()): ForwardResult {
  const { y, saved } = forwardLayers(model.layers, batchInput(batch), ops);
  const ce = crossEntropy(y, batch.targets);
  return { loss: ce.loss, lossSum: ce.lossSum, tokenCount: ce.tokenCount, cache: { saved, probs: ce.probs, targets: batch.targets } };
}

/**
 * The backward pass: ADDS ∂(scale · lossSum)/∂θ into every `param.grad` (as PyTorch's
 * `loss.backward()` accumulates into `.grad`).
 *
 * scale = 1/tokenCount (the default) gives the gradient of the mean loss; gradient
 * accumulation over a window uses scale = 1/(tokens in the whole window);
 * loss scaling multiplies scale by the loss scale.
 *
 * @param model the model
 * @param f the result of {@link forward} on the same parameters
 * @param scale multiplier of the summed loss (default 1/f.tokenCount; 0 if no token counted)
 * @param ops precision and matmul (use the forward's)
 * @returns nothing (every `param.grad` is incremented)
 * @throws {RangeError} `scale must be a finite number, got NaN`
 * @example
 * zeroGrad(model.params); backward(model, forward(model, batch)); // grads of the mean loss
 * @see PyTorch torch.Tensor.backward docs (gradients accumulate into .grad); Micikevicius et al. 2017, Mixed Precision Training (loss scaling)
 */
export function backward(model: Model, f: ForwardResult, scale = f.tokenCount > 0 ? 1 / f.tokenCount : 0, ops: Ops = cpuOps()): void {
  const V = model.config.vocabSize;
  const dlogits = crossEntropyBackward(f.cache.probs, f.cache.targets, V, scale, ops.precision.compute, IGNORE_INDEX, ops.quantize);
  backwardLayers(model.layers, f.cache.saved, dlogits, ops);
}
