/**
 * FlashAttention's tile sizes for a WebGPU device, from the workgroup memory it offers:
 * chapter 10's rule (Algorithm 1: B_c = ⌈M/4d⌉, B_r = min(B_c, d)) with M the device's
 * `maxComputeWorkgroupStorageSize` counted in float32 elements.
 */
import { flashBlockSizes } from "../../flash-attention/flashBlockSizes.js";

/**
 * The tiles and thread layout of the WGSL FlashAttention kernel on one device.
 * @see the sources of {@link webgpuFlashTiles}: Dao et al. 2022, Algorithm 1 line 1; WebGPU spec, limits
 */
export interface FlashTiles {
  /** Workgroup memory in float32 elements: maxComputeWorkgroupStorageSize / 4. */
  M: number;
  /** Key/value rows per tile. */
  Bc: number;
  /** Query rows per workgroup. */
  Br: number;
  /** Threads per query row (a power of two). */
  G: number;
  /** Threads per workgroup: Br·G. */
  threads: number;
  /** Output columns each thread keeps in registers: ⌈d/G⌉. */
  colsPerThread: number;
  /** float32 elements of workgroup memory the kernel declares: Q_i, K_j, V_j, the score tile S_ij, and m, ℓ and the rescale factor of each row. */
  sharedElements: number;
}

/**
 * Elements of workgroup memory the kernel needs for tiles Br×d (Q_i), Bc×d (K_j, V_j),
 * Br×Bc (S_ij, then P_ij) and three per-row values (m, ℓ, e^{m_old − m_new}).
 * @param Br query rows
 * @param Bc key rows
 * @param d head dimension
 * @returns Br·d + 2·Bc·d + Br·Bc + 3·Br
 * @example flashSharedElements(16, 16, 64) // 3376 (13,504 bytes)
 * @see Dao 2023, FlashAttention-2, Algorithm 1 (the tiles on chip)
 */
export function flashSharedElements(Br: number, Bc: number, d: number): number {
  return Br * d + 2 * Bc * d + Br * Bc + 3 * Br;
}

/**
 * Tile sizes for the WGSL FlashAttention kernel from a device's limits.
 *
 * M = ⌊storageBytes / 4⌋ float32 elements; B_c = ⌈M/4d⌉ and B_r = min(B_c, d) as chapter 10
 * derives for SRAM. Algorithm 1's 4d per row counts the tiles Q_i, K_j, V_j and O_i; here O_i
 * stays in the threads' registers and the B_r×B_c score tile takes its place, so the kernel
 * declares {@link flashSharedElements}(B_r, B_c, d) ≤ M (if the rounding up of ⌈M/4d⌉ overshoots,
 * B_c shrinks until it fits). Each query row gets G threads (the largest power of two with
 * B_r·G ≤ maxInvocations and G ≤ d), each keeping ⌈d/G⌉ output columns.
 * @param storageBytes the device's maxComputeWorkgroupStorageSize (16,384 by default in WebGPU)
 * @param d head dimension, integer >= 1
 * @param maxInvocations the device's maxComputeInvocationsPerWorkgroup (256 by default)
 * @returns the tiles and thread layout
 * @throws {RangeError} `storageBytes must be an integer >= 4, got 0`; `d must be an integer >= 1, got 0`;
 *   `maxInvocations must be an integer >= 1, got 0`; `d = 2000 does not fit: one query row and one key row (3·d + 4 elements) exceed M = 4096`
 * @example webgpuFlashTiles(16384, 64) // {M: 4096, Bc: 16, Br: 16, G: 16, threads: 256, colsPerThread: 4, sharedElements: 3376}
 * @see Dao et al. 2022, FlashAttention, Algorithm 1 line 1; WebGPU spec §3.6.2 (maxComputeWorkgroupStorageSize, default 16384;
 *   maxComputeInvocationsPerWorkgroup, default 256)
 */
export function webgpuFlashTiles(storageBytes: number, d: number, maxInvocations = 256): FlashTiles {
  if (!Number.isInteger(storageBytes) || storageBytes < 4) throw new RangeError(`storageBytes must be an integer >= 4, got ${storageBytes}`);
  if (!Number.isInteger(d) || d < 1) throw new RangeError(`d must be an integer >= 1, got ${d}`);
  if (!Number.isInteger(maxInvocations) || maxInvocations < 1) throw new RangeError(`maxInvocations must be an integer >= 1, got ${maxInvocations}`);
  const M = Math.floor(storageBytes / 4);
  if (flashSharedElements(1, 1, d) > M) throw new RangeError(`d = ${d} does not fit: one query row and one key row (3·d + 4 elements) exceed M = ${M}`);
  let { Bc, Br } = flashBlockSizes(M, d);
  Br = Math.min(Br, maxInvocations);
  while (flashSharedElements(Br, Bc, d) > M) {
    Bc -= 1;
    Br = Math.min(Br, Bc);
  }
  let G = 1;
  while (2 * G * Br <= maxInvocations && 2 * G <= d) G *= 2;
  return { M, Bc, Br, G, threads: Br * G, colsPerThread: Math.ceil(d / G), sharedElements: flashSharedElements(Br, Bc, d) };
}
