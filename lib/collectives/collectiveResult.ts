import type { CostModel } from "./costModel.js";
import { DEFAULT_COST_MODEL } from "./costModel.js";
import type { ReduceFn } from "./addChunk.js";
import type { CommEvent, World } from "./World.js";

/**
 * Options shared by every collective.
 * @see the sources of {@link costOf}: lib/collectives/costModel.ts (the α-β model, Hockney 1994)
 */
export interface CollectiveOptions {
  /** α-β cost model (default {@link DEFAULT_COST_MODEL}: 5 µs, 25 GB/s). */
  cost?: CostModel;
  /** Bytes per element for the byte counts and times (default 4: float32). */
  bytesPerElement?: number;
  /** The reduction step (default: CPU float32 add; or a gpu.js kernel from reduceKernel.ts). */
  reduce?: ReduceFn;
}

/**
 * What every collective returns: the per-rank result and the message log, with totals.
 * @see the sources of {@link costOf}: lib/collectives/costModel.ts (the α-β model, Hockney 1994)
 */
export interface CollectiveResult {
  /** One Float32Array per rank, the collective's output on that rank. */
  result: Float32Array[];
  /** Every message, in order: `{step, t, tEnd, sender, receiver, chunk, bytes, kind, …}`. */
  events: CommEvent[];
  /** Time of the whole collective in seconds (the latest rank clock). */
  timeS: number;
  /** Number of steps that carried at least one message. */
  numSteps: number;
  /** Bytes each rank sent. */
  bytesSentPerRank: number[];
  /** Bytes each rank received. */
  bytesReceivedPerRank: number[];
}

/**
 * The cost model to use for `options`.
 * @param options the collective's options
 * @returns `options.cost`, or {@link DEFAULT_COST_MODEL} when absent
 * @example costOf({}).bandwidthBytesPerS // 25e9
 * @see lib/collectives/costModel.ts (the α-β model, Hockney 1994)
 */
export function costOf(options: CollectiveOptions): CostModel {
  return options.cost ?? DEFAULT_COST_MODEL;
}

/**
 * Packs a world's state into a {@link CollectiveResult} with the given per-rank outputs.
 * @param world the world after the collective's last step
 * @param result the per-rank outputs (P arrays)
 * @returns `{result, events, timeS, numSteps, bytesSentPerRank, bytesReceivedPerRank}` (per-rank arrays copied)
 * @example resultOf(world, world.buffers).numSteps // world.numSteps
 * @see the house rule "simulators return {result, events}" (shared design.md); {@link World}
 */
export function resultOf(world: World, result: Float32Array[]): CollectiveResult {
  return {
    result,
    events: world.events,
    timeS: world.timeS,
    numSteps: world.numSteps,
    bytesSentPerRank: world.bytesSent.slice(),
    bytesReceivedPerRank: world.bytesReceived.slice(),
  };
}
