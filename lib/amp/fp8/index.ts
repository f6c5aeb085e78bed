/**
 * FP8 training (chapter 4, `amp`, section "FP8 training"): Transformer Engine's
 * delayed and current scaling, DeepSeek-V3's block-wise scaling, MXFP8's block
 * scale, an FP8 GEMM with a model of the tensor-core accumulator, and FP8
 * training of lib/nn's model. The formats and their rounding are lib/precision's
 * (`FORMATS`, `round`, `fp8Rounder`).
 */
export { DELAYED_SCALING_DEFAULTS, delayedScaling, fp8TensorFormats, fp8Max, type DelayedScalingOptions, type Fp8Format, type AmaxComputeAlgo } from "./DelayedScaling.js";
export { amaxAndScaleUpdate, FLT_MAX } from "./amaxAndScaleUpdate.js";
export { scaleFromAmax, type ScaleFromAmaxOptions } from "./scaleFromAmax.js";
export { quantizeFp8, type Fp8Quantized } from "./quantizeFp8.js";
export { quantizeTiles, type Fp8Tiles } from "./quantizeTiles.js";
export { perTensorTiles, transposeTiles } from "./transposeTiles.js";
export { fp8Gemm, roundToBits, type Fp8GemmOptions } from "./fp8Gemm.js";
export { fp8AccumulationError, type Fp8AccumulationPoint } from "./fp8AccumulationError.js";
export { MX_BLOCK_SIZE, mxScaleExponent, quantizeMx } from "./mxfp8.js";
export { resolveFp8Scaling, type Fp8Scaling, type ResolvedFp8Scaling } from "./resolveFp8Scaling.js";
export { outlierFactor, scaleColumn, scaleRow, type OutlierChannel } from "./outlierChannel.js";
export { Fp8Context, type Fp8ContextOptions, type Fp8TensorStats } from "./Fp8Context.js";
export { fp8TrainingSteps, trainFp8, type TrainFp8Options, type Fp8StepRecord } from "./trainFp8.js";
export { scaleTrace, type DelayedScalingState, type ScaleTraceResult } from "./scaleTrace.js";
export { largestMargin } from "./largestMargin.js";
