/**
 * Pipeline parallelism, written for reading: schedules as lists of timed events (naive, GPipe,
 * 1F1B, interleaved 1F1B, ZB-H1), a validity checker, measures read from the events (step time,
 * bubble, in-flight micro-batches), batch bookkeeping, a stage partitioner, and training of
 * lib/nn's model on simulated stages that equals one device bit for bit.
 */
export { SCHEDULE_NAMES, UNIT_TIMES, p2pSendMs, checkShape, resolveTimes, timeOrders, opDuration, type OpKind, type ScheduleEvent, type ScheduleName, type Schedule, type StageTimes, type ResolvedTimes, type Op } from "./schedule.js";
export { naiveSchedule, gpipeSchedule, oneFOneBSchedule, oneFOneBOrder, interleavedSchedule, interleavedTable, checkInterleaved, zbH1Schedule, zbH1Order, generateSchedule, type ScheduleOptions } from "./generators.js";
export { checkSchedule, assertValidSchedule, inFlightTimeline, type CheckOptions } from "./validate.js";
export { stepTime, busyTimes, bubbleFraction, bubbleFractionOfStep, peakInFlight, closedFormBubble } from "./measures.js";
export { resolveBatch, dataParallelSize, type BatchConfig, type ResolvedBatch } from "./batch.js";
export { balancePartition, partitionFromBounds, uniformChunks, type Partition } from "./partition.js";
export { trainPipeline, trainOneDevice, runPipelineStep, stageBounds, type PipelineTrainOptions, type PipelineTrainResult } from "./train.js";
export { zeroBubblePassFlops, type PassFlopsOptions } from "./zeroBubblePassFlops.js";
