// The lib code that src/zero.md imports, bundled into one module by scripts/bundle.ts.
export {zeroPartition, ownedParts} from "../../lib/zero/shardRanges.js";
export {zeroSchedule} from "../../lib/zero/zeroSchedule.js";
export {validateZeroKnobs, ZERO_DEFAULTS} from "../../lib/zero/validateZeroOptions.js";
export {zeroStepCommunication} from "../../lib/zero/zeroStepCommunication.js";
export {zeroModelStateBytes} from "../../lib/zero/zeroModelStateBytes.js";
export {fsdpToZero, fsdpCommPerRank, FSDP_STRATEGIES} from "../../lib/zero/fsdpStrategy.js";
export {torchChunk, shardDim0, flatParameterLayout} from "../../lib/zero/shardDim0.js";
export {deviceMesh} from "../../lib/zero/deviceMesh.js";
export {STEP_COMMUNICATION_SETTINGS} from "../../lib/zero/stepCommunicationSettings.js";
