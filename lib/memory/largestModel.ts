/**
 * The inverse of {@link modelStateBytes}: the largest model whose model states
 * fit in a GPU's memory under a ZeRO stage.
 */
import { modelStateBytes, type OptimizerName, type Precision, type ZeroStage } from "./modelStateBytes.js";

/** Options of {@link largestModel}. */
export interface LargestModelOptions {
  /** N_d, data-parallel GPUs over which ZeRO partitions, an integer in [1, 65536]. */
  dataParallel: number;
  zeroStage: ZeroStage;
  /** Memory per GPU for the model states, in bytes, an integer in [0, 2^40] (so that Ψ stays an exact integer). */
  gpuBytes: number;
  /** Default "fp16": the DeepSpeed design, 2 + 2 + K bytes per parameter. */
  precision?: Precision;
  /** Default "adamw" (K = 12). */
  optimizer?: OptimizerName;
}

const total = (m: { parameters: number; gradients: number; optimizerStates: number }) => m.parameters + m.gradients + m.optimizerStates;

/**
 * The largest parameter count Ψ whose model states per GPU (weights, gradients and
 * optimizer states, each partition ⌈Ψ/N_d⌉ whole elements as DeepSpeed pads them) take at
 * most `gpuBytes`: a search over Ψ, as the bytes grow with Ψ. The ZeRO paper's Table 2
 * ("maximum model size through memory analysis") divides instead, 32 GB / (2 + 2 + 12/N_d) for
 * stage 1, which the padding changes by at most a few parameters.
 * @param o the data-parallel degree, the stage, the bytes per GPU; the design (default fp16 + AdamW, K = 12)
 * @returns Ψ, an integer >= 0 (0 when not even one parameter fits)
 * @throws {RangeError} `gpuBytes must be an integer in [0, 2^40], got -1`, `dataParallel must be an integer in [1, 65536], got 0`,
 *   and as {@link modelStateBytes} (`zeroStage must be 0, 1, 2 or 3, got 4`)
 * @example largestModel({ dataParallel: 64, zeroStage: 3, gpuBytes: 32e9 }) // 128e9 (ZeRO Table 2: 128B)
 * @example largestModel({ dataParallel: 64, zeroStage: 1, gpuBytes: 32e9 }) // 7641791042 (ZeRO Table 2: 7.6B; its states take exactly 32e9 bytes)
 * @see Rajbhandari et al. 2019, *ZeRO*, §5.1 and Table 2 (maximum model size); DeepSpeed `stage_1_and_2.py` (padded partitions)
 */
export function largestModel(o: LargestModelOptions): number {
  if (!Number.isInteger(o.gpuBytes) || o.gpuBytes < 0 || o.gpuBytes > 2 ** 40) throw new RangeError(`gpuBytes must be an integer in [0, 2^40], got ${o.gpuBytes}`);
  if (!Number.isInteger(o.dataParallel) || o.dataParallel < 1 || o.dataParallel > 65536) throw new RangeError(`dataParallel must be an integer in [1, 65536], got ${o.dataParallel}`);
  const bytes = (params: number) => total(modelStateBytes({ params, dataParallel: o.dataParallel, zeroStage: o.zeroStage, precision: o.precision ?? "fp16", optimizer: o.optimizer ?? "adamw" }));
  const perParam = bytes(1); // every stage holds at least this much for one parameter
  if (perParam > o.gpuBytes) return 0;
  // every stage holds at least ⌈Ψ/N_d⌉ elements of every state: bytes(Ψ) >= b·Ψ/N_d with b the bytes of one
  // unpartitioned parameter, so Ψ <= gpuBytes · N_d / b (2^52 for fp16 + AdamW at the limits)
  const b = total(modelStateBytes({ params: 1, dataParallel: 1, zeroStage: 0, precision: o.precision ?? "fp16", optimizer: o.optimizer ?? "adamw" }));
  let lo = 1, hi = Math.floor((o.gpuBytes * o.dataParallel) / b) + 1;
  if (hi > Number.MAX_SAFE_INTEGER) throw new RangeError(`the answer for ${o.gpuBytes} bytes on ${o.dataParallel} GPUs exceeds 2^53 parameters: give fewer bytes or GPUs`);
  while (hi - lo > 1) { // bytes(lo) <= gpuBytes < bytes(hi)
    const mid = Math.floor((lo + hi) / 2);
    if (bytes(mid) <= o.gpuBytes) lo = mid; else hi = mid;
  }
  return lo;
}
