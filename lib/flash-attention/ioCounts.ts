/**
 * Closed-form slow-memory (HBM) traffic of standard attention (the paper's
 * Algorithm 0) and of FlashAttention's Algorithm 1, counted in elements as
 * the loops of `referenceAttention` and `flashAttentionForward` perform them.
 * Tests check the loop counters against these formulas.
 */
import { flashBlockSizes } from "./flashBlockSizes.js";
import { resolveAttention, type AttentionShape } from "./shape.js";

/**
 * Reads and writes of slow memory, in elements and in bytes.
 * @see the sources of {@link ioCount}: Dao et al. 2022, *FlashAttention*, §3.2 (IO complexity: HBM accesses)
 */
export interface IoCount {
  readElements: number;
  writeElements: number;
  /** readElements + writeElements */
  totalElements: number;
  readBytes: number;
  writeBytes: number;
  totalBytes: number;
}

/**
 * Builds an {@link IoCount} from element counts.
 * @param readElements elements read from slow memory (HBM)
 * @param writeElements elements written to slow memory
 * @param bytesPerElement 4 for fp32, 2 for fp16/bf16
 * @returns the counts in elements and in bytes
 * @example ioCount(10, 6, 2).totalBytes // 32
 * @see Dao et al. 2022, *FlashAttention*, §3.2 (IO complexity: HBM accesses)
 */
export function ioCount(readElements: number, writeElements: number, bytesPerElement: number): IoCount {
  return {
    readElements, writeElements, totalElements: readElements + writeElements,
    readBytes: readElements * bytesPerElement, writeBytes: writeElements * bytesPerElement,
    totalBytes: (readElements + writeElements) * bytesPerElement,
  };
}

/**
 * Throws `bytesPerElement must be an integer >= 1, got 0` unless bytesPerElement is a positive integer.
 * @param bytesPerElement 4 for fp32, 2 for fp16/bf16
 * @returns nothing
 * @throws RangeError `bytesPerElement must be an integer >= 1, got 0`
 * @example checkBytes(2) // returns undefined
 * @see the house rule on bad input (shared design.md: a RangeError naming the field and the allowed range)
 */
export function checkBytes(bytesPerElement: number): void {
  if (!(bytesPerElement > 0) || !Number.isInteger(bytesPerElement)) throw new RangeError(`bytesPerElement must be an integer >= 1, got ${bytesPerElement}`);
}

/**
 * HBM traffic of standard attention (Dao et al. 2022, Algorithm 0), per head:
 * read Q, K (Nq·d + Nk·d), write S (Nq·Nk); read S, write P (2·Nq·Nk);
 * read P, V (Nq·Nk + Nk·d), write O (Nq·d). Total 2·Nq·d + 2·Nk·d + 4·Nq·Nk,
 * i.e. Θ(Nd + N²) (Theorem 2). Each matrix product is assumed to read its
 * inputs once; masks are computed from indices and not read.
 * @param shape B, H, Nq, Nk, d (integers >= 1)
 * @param bytesPerElement 4 for fp32 (default), 2 for fp16/bf16
 * @returns reads and writes for all B·H heads
 * @throws RangeError `Nq must be an integer >= 1, got 0`, `bytesPerElement must be an integer >= 1, got 0`
 * @example standardAttentionIO({B: 1, H: 1, Nq: 4, Nk: 4, d: 2}).totalElements // 96 = 2·8 + 2·8 + 4·16
 * @see Dao et al. 2022, FlashAttention, Algorithm 0 and Theorem 2
 */
export function standardAttentionIO(shape: AttentionShape, bytesPerElement = 4): IoCount {
  resolveAttention(shape, {});
  checkBytes(bytesPerElement);
  const { B, H, Nq, Nk, d } = shape;
  const reads = Nq * d + Nk * d + Nq * Nk + Nq * Nk + Nk * d;
  const writes = Nq * Nk + Nq * Nk + Nq * d;
  return ioCount(B * H * reads, B * H * writes, bytesPerElement);
}

/**
 * HBM traffic of FlashAttention's Algorithm 1 with SRAM size M, per head,
 * with T_c = ⌈Nk/B_c⌉ key blocks: initialise O, ℓ, m (write Nq·d + 2·Nq);
 * load every K_j, V_j once (read 2·Nk·d); for each of the T_c outer steps,
 * load every Q_i, O_i, ℓ_i, m_i (read 2·Nq·d + 2·Nq) and write back O_i, ℓ_i,
 * m_i (write Nq·d + 2·Nq). Total Nq·d + 2·Nq + 2·Nk·d + T_c·(3·Nq·d + 4·Nq),
 * which is Θ(N²d²/M) since T_c ≈ 4Nd/M (Theorem 2). Ragged last blocks are
 * counted with their true sizes. The logsumexp m + log ℓ derived at the end is
 * not counted.
 * @param shape B, H, Nq, Nk, d (integers >= 1)
 * @param M SRAM size in elements, integer >= 1
 * @param bytesPerElement 4 for fp32 (default), 2 for fp16/bf16
 * @returns reads and writes for all B·H heads
 * @throws RangeError `M must be an integer >= 1, got 0` and as {@link standardAttentionIO}
 * @example flashAttentionIO({B: 1, H: 1, Nq: 4, Nk: 4, d: 2}, 16).totalElements // 112: T_c = 2; reads 16 + 2·(16 + 8), writes 8 + 8 + 2·(8 + 8)
 * @see Dao et al. 2022, FlashAttention, Algorithm 1 and Theorem 2
 */
export function flashAttentionIO(shape: AttentionShape, M: number, bytesPerElement = 4): IoCount {
  resolveAttention(shape, {});
  checkBytes(bytesPerElement);
  const { B, H, Nq, Nk, d } = shape;
  const { Bc } = flashBlockSizes(M, d);
  const Tc = Math.ceil(Nk / Bc);
  const reads = 2 * Nk * d + Tc * (2 * Nq * d + 2 * Nq);
  const writes = Nq * d + 2 * Nq + Tc * (Nq * d + 2 * Nq);
  return ioCount(B * H * reads, B * H * writes, bytesPerElement);
}

/**
 * HBM traffic of FlashAttention-2's forward loop order (outer loop over query
 * blocks, inner over key blocks; O_i and the logsumexp written once), per
 * head with T_r = ⌈Nq/B_r⌉: read Q once (Nq·d), read K and V once per query
 * block (T_r·2·Nk·d), write O and the logsumexp once (Nq·d + Nq). A formula
 * only: this chapter's CPU code implements Algorithm 1 of FlashAttention-1.
 * @param shape B, H, Nq, Nk, d (integers >= 1)
 * @param M SRAM size in elements, integer >= 1 (B_r from {@link flashBlockSizes})
 * @param bytesPerElement 4 for fp32 (default)
 * @returns reads and writes for all B·H heads
 * @throws RangeError as {@link flashAttentionIO}
 * @example flashAttention2IO({B: 1, H: 1, Nq: 4, Nk: 4, d: 2}, 16).totalElements // 52: T_r = 2; reads 8 + 2·2·8, writes 8 + 4
 * @see Dao 2023, FlashAttention-2, Algorithm 1 and §3.1
 */
export function flashAttention2IO(shape: AttentionShape, M: number, bytesPerElement = 4): IoCount {
  resolveAttention(shape, {});
  checkBytes(bytesPerElement);
  const { B, H, Nq, Nk, d } = shape;
  const { Br } = flashBlockSizes(M, d);
  const Tr = Math.ceil(Nq / Br);
  return ioCount(B * H * (Nq * d + Tr * 2 * Nk * d), B * H * (Nq * d + Nq), bytesPerElement);
}
