/**
 * # `lib/nn` — a small model that trains, written for reading
 *
 * A character-level language model on Shakespeare's sonnets (`data/`), with
 * forward and backward written out by hand, PyTorch-style AdamW and SGD,
 * simulated fp32/fp16/bf16 precision, and an opt-in gpu.js matmul.
 * Chapters 3 (accumulation-checkpointing) and 4 (amp) build on it; later
 * chapters (data-parallel, zero, sophia) can too.
 *
 * ```
 * ids (N, C) ─ emb ─▶ (N, C·d) ─ proj ─▶ (N, h) ─ blocks.0 … blocks.{L−1} ─▶ (N, h) ─ head ─▶ logits (N, V) ─ cross-entropy
 *                                                y = x + tanh(x W1 + b1) W2 + b2
 * ```
 *
 * ## API (stable)
 *
 * ```text
 * // names exported by this index: corpus, createModel, DEFAULT_MODEL, sampleBatch, mulberry32,
 * // forward, backward, AdamW, SGD, cpuOps, zeroGrad, copyParams, …
 * const { vocab, tokens } = corpus();                               // the sonnets, V ≈ 59 characters
 * const model = createModel({ ...DEFAULT_MODEL, vocabSize: vocab.size });
 * const rng = mulberry32(0);                                        // seeded sampler
 * const batch = sampleBatch(tokens, { batchSize: 8, seqLen: 16, contextLength: 8 }, rng);
 *
 * const f = forward(model, batch);          // { loss (mean), lossSum, tokenCount, cache }
 * backward(model, f);                       // ADDS d(lossSum / tokenCount)/dθ into param.grad
 * backward(model, f, scale);                // ADDS d(scale · lossSum)/dθ (accumulation, loss scaling)
 * const opt = new AdamW(model.params);      // lr 1e-3, betas (0.9, 0.999), eps 1e-8, weight_decay 1e-2
 * opt.step(); opt.zeroGrad();
 * optimizerStep(weights, grads, state, { kind: "adamw", lr });  // the same step as a pure function on arrays
 * ```
 *
 * - **Parameters**: `model.params: Param[]`, each `{ name, shape, data: Float32Array, grad: Float32Array }`.
 *   `backward` accumulates into `grad` like PyTorch; clear with `zeroGrad(params)` or `opt.zeroGrad()`.
 * - **Simulated precision**: pass `ops = cpuOps({ compute, accumulate })` to `forward` and `backward`
 *   (`compute`, `accumulate` ∈ "fp32" | "fp16" | "bf16"). Every op output (activations, dlogits,
 *   dx, each gradient contribution) is rounded to `compute` with `roundTo(format, x)`; matmul partial
 *   sums are rounded to `accumulate` after every addition. Softmax/cross-entropy run in fp32 (as
 *   autocast does). Gradient contributions are rounded to `compute`, then added into the fp32 `grad`.
 * - **Mixed precision (AMP) recipe**: keep an fp32 master model; `copyParams(master.params,
 *   half.params, "fp16")` into a second model built with the same config; `forward(half, batch,
 *   cpuOps({compute: "fp16", accumulate: "fp32"}))`; `backward(half, f, lossScale / f.tokenCount, ops)`
 *   — dlogits are multiplied by the scale *before* rounding to fp16, so underflow is simulated;
 *   then unscale `half` grads into `master` grads and `opt.step()` on the master.
 * - **gpu.js matmul** (opt-in): `const k = createGpuMatmul()` from `./lib/nn/createGpuMatmul.js`;
 *   `forward(model, batch, { precision: FP32, matmul: k.matmul })`; `k.destroy()`. Only fp32
 *   accumulation. Agrees with the CPU path within |Δc| ≤ K·2⁻²³·Σ|a·b| per element (tested).
 * - **Layers** (`model.layers: Layer[]`) expose `forward(x, ops) → {y, saved}`, `backward(saved, dy, ops) → dx`,
 *   `flops(rows)`, `savedBytes(rows, format)`: enough to run segments of the model by hand
 *   (activation checkpointing in chapter 3).
 * - **Data**: `sampleBatch(tokens, {batchSize, seqLen, contextLength, lengths?}, rng)` gives N = B·L
 *   rows; `lengths` pads each sequence's tail with `IGNORE_INDEX` (−100), which the loss skips.
 * - **Plugging in a rounding**: `{ ...cpuOps(precision), quantize }` replaces the rounding of every op output
 *   to a 16-bit compute format by `quantize(values, format)` (a new or the same Float32Array);
 *   `copyParams(src, dst, format, quantize)` and `crossEntropyBackward(…, quantize)` take it too. Without it
 *   nothing changes. Exercise 1.5 trains with a student's rounding this way.
 * - **Mixture of experts** (chapter 14): `createModel({ ..., moe: { numExperts, topK, … } })` makes every block an
 *   MoE block (`moeLayer`: router, top-k routing with ties to the lower index, capacity and drops per group,
 *   the Switch load-balancing loss and the ST-MoE z-loss added to the router's gradient in backward, DeepSeek-V3's
 *   selection bias). Its pieces (`topKRouting`, `expertCapacity`, `applyCapacity`, `routeTokens`, `routerBackward`,
 *   `expertForward`/`expertBackward`, `combineSlots`) are what lib/expert-parallel runs on simulated ranks.
 * - **Rounding**: `roundTo(format, x)` equals `lib/precision`'s `round(format, x)` (fast equivalents,
 *   tested equal to `round` on float32, float64 and near-tie inputs).
 *
 * Tests: `npx vitest run lib/nn` (gradient check against central finite differences on every
 * parameter, AdamW/SGD against hand-computed PyTorch formulas, gpu.js vs CPU, training lowers
 * the loss below the unigram entropy).
 *
 * Training text: data/sonnets.ts (source and licence in its header).
 */
export { mulberry32, gaussian, randomInt, type Rng } from "../random.js";
export { roundTo, roundArray, roundArrayWith, bytesPerElement, checkPrecision, FORMATS, FP32, type Format, type Precision, type Quantize } from "./precision.js";
export { matmul, matmulFlops, checkMatmul, type MatmulShape } from "./matmul.js";
export { cpuOps, roundCompute } from "./ops.js";
export type { Param, Activation, Layer, Saved, Ops, MatmulFn } from "./types.js";
export { createParam, zeroGrad, flatGrad, flatData, parameterCount, copyParams } from "./param.js";
export { embedding } from "./embedding.js";
export { linear } from "./linear.js";
export { residualMlp } from "./residualMlp.js";
export { selfAttention } from "./selfAttention.js";
export { topKRouting, topKIndices, gatesBackward, type Routing, type RoutingOrder } from "./moeRouting.js";
export { expertCapacity, applyCapacity, type DropPolicy } from "./moeCapacity.js";
export { loadBalancingLoss, routerZLoss, type RouterLoss } from "./moeLosses.js";
export { createExpert, expertForward, expertBackward, type Expert } from "./expertMlp.js";
export { routeTokens, routerBackward, type MoeRouterOptions, type RouterState } from "./moeRouter.js";
export { combineSlots, combineSlotsBackward, sumInputGradients } from "./moeCombine.js";
export { resolveMoeOptions, groupBounds, type MoeOptions, type ResolvedMoeOptions } from "./moeOptions.js";
export { moeLayer, type MoeLayer, type MoeSaved, type MoeStats } from "./moeLayer.js";
export { crossEntropy, crossEntropyBackward, IGNORE_INDEX, type CrossEntropyResult } from "./crossEntropy.js";
export { createModel, forward, backward, forwardLayers, backwardLayers, batchInput, type Model, type ModelConfig, type ForwardResult } from "./model.js";
export { buildVocab, type Vocab } from "./buildVocab.js";
export { sampleBatch, concatBatches, type Batch, type SampleOptions } from "./sampler.js";
export { AdamW, type AdamWOptions } from "./AdamW.js";
export { SGD, type SGDOptions } from "./SGD.js";
export { optimizerStep, initOptimizerState, type OptimizerConfig, type OptimizerState, type SgdConfig, type AdamWConfig } from "./optimizerStep.js";
export { train, corpus, DEFAULT_MODEL, type TrainOptions } from "./train.js";
export { SONNETS } from "./data/sonnets.js";
