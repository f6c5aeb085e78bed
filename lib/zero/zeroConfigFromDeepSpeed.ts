/**
 * A parsed DeepSpeed config as the simulation's settings.
 */
import type { DeepSpeedConfig } from "./parseDeepSpeedConfig.js";
import type { ZeroConfig } from "./trainZero.js";

/**
 * The {@link ZeroConfig} fields a DeepSpeed config decides: stage, precision
 * (fp32 when neither fp16 nor bf16 is on), the knobs, and the loss scale
 * (fp16's initial dynamic scale 2^initial_scale_power, or its static scale;
 * the simulation keeps it fixed). The rank count is the caller's: the
 * simulation runs a few ranks, not the config's data-parallel size.
 *
 * @param ds from parseDeepSpeedConfig
 * @param numRanks P for the simulation
 * @returns `{numRanks, stage, precision, knobs, lossScale}`
 * @example zeroConfigFromDeepSpeed(parseDeepSpeedConfig({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 3 } }, undefined, { worldSize: 1 }), 4).stage // 3
 * @see DeepSpeed docs "DeepSpeed Configuration JSON" (zero_optimization, fp16, bf16)
 */
export function zeroConfigFromDeepSpeed(ds: DeepSpeedConfig, numRanks: number): ZeroConfig {
  const lossScale = ds.fp16 ? (ds.fp16.kind === "static" ? ds.fp16.block.loss_scale : 2 ** ds.fp16.block.initial_scale_power) : 1;
  return { numRanks, stage: ds.stage, precision: ds.precision, knobs: ds.knobs, lossScale };
}
