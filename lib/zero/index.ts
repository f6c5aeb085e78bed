/**
 * Chapter 8, `zero`: ZeRO-DP stages 0–3 and PyTorch FSDP on simulated ranks
 * (lib/collectives' World) training lib/nn's model in mixed precision
 * (lib/amp's casts, lib/nn's AdamW): per-rank memory and communication from
 * event logs, DeepSpeed's knobs, FSDP's strategies and wrapping, and the
 * DeepSpeed / Hugging Face Trainer configuration that drives it.
 */
export { ZERO_DEFAULTS, validateZeroKnobs, checkStage, elementBytes, type ZeroKnobs, type ZeroStage } from "./validateZeroOptions.js";
export { zeroPartition, ownedParts, rangeLength } from "./shardRanges.js";
export { wrapUnits, type Unit, type ParamSlot, type WrapPolicy } from "./wrapUnits.js";
export { zeroSchedule, type ZeroOp } from "./zeroSchedule.js";
export { MemoryLedger, type MemoryEvent, type MemoryKind } from "./MemoryLedger.js";
export { ZeroWorld, type CollectiveRecord, type ZeroWorldSetup } from "./ZeroWorld.js";
export { trainZero, zeroBatches, autoPersistenceThreshold, type ZeroConfig, type ZeroRun, type ZeroStepRecord } from "./trainZero.js";
export { zeroStepCommunication, type StepCommunication, type StepCommunicationOptions, type StepCollective, type StepCollectiveKind, type StepCollectiveWhen } from "./zeroStepCommunication.js";
export { FSDP_STRATEGIES, fsdpToZero, fsdpCommPerRank, fsdpMixedPrecision, type FsdpStrategy, type FsdpMapping, type FsdpMixedPrecision } from "./fsdpStrategy.js";
export { reductionError, type ReductionErrorPoint } from "./reductionError.js";
export { parseDeepSpeedConfig, ZeroOptimizationSchema, DeepSpeedConfigSchema, type DeepSpeedConfig, type HfTrainerArgs, type OffloadOptimizerConfig, type OffloadParamConfig } from "./parseDeepSpeedConfig.js";
export { parseHfTrainerArgs, type HfShardingArgs } from "./parseHfTrainerArgs.js";
export { NOTES_ZERO2_CONFIG, NOTES_TRAINER_ARGS } from "./notesZero2Config.js";
export { zeroConfigFromDeepSpeed } from "./zeroConfigFromDeepSpeed.js";
export { shardOwner } from "./shardRanges.js";
export { zeroModelStateBytes, type ZeroModelStateBytes } from "./zeroModelStateBytes.js";
export { shardingForEstimate, type ShardingOverrides } from "./shardingForEstimate.js";
export { DEEPSPEED_SOURCE, NOT_MODELLED_KEYS, LEGACY_KEYS, MODELLED_KEYS, ZERO_ALIASES, ZERO_NOT_MODELLED, type LegacyKey } from "./deepSpeedKeys.js";
export { fillHfAuto } from "./fillHfAuto.js";
export { deepSpeedBatch, type DeepSpeedBatch } from "./deepSpeedBatch.js";
export { readHfFsdpConfig, strToBool, type HfFsdpConfig } from "./hfFsdpConfig.js";
export { readAccelerateConfig, type AccelerateSetup } from "./readAccelerateConfig.js";
export { fsdpWords } from "./parseHfTrainerArgs.js";
export { type AioConfig } from "./parseDeepSpeedConfig.js";
export { summarizeConfig, type ConfigKind, type ConfigSummary } from "./summarizeConfig.js";
