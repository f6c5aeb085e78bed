// The lib code that src/memory.md imports, bundled into one module by scripts/bundle.ts.
export {parameterCount, largestLayerParams} from "../../lib/memory/parameterCount.js";
export {bytesPerParam, modelStateBytes} from "../../lib/memory/modelStateBytes.js";
export {activationBytesPerLayer} from "../../lib/memory/activationBytes.js";
export {estimateMemory, fitsInMemory, CONVENTION} from "../../lib/memory/estimateMemory.js";
export {estimateZero2ModelStatesMemNeeds, estimateZero2ModelStatesMemNeedsBefore2024, estimateZero3ModelStatesMemNeeds} from "../../lib/memory/deepspeedEstimators.js";
export {loraEstimate} from "../../lib/memory/loraEstimate.js";
export {achievedFlopsPerGpu, largestPlausibleParams, trainingFlopsPerToken, A100_DENSE_FP16_FLOPS} from "../../lib/memory/trainingFlops.js";
export {PRESET_NAMES} from "../../lib/memory/presets.js";
export {contextWarning} from "../../lib/memory/contextWarning.js";
export {GiB} from "../../lib/memory/units.js";
export {NOTES_RUNS, ddpBaseline} from "../../lib/notesBenchmark.js";
