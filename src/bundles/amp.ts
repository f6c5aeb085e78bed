// The lib code that src/amp.md imports, bundled into one module by scripts/bundle.ts.
// One line per module (not lib/amp/index.js), so that the bundle leaves out the DeepSpeed config parser
// and its validator (zod): the page imports those only when a reader edits the config.
export {GRAD_SCALER_DEFAULTS, updateScale} from "../../lib/amp/updateScale.js";
export {invScale} from "../../lib/amp/unscaleGrads.js";
export {GradScaler} from "../../lib/amp/GradScaler.js";
export {DynamicLossScaler, MIN_SCALE_ERROR} from "../../lib/amp/DynamicLossScaler.js";
export {compareClipOrder} from "../../lib/amp/clipGradNorm.js";
export {caster} from "../../lib/amp/castArray.js";
export {ampStep, initAmpState} from "../../lib/amp/ampStep.js";
export {ampSteps} from "../../lib/amp/trainAmp.js";
export {charLmSetup, AMP_LIVE_MODEL} from "../../lib/amp/charLmSetup.js";
export {SCALE_TRACE_DEMO, scaleTraceConfig} from "../../lib/amp/scaleTraceDemo.js";
export {gradExponentHistogram, FP16_LIMITS} from "../../lib/amp/gradExponents.js";
export {mulberry32} from "../../lib/random.js";
export {DELAYED_SCALING_DEFAULTS, fp8Max} from "../../lib/amp/fp8/DelayedScaling.js";
export {scaleTrace} from "../../lib/amp/fp8/scaleTrace.js";
export {quantizeFp8} from "../../lib/amp/fp8/quantizeFp8.js";
export {quantizeTiles} from "../../lib/amp/fp8/quantizeTiles.js";
export {largestMargin} from "../../lib/amp/fp8/largestMargin.js";
export {mxScaleExponent, MX_BLOCK_SIZE} from "../../lib/amp/fp8/mxfp8.js";
export {fp8TrainingSteps} from "../../lib/amp/fp8/trainFp8.js";
export {FORMATS as FLOAT_FORMATS} from "../../lib/precision/formats.js";
