/**
 * FlashAttention-2's forward pass written against the workgroup model of
 * createWorkgroupDevice: the loop the WGSL kernel (lib/kernels/webgpu/flashAttentionWgsl.ts)
 * runs, one workgroup per (head, block of B_r query rows), in TypeScript.
 */
import { resolveAttention, type AttentionOptions, type AttentionShape } from "./shape.js";
import type { WorkgroupDevice } from "./createWorkgroupDevice.js";
import { webgpuFlashTiles } from "../kernels/webgpu/webgpuFlashTiles.js";

/**
 * The tiles for a workgroup memory of `capacity` float32 elements: chapter 10's B_c = ⌈M/4d⌉,
 * B_r = min(B_c, d) with M = capacity, B_c shrunk until Q_i, K_j, V_j, S_ij and three values per
 * row fit (O_i stays in registers), as the WGSL kernel does.
 * @param capacity workgroup memory in elements
 * @param d head dimension
 * @returns {Br, Bc}
 * @throws {RangeError} `capacity = 100 elements cannot hold one row of Q, K and V (3·d + 4 = 196)`
 * @example workgroupTiles(4096, 64) // {Br: 16, Bc: 16}
 * @see webgpuFlashTiles; Dao et al. 2022, FlashAttention, Algorithm 1 line 1
 */
export function workgroupTiles(capacity: number, d: number): { Br: number; Bc: number } {
  if (Number.isInteger(capacity) && Number.isInteger(d) && d >= 1 && capacity < 3 * d + 4) throw new RangeError(`capacity = ${capacity} elements cannot hold one row of Q, K and V (3·d + 4 = ${3 * d + 4})`);
  const { Br, Bc } = webgpuFlashTiles(4 * capacity, d, 2 ** 20);
  return { Br, Bc };
}

/**
 * Slow-memory elements FlashAttention-2's forward pass moves with B_r from {@link workgroupTiles}:
 * per head, Q read once (Nq·d), K and V read once per query block (2·⌈Nq/B_r⌉·Nk·d), O written
 * once (Nq·d) and L once (Nq). Exercise 10.6's traffic bound (unmasked problems).
 * @param shape B, H, Nq, Nk, d
 * @param capacity workgroup memory in elements
 * @returns B·H·(2·Nq·d + Nq + 2·⌈Nq/B_r⌉·Nk·d)
 * @example flashForwardTraffic({B: 1, H: 1, Nq: 64, Nk: 64, d: 64}, 4096) // 2·4096 + 64 + 2·4·4096 = 41,024
 * @see Dao 2023, FlashAttention-2, Algorithm 1 (lines 4, 6, 12–13) and §3.2
 */
export function flashForwardTraffic(shape: AttentionShape, capacity: number): number {
  const { B, H, Nq, Nk, d } = shape;
  const { Br } = workgroupTiles(capacity, d);
  return B * H * (2 * Nq * d + Nq + 2 * Math.ceil(Nq / Br) * Nk * d);
}

/**
 * Computes O = softmax(scale·QKᵀ + mask)·V and the logsumexp L of every query row on a
 * {@link WorkgroupDevice}, leaving them in its slow memory, never holding more than one
 * query block and one key tile on chip.
 *
 * Grid (⌈Nq/B_r⌉, B·H). Workgroup (x, y) = (query block, head): loads Q_i once, then for each
 * key tile K_j, V_j (skipping tiles past the block's last kept key when causal): S = scale·Q_i K_jᵀ,
 * m' = max(m, rowmax S), P = e^{S − m'}, ℓ = e^{m − m'}ℓ + rowsum P, O_i = e^{m − m'}O_i + P V_j
 * (O_i in registers, unnormalised); finally O_i / ℓ and L = m + log ℓ (−∞, O = 0 for a fully
 * masked row).
 * @param device the workgroup model (createWorkgroupDevice)
 * @param shape B, H, Nq, Nk, d
 * @param o causal alignment and scale (default 1/√d); no arbitrary mask
 * @returns nothing: O and L are left in the device's slow memory
 * @throws {RangeError} shape errors as resolveAttention; `capacity = … cannot hold one row of Q, K and V (…)`
 * @example flashForwardWorkgroups(createWorkgroupDevice({Q, K, V}, shape, 4096), shape) // then device.O ≈ referenceAttention(Q, K, V, shape).O
 * @see Dao 2023, FlashAttention-2, Algorithm 1 and §3.1.1; lib/kernels/webgpu/flashAttentionWgsl.ts (the same loop in WGSL)
 */
export function flashForwardWorkgroups(device: WorkgroupDevice, shape: AttentionShape, o: Pick<AttentionOptions, "causal" | "scale"> = {}): void {
  const { scale } = resolveAttention(shape, {}, o);
  const { B, H, Nq, Nk, d } = shape;
  const { Br, Bc } = workgroupTiles(device.capacity, d);
  const offset = o.causal === undefined ? Infinity : o.causal === "top-left" ? 0 : Nk - Nq; // key j kept for row i iff j ≤ i + offset
  device.dispatch(Math.ceil(Nq / Br), B * H, (wg) => {
    const bh = wg.y, i0 = wg.x * Br, br = Math.min(Br, Nq - i0);
    const Qi = wg.alloc(Br * d), Kj = wg.alloc(Bc * d), Vj = wg.alloc(Bc * d), S = wg.alloc(Br * Bc);
    const m = wg.alloc(Br).fill(-Infinity), l = wg.alloc(Br), alpha = wg.alloc(Br);
    const acc = new Float64Array(br * d); // registers: O_i, unnormalised
    wg.load("Q", bh, i0, i0 + br, Qi);
    const kEnd = Math.max(0, Math.min(Nk, i0 + br + offset)); // keys past the block's last row's diagonal are skipped
    for (let j0 = 0; j0 < kEnd; j0 += Bc) {
      const bc = Math.min(Bc, Nk - j0);
      wg.load("K", bh, j0, j0 + bc, Kj);
      wg.load("V", bh, j0, j0 + bc, Vj);
      for (let r = 0; r < br; r++) {
        let mNew = m[r];
        for (let c = 0; c < bc; c++) {
          let s = -Infinity;
          if (j0 + c <= i0 + r + offset) {
            s = 0;
            for (let x = 0; x < d; x++) s += Qi[r * d + x] * Kj[c * d + x];
            s *= scale;
          }
          S[r * Bc + c] = s; // (Br, Bc)
          mNew = Math.max(mNew, S[r * Bc + c]);
        }
        let rowSum = 0;
        for (let c = 0; c < bc; c++) {
          const p = mNew === -Infinity ? 0 : Math.exp(S[r * Bc + c] - mNew);
          S[r * Bc + c] = p;
          rowSum += p;
        }
        alpha[r] = mNew === -Infinity ? 1 : Math.exp(m[r] - mNew);
        l[r] = alpha[r] * l[r] + rowSum;
        m[r] = mNew;
        for (let x = 0; x < d; x++) {
          let a = acc[r * d + x] * alpha[r];
          for (let c = 0; c < bc; c++) a += S[r * Bc + c] * Vj[c * d + x];
          acc[r * d + x] = a; // (br, d)
        }
      }
    }
    const out = new Float64Array(br * d), lse = new Float64Array(br);
    for (let r = 0; r < br; r++) {
      lse[r] = l[r] > 0 ? m[r] + Math.log(l[r]) : -Infinity;
      for (let x = 0; x < d; x++) out[r * d + x] = l[r] > 0 ? acc[r * d + x] / l[r] : 0;
    }
    wg.store("O", bh, i0, i0 + br, out);
    wg.store("L", bh, i0, i0 + br, lse);
  });
}
