/**
 * Pipeline parallelism, written for reading: schedules as lists of timed events (naive, GPipe,
 * 1F1B, interleaved 1F1B, ZB-H1, ZB-H2, ZB-V, DualPipe, DualPipeV), a validity checker that knows
 * the loop, V and bidirectional placements, measures read from the events (step time, bubble,
 * spans, in-flight micro-batches), the sources' closed forms, the optimizer step with and without
 * post-validation, batch bookkeeping, a stage partitioner, and training of lib/nn's model on
 * simulated stages that equals one device bit for bit.
 */
export { SCHEDULE_NAMES, UNIT_TIMES, p2pSendMs, checkShape, resolveTimes, opDuration, type OpKind, type ScheduleEvent, type ScheduleName, type Schedule, type StageTimes, type ResolvedTimes, type Op } from "./schedule.js";
export { timeOrders, type TimeOptions } from "./timeOrders.js";
export { routeLength, routeStep, routePosition, passShare, direction, checkPlacement, type Placement, type Layout } from "./placement.js";
export { naiveSchedule, gpipeSchedule, oneFOneBSchedule, oneFOneBOrder, interleavedSchedule, interleavedTable, checkInterleaved, zbH1Schedule, zbH1Order, generateSchedule, type ScheduleOptions } from "./generators.js";
export { zbH2Schedule, zbH2Order } from "./zbH2.js";
export { zbVSchedule, zbVOrder } from "./zbV.js";
export { dualPipeSchedule, dualPipeVSchedule } from "./dualPipe.js";
export { checkSchedule, assertValidSchedule, inFlightTimeline, type CheckOptions } from "./validate.js";
export { stepTime, busyTimes, stageSpans, bubbleFraction, bubbleFractionOfStep, spanBubbleFraction, peakInFlight, closedFormBubble } from "./measures.js";
export { scheduleClosedForm, type ScheduleClosedForm } from "./scheduleClosedForm.js";
export { compareSchedules, pipelineSends, parametersPerDevice, type ScheduleComparison } from "./compareSchedules.js";
export { rollbackAdamW } from "./rollbackAdamW.js";
export { simulateOptimizerStep, ordersOf, type OptimizerStepOptions, type OptimizerStepResult, type StepEvent, type StepFault, type StepOutcome } from "./optimizerStep.js";
export { resolveBatch, dataParallelSize, type BatchConfig, type ResolvedBatch } from "./batch.js";
export { balancePartition, partitionFromBounds, uniformChunks, type Partition } from "./partition.js";
export { trainPipeline, trainOneDevice, runPipelineStep, stageBounds, type PipelineTrainOptions, type PipelineTrainResult } from "./train.js";
export { zeroBubblePassFlops, type PassFlopsOptions } from "./zeroBubblePassFlops.js";
