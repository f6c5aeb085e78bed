/**
 * Chapter 1, precision: floating-point formats, rounding, bit patterns, and
 * gpu.js kernels that round and accumulate in narrow formats.
 *
 * `quantize` and `accumulate` load gpu.js; pages import them from
 * "./quantize.js" / "./accumulate.js" dynamically so that reading stays light.
 * This index re-exports only the CPU modules plus the kernels' types.
 * `trainQuantized` (which loads lib/nn's model) is imported from
 * "./trainQuantized.js" for the same reason.
 */
export { FORMATS, FORMAT_NAMES, getFormat, makeFormat, type FormatName, type FloatFormat } from "./formats.js";
export { round, isRepresentable, roundMagnitude, type RoundOptions } from "./round.js";
export { encode, toHex, formatWithBits } from "./encode.js";
export { decode } from "./decode.js";
export { ulp, nextUp, nextDown } from "./ulp.js";
export { decompose, type Decomposition, type ValueKind } from "./decompose.js";
export { binade, roundHalfEven } from "./binade.js";
export { kernelRoundToFormat } from "./kernelRoundToFormat.js";
export { accumulateReference, type AccumulatorFormat } from "./accumulateReference.js";
export type { QuantizeFormat, QuantizeOptions, Quantizer } from "./quantize.js";
export type { AccumulateOptions } from "./accumulate.js";
export { uniformValues, logUniformValues } from "./seededValues.js";
export { mulberry32 } from "../random.js";
export { fastRound, fastRounder, bf16round, castArray, roundArrayInPlace, TRAIN_FORMATS, type TrainFormat } from "./fastRound.js";
export type { TrainQuantizedOptions, TrainQuantizedResult } from "./trainQuantized.js";
export { fp8Rounder, type Fp8FormatName } from "./fp8Rounder.js";
