/**
 * What standard attention needs on a WebGPU device, and whether the device has it: its
 * N×N score buffer must fit in one storage binding and one buffer. FlashAttention needs
 * no such buffer, which is why it runs where standard attention cannot.
 */
import type { AttentionShape } from "../../flash-attention/shape.js";

/**
 * The WebGPU limits that decide which attention kernel runs (bytes, invocations, workgroups).
 * @see the sources of {@link standardLimit}: WebGPU spec §3.6.2 (limits and their defaults)
 */
export interface DeviceLimits {
  maxComputeWorkgroupStorageSize: number;
  maxStorageBufferBindingSize: number;
  maxBufferSize: number;
  maxComputeInvocationsPerWorkgroup: number;
  maxComputeWorkgroupsPerDimension: number;
}

/** The limits every WebGPU device guarantees (a device requested without requiredLimits has exactly these). */
export const DEFAULT_LIMITS: DeviceLimits = {
  maxComputeWorkgroupStorageSize: 16384,
  maxStorageBufferBindingSize: 134217728,
  maxBufferSize: 268435456,
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupsPerDimension: 65535,
};

/**
 * Bytes of standard attention's score buffer S (P overwrites it in place): B·H·Nq·Nk float32.
 * @param shape B, H, Nq, Nk, d
 * @returns 4·B·H·Nq·Nk
 * @example standardScoresBytes({B: 1, H: 1, Nq: 8192, Nk: 8192, d: 16}) // 268435456 (256 MiB)
 * @see Dao et al. 2022, FlashAttention, Algorithm 0 (S and P written to HBM)
 */
export function standardScoresBytes(shape: AttentionShape): number {
  return 4 * shape.B * shape.H * shape.Nq * shape.Nk;
}

const mib = (b: number) => `${(b / 2 ** 20).toLocaleString("en", { maximumFractionDigits: 1 })} MiB`;

/**
 * Why standard attention cannot run `shape` on a device with `limits`, or null when it can.
 * @param shape B, H, Nq, Nk, d
 * @param limits the device's limits (default: WebGPU's guaranteed defaults)
 * @returns null, or a sentence naming the limit, e.g. "its N×N score buffer needs 256 MiB, over this device's maxStorageBufferBindingSize of 128 MiB"
 * @example standardLimit({B: 1, H: 1, Nq: 4096, Nk: 4096, d: 64}) // null (64 MiB fits)
 * @see WebGPU spec §3.6.2 (maxStorageBufferBindingSize default 128 MiB, maxBufferSize default 256 MiB)
 */
export function standardLimit(shape: AttentionShape, limits: DeviceLimits = DEFAULT_LIMITS): string | null {
  const bytes = standardScoresBytes(shape);
  if (bytes > limits.maxBufferSize) return `its N×N score buffer needs ${mib(bytes)}, over this device's maxBufferSize of ${mib(limits.maxBufferSize)}`;
  if (bytes > limits.maxStorageBufferBindingSize) return `its N×N score buffer needs ${mib(bytes)}, over this device's maxStorageBufferBindingSize of ${mib(limits.maxStorageBufferBindingSize)}`;
  const rows = shape.B * shape.H * shape.Nq;
  if (Math.ceil(rows / 65535) > limits.maxComputeWorkgroupsPerDimension) return `its ${rows} rows need more softmax workgroups than this device dispatches`;
  return null;
}
