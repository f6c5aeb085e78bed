// The lib code that src/accumulation-checkpointing.md imports, bundled into one module by scripts/bundle.ts.
export {corpus, createModel, forward, backward, zeroGrad, flatGrad, sampleBatch, concatBatches, mulberry32, cpuOps, matmul, FP32} from "../../lib/nn/index.js";
export {accumulateGradients, accumulateCheckpointed, accumulationCommunication, ActivationStore, guardBackward, checkpointedStep, layerCosts, relativeError, simulateCheckpointing, tradeoff, sqrtSegments, checkSegments, reentrantGradients, trainAccumulatedSteps, ACCUMULATION_MODES} from "../../lib/accumulation-checkpointing/index.js";
export {activationBytes, estimateMemory, loraEstimate, parameterCount as archParameterCount, GiB} from "../../lib/memory/index.js";
