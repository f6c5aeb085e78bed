/**
 * `lib/nn`: a small character-level language model with hand-written forward
 * and backward, PyTorch-style optimizers, simulated precision, and an
 * opt-in gpu.js matmul (in the module matmul-gpu.js, kept out of this index
 * so that gpu.js is only loaded when needed).
 *
 * @example
 * // with corpus, createModel, DEFAULT_MODEL, sampleBatch, mulberry32, forward, backward, AdamW from this index:
 * const { vocab, tokens } = corpus();
 * const model = createModel({ ...DEFAULT_MODEL, vocabSize: vocab.size });
 * const opt = new AdamW(model.params, { lr: 1e-2 });
 * const rng = mulberry32(0);
 * for (let s = 0; s < 100; s++) {
 *   const batch = sampleBatch(tokens, { batchSize: 8, seqLen: 16, contextLength: 8 }, rng);
 *   opt.zeroGrad();
 *   const f = forward(model, batch);
 *   backward(model, f);            // gradient of the mean loss
 *   opt.step();
 * }
 */
export { mulberry32, gaussian, randomInt, type Rng } from "./prng.js";
export { roundTo, roundArray, bytesPerElement, checkPrecision, FORMATS, FP32, type Format, type Precision } from "./precision.js";
export { matmul, matmulFlops, checkMatmul, type MatmulShape } from "./matmul.js";
export { cpuOps } from "./ops.js";
export type { Param, Activation, Layer, Saved, Ops, MatmulFn } from "./types.js";
export { createParam, zeroGrad, flatGrad, flatData, parameterCount, copyParams } from "./param.js";
export { embedding } from "./embedding.js";
export { linear } from "./linear.js";
export { residualMlp } from "./residual-mlp.js";
export { crossEntropy, crossEntropyBackward, IGNORE_INDEX, type CrossEntropyResult } from "./cross-entropy.js";
export { createModel, forward, backward, forwardLayers, backwardLayers, batchInput, type Model, type ModelConfig, type ForwardResult } from "./model.js";
export { buildVocab, type Vocab } from "./vocab.js";
export { sampleBatch, concatBatches, type Batch, type SampleOptions } from "./sampler.js";
export { AdamW, type AdamWOptions } from "./adamw.js";
export { SGD, type SGDOptions } from "./sgd.js";
export { train, corpus, DEFAULT_MODEL, type TrainOptions } from "./train.js";
export { SONNETS } from "./data/sonnets.js";
