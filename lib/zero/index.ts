/**
 * Chapter 8, `zero`: ZeRO-DP stages 0–3 and PyTorch FSDP on simulated ranks
 * (lib/collectives' World) training lib/nn's model in mixed precision
 * (lib/amp's casts, lib/nn's AdamW): per-rank memory and communication from
 * event logs, DeepSpeed's knobs, FSDP's strategies and wrapping, and the
 * DeepSpeed / Hugging Face Trainer configuration that drives it; FSDP2 (`fully_shard`,
 * per-parameter Shard(0), reshard_after_forward, HSDP, MixedPrecisionPolicy) and FSDP1's
 * FlatParameter on the same simulated World (trainFsdp), gradient accumulation in both.
 */
export { ZERO_DEFAULTS, validateZeroKnobs, checkStage, elementBytes, type ZeroKnobs, type ZeroStage } from "./validateZeroOptions.js";
export { zeroPartition, ownedParts, rangeLength } from "./shardRanges.js";
export { wrapUnits, type Unit, type ParamSlot, type WrapPolicy } from "./wrapUnits.js";
export { zeroSchedule, type ZeroOp, type MicroBatchPart } from "./zeroSchedule.js";
export { MemoryLedger, type MemoryEvent, type MemoryKind } from "./MemoryLedger.js";
export { ZeroWorld, type CollectiveRecord, type ZeroWorldSetup } from "./ZeroWorld.js";
export { trainZero, zeroBatches, zeroMicroBatches, reducesEveryMicroBatch, autoPersistenceThreshold, type TrainingRunOptions, type ZeroConfig, type ZeroRun, type ZeroStepRecord } from "./trainZero.js";
export { zeroStepCommunication, type StepCommunication, type StepCommunicationOptions, type StepCollective, type StepCollectiveKind, type StepCollectiveWhen } from "./zeroStepCommunication.js";
export { FSDP_STRATEGIES, fsdpToZero, fsdpCommPerRank, fsdpMixedPrecision, type FsdpStrategy, type FsdpMapping, type FsdpMixedPrecision } from "./fsdpStrategy.js";
export { reductionError, type ReductionErrorPoint } from "./reductionError.js";
export { parseDeepSpeedConfig, ZeroOptimizationSchema, DeepSpeedConfigSchema, type DeepSpeedConfig, type HfTrainerArgs, type OffloadOptimizerConfig, type OffloadParamConfig } from "./parseDeepSpeedConfig.js";
export { parseHfTrainerArgs, type HfShardingArgs } from "./parseHfTrainerArgs.js";
export { NOTES_ZERO2_CONFIG, NOTES_TRAINER_ARGS } from "./notesZero2Config.js";
export { zeroConfigFromDeepSpeed } from "./zeroConfigFromDeepSpeed.js";
export { shardOwner } from "./shardRanges.js";
export { zeroModelStateBytes, type ZeroModelStateBytes } from "./zeroModelStateBytes.js";
export { fewestRanks } from "./fewestRanks.js";
export { shardingForEstimate, type ShardingOverrides } from "./shardingForEstimate.js";
export { DEEPSPEED_SOURCE, NOT_MODELLED_KEYS, LEGACY_KEYS, MODELLED_KEYS, ZERO_ALIASES, ZERO_NOT_MODELLED, type LegacyKey } from "./deepSpeedKeys.js";
export { fillHfAuto } from "./fillHfAuto.js";
export { deepSpeedBatch, type DeepSpeedBatch } from "./deepSpeedBatch.js";
export { readHfFsdpConfig, strToBool, type HfFsdpConfig } from "./hfFsdpConfig.js";
export { readAccelerateConfig, type AccelerateSetup } from "./readAccelerateConfig.js";
export { fsdpWords } from "./parseHfTrainerArgs.js";
export { type AioConfig } from "./parseDeepSpeedConfig.js";
export { summarizeConfig, type ConfigKind, type ConfigSummary } from "./summarizeConfig.js";
export { STEP_COMMUNICATION_SETTINGS, type StepCommunicationSetting } from "./stepCommunicationSettings.js";
export { torchChunk, shardDim0, flatParameterLayout, type Shard0Layout } from "./shardDim0.js";
export { deviceMesh, resolveReshardAfterForward, postForwardGroups, type DataParallelMesh, type ReshardAfterForward } from "./deviceMesh.js";
export { fullyShard, checkShard0Layout, type ShardFn, type LayerSpec, type FullyShardCall, type FullyShardPlan, type ParamGroup, type GroupTensor, type TensorMember, type ShardingLayout } from "./fullyShard.js";
export { allGatherGroup, reduceScatterGroup, type GroupRegion } from "./fsdpCollectives.js";
export { FsdpWorld, type FsdpWorldSetup } from "./FsdpWorld.js";
export { type FsdpOp, type FsdpOpRecord, type MixedPrecisionPolicy } from "./fsdpOp.js";
export { FsdpCompute } from "./FsdpCompute.js";
export { fsdpSchedule, type FsdpScheduleOptions } from "./fsdpSchedule.js";
export { trainFsdp, fsdpModel, type FsdpConfig, type FsdpRun, type FsdpStepRecord } from "./trainFsdp.js";
export { fsdpStepCommunication, type FsdpStepCollective, type FsdpStepCommunication } from "./fsdpStepCommunication.js";
export { fsdpTimeline, type TimelineEvent } from "./fsdpTimeline.js";
export { fsdpOracle } from "./fsdpOracle.js";
export { trainOneDevice } from "./trainOneDevice.js";
export { FsdpGradients } from "./FsdpGradients.js";
export { fsdp2Step, type Fsdp2StepModel, type Fsdp2StepPlan } from "./fsdp2Step.js";
