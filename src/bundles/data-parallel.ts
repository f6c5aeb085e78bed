// The lib code that src/data-parallel.md imports, bundled into one module by scripts/bundle.ts.
export {ringAllReduce, parameterServerAllReduce, reduceScatter, allGather, chunkBounds, collectiveCost, ringAllReduceBytesPerRank, replayEvents, randomBuffers, addChunk, DEFAULT_COST_MODEL, LINK_PRESETS, linkCostModel} from "../../lib/collectives/index.js";
export {assignBuckets, MIB, simulateDdpStep, simulateDataParallelStep, simulateUnevenInputs, exampleLayers, mlpInit, regressionData, trainSingleProcess, trainDdpBucketed, createDdpReducer} from "../../lib/data-parallel/index.js";
