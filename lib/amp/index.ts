/**
 * Mixed-precision training (chapter 4, `amp`): PyTorch's GradScaler,
 * DeepSpeed's loss scalers and fp16 config, clipping, and the AMP step.
 */
export { GRAD_SCALER_DEFAULTS, updateScale, validateScaleUpdateOptions, type ScaleUpdateOptions } from "./updateScale.js";
export { unscaleGrads, invScale, hasInfOrNaN } from "./unscaleGrads.js";
export { GradScaler, type GradScalerOptions, type ScalableOptimizer, type OptState, type ScalerStepResult } from "./GradScaler.js";
export { DynamicLossScaler, LossScaler, dynamicLossScaleUpdate, validateDynamicLossScalerOptions, MIN_SCALE_ERROR, type DynamicLossScalerOptions, type DynamicLossScalerState } from "./DynamicLossScaler.js";
export { parseDeepSpeedFp16, createLossScaler, Fp16BlockSchema, SCALER_KEYS, LEGACY_DYNAMIC_DEFAULTS, type Fp16Block, type Fp16Settings, type HfTrainerPrecisionArgs } from "./deepspeedFp16Config.js";
export { clipGradNorm, compareClipOrder, type ClipOrderComparison } from "./clipGradNorm.js";
export { castArray, castInPlace, caster, bf16round, TRAIN_PRECISIONS, type TrainPrecision } from "./castArray.js";
