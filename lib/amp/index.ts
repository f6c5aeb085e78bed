/**
 * Mixed-precision training (chapter 4, `amp`): PyTorch's GradScaler,
 * DeepSpeed's loss scalers and fp16 config, clipping, and the AMP step.
 */
export { GRAD_SCALER_DEFAULTS, updateScale, validateScaleUpdateOptions, type ScaleUpdateOptions } from "./updateScale.js";
export { unscaleGrads, invScale, hasInfOrNaN } from "./unscaleGrads.js";
export { GradScaler, type GradScalerOptions, type ScalableOptimizer, type OptState, type ScalerStepResult } from "./GradScaler.js";
export { DynamicLossScaler, LossScaler, dynamicLossScaleUpdate, validateDynamicLossScalerOptions, MIN_SCALE_ERROR, DEEPSPEED_RELEASES, type DeepSpeedRelease, type DynamicLossScalerOptions, type DynamicLossScalerState } from "./DynamicLossScaler.js";
export { parseDeepSpeedFp16, createLossScaler, fp16Summary, Fp16BlockSchema, fp16BlockSchema, SCALER_KEYS, type Fp16Summary, LEGACY_DYNAMIC_DEFAULTS, type Fp16Block, type Fp16Settings, type HfTrainerPrecisionArgs } from "./deepspeedFp16Config.js";
export { clipGradNorm, compareClipOrder, type ClipOrderComparison } from "./clipGradNorm.js";
export { castArray, castInPlace, caster, bf16round, TRAIN_PRECISIONS, type TrainPrecision } from "./castArray.js";
export { accumulationError, type AccumulationErrorPoint } from "./accumulationError.js";
export { optimizerStep, initOptimizerState, type OptimizerConfig, type OptimizerState, type SgdConfig, type AdamWConfig } from "../nn/optimizerStep.js";
export { ampStep, initAmpState, type AmpConfig, type AmpModel, type AmpState, type AmpStepRecord, type AmpEvent } from "./ampStep.js";
export { trainAmp, ampSteps, type TrainAmpResult } from "./trainAmp.js";
export { SCALE_TRACE_DEMO, scaleTraceConfig, type ScaleTraceSettings } from "./scaleTraceDemo.js";
export { mulberry32, gaussian, type Rng } from "../random.js";
export { charLmSetup, AMP_LIVE_MODEL, type CharLmSetup, type CharLmOptions } from "./charLmSetup.js";
export { gradExponentHistogram, FP16_LIMITS, type ExponentBin, type ExponentHistogram } from "./gradExponents.js";
export { trainWithGradScaler, type GradScalerLike, type TrainWithGradScalerOptions, type ScalerStepRecord } from "./trainWithGradScaler.js";
export * from "./fp8/index.js";
