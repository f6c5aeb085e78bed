/**
 * Data parallelism: PyTorch DataParallel versus DistributedDataParallel as
 * timeline simulations, DDP's gradient bucketing and overlap, uneven inputs
 * (Join) and unused parameters, and a training-equivalence check on a tiny MLP.
 * The collectives themselves live in lib/collectives.
 */
export { assignBuckets, MIB, type Bucket, type BucketOptions } from "./assignBuckets.js";
export { allReduceSchedule, ddpStepTimeMs, checkMs, type BucketTiming, type AllReduceSchedule, type DdpStepInput } from "./ddpStepTimeMs.js";
export { exampleLayers, checkLayers, type LayerSpec, type TimelineEvent, type RankMemory } from "./layers.js";
export { simulateDdpStep, type DdpConfig, type DdpStepResult } from "./simulateDdpStep.js";
export { simulateDataParallelStep, type DataParallelConfig, type DataParallelStepResult } from "./simulateDataParallelStep.js";
export { simulateUnevenInputs, type JoinEvent, type UnevenInputsResult } from "./simulateUnevenInputs.js";
export { mlpInit, mlpLossAndGrad, mlpNumParams, regressionData, type Mlp, type MlpDims } from "./mlp.js";
export { trainSingleProcess, trainDdp, shardIndices, type TrainOptions } from "./trainDataParallel.js";
export { createGradCluster, type GradCluster, type GradMessage, type GradClusterControl } from "./createGradCluster.js";
export { createDdpReducer, type DdpReducer, type BucketCaps } from "./createDdpReducer.js";
export { trainDdpBucketed, TOY_LINK, type CreateReducer, type BucketedTrainOptions, type BucketedStepLog } from "./trainDdpBucketed.js";
