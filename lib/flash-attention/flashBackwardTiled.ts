/**
 * FlashAttention's backward pass (FlashAttention-2, Algorithm 2) written
 * against a counted slow memory: the reference solution of exercise 10.5 and
 * the closed form of its slow-memory traffic.
 */
import { resolveAttention, type AttentionOptions, type AttentionShape } from "./shape.js";
import { SLOW_TENSORS, type SlowMemory, type SlowTensorName } from "./slowMemory.js";

/**
 * Options of {@link flashBackwardTiled}: the tile sizes, and the masking and scale of the forward pass.
 * @see the sources of {@link flashBackwardTiled}: Dao 2023, FlashAttention-2, Algorithm 2
 */
export interface TiledBackwardOptions {
  /** Query rows per tile, integer >= 1. */
  Br: number;
  /** Key rows per tile, integer >= 1. */
  Bc: number;
  causal?: AttentionOptions["causal"];
  /** Softmax scale; default 1/√d. */
  scale?: number;
}

function checkTiles(o: TiledBackwardOptions): void {
  for (const [k, v] of [["Br", o.Br], ["Bc", o.Bc]] as const) if (!Number.isInteger(v) || v < 1) throw new RangeError(`${k} must be an integer >= 1, got ${v}`);
}

/**
 * Gradients dQ, dK, dV of attention, tile by tile, from Q, K, V, O, dO and L in slow memory.
 *
 * First Dᵢ = rowsum(dOᵢ ∘ Oᵢ) for every query block (written to D). Then for
 * each key block j (load Kⱼ, Vⱼ; dKⱼ = dVⱼ = 0 on chip) and each query block
 * i (load Qᵢ, dOᵢ, Lᵢ, Dᵢ, dQᵢ): Pᵢⱼ = exp(scale·QᵢKⱼᵀ − Lᵢ) (0 where masked
 * or Lᵢ = −∞), dVⱼ += PᵢⱼᵀdOᵢ, dSᵢⱼ = Pᵢⱼ ∘ (dOᵢVⱼᵀ − Dᵢ), dQᵢ += scale·dSᵢⱼKⱼ
 * (written back), dKⱼ += scale·dSᵢⱼᵀQᵢ; after the inner loop write dKⱼ, dVⱼ.
 * Every tile is visited (no causal block skipping), so the traffic equals
 * {@link flashBackwardIO}.
 * @param mem slow memory holding Q, K, V, O, dO (B,H,N,d) and L (B,H,Nq); receives D, dQ, dK, dV
 * @param shape B, H, Nq, Nk, d
 * @param o Br, Bc, causal, scale
 * @returns nothing: the gradients are in mem
 * @throws RangeError `Br must be an integer >= 1, got 0` (likewise Bc) before any access, and those of {@link resolveAttention}
 * @example flashBackwardTiled(mem, {B: 1, H: 1, Nq: 1, Nk: 2, d: 1}, {Br: 1, Bc: 2, scale: 1}) // with Q = [1], K = [0, ln 3], V = [4, 8], dO = [1]: dQ = [0.75·ln 3], dK = [−0.75, 0.75], dV = [0.25, 0.75]
 * @see Dao 2023, FlashAttention-2, Algorithm 2; Dao et al. 2022, FlashAttention, Appendix B.2 (the gradient of the softmax)
 */
export function flashBackwardTiled(mem: SlowMemory, shape: AttentionShape, o: TiledBackwardOptions): void {
  checkTiles(o);
  const { scale, keep } = resolveAttention(shape, {}, { causal: o.causal, scale: o.scale });
  const { B, H, Nq, Nk, d } = shape;
  const { Br, Bc } = o;
  for (let bh = 0; bh < B * H; bh++) {
    for (let r0 = 0; r0 < Nq; r0 += Br) {
      const r1 = Math.min(Nq, r0 + Br);
      const Oi = mem.read("O", bh, r0, r1), dOi = mem.read("dO", bh, r0, r1); // (br, d)
      const Di = new Float64Array(r1 - r0);
      for (let r = 0; r < r1 - r0; r++) for (let x = 0; x < d; x++) Di[r] += dOi[r * d + x] * Oi[r * d + x];
      mem.write("D", bh, r0, r1, Di);
    }
    for (let c0 = 0; c0 < Nk; c0 += Bc) {
      const c1 = Math.min(Nk, c0 + Bc), bc = c1 - c0;
      const Kj = mem.read("K", bh, c0, c1), Vj = mem.read("V", bh, c0, c1); // (bc, d)
      const dKj = new Float64Array(bc * d), dVj = new Float64Array(bc * d);
      for (let r0 = 0; r0 < Nq; r0 += Br) {
        const r1 = Math.min(Nq, r0 + Br), br = r1 - r0;
        const Qi = mem.read("Q", bh, r0, r1), dOi = mem.read("dO", bh, r0, r1);
        const Li = mem.read("L", bh, r0, r1), Di = mem.read("D", bh, r0, r1);
        const dQi = Float64Array.from(mem.read("dQ", bh, r0, r1)); // (br, d)
        for (let r = 0; r < br; r++) for (let c = 0; c < bc; c++) {
          let s = 0, dp = 0;
          for (let x = 0; x < d; x++) { s += Qi[r * d + x] * Kj[c * d + x]; dp += dOi[r * d + x] * Vj[c * d + x]; }
          const p = Li[r] === -Infinity || !keep(r0 + r, c0 + c) ? 0 : Math.exp(scale * s - Li[r]);
          const ds = p * (dp - Di[r]);
          for (let x = 0; x < d; x++) {
            dVj[c * d + x] += p * dOi[r * d + x];
            dKj[c * d + x] += scale * ds * Qi[r * d + x];
            dQi[r * d + x] += scale * ds * Kj[c * d + x];
          }
        }
        mem.write("dQ", bh, r0, r1, dQi);
      }
      mem.write("dK", bh, c0, c1, dKj);
      mem.write("dV", bh, c0, c1, dVj);
    }
  }
}

/**
 * Elements of each tensor that {@link flashBackwardTiled} reads and writes, per call.
 *
 * Per head, with T_c = ⌈Nk/Bc⌉: reads O: Nq·d; dO: Nq·d + T_c·Nq·d; K, V: Nk·d
 * each; Q, dQ: T_c·Nq·d each; L, D: T_c·Nq each. Writes D: Nq; dQ: T_c·Nq·d;
 * dK, dV: Nk·d each. All times B·H. Q, dO, L, D and dQ are re-read once per
 * key block: the price of never storing P.
 * @param shape B, H, Nq, Nk, d
 * @param o Br, Bc (only Bc changes the counts)
 * @returns {reads, writes}: elements per tensor name
 * @throws RangeError `Bc must be an integer >= 1, got 0` and those of {@link resolveAttention}
 * @example flashBackwardIO({B: 1, H: 1, Nq: 4, Nk: 4, d: 2}, {Br: 2, Bc: 2}).reads.Q // 16 (T_c = 2 passes over 4·2 elements)
 * @see Dao 2023, FlashAttention-2, Algorithm 2; Dao et al. 2022, FlashAttention, Theorem 5 (backward IO complexity)
 */
export function flashBackwardIO(shape: AttentionShape, o: { Br: number; Bc: number }): { reads: Record<SlowTensorName, number>; writes: Record<SlowTensorName, number> } {
  checkTiles(o);
  resolveAttention(shape, {});
  const { B, H, Nq, Nk, d } = shape;
  const Tc = Math.ceil(Nk / o.Bc), heads = B * H;
  const zero = () => Object.fromEntries(SLOW_TENSORS.map((n) => [n, 0])) as Record<SlowTensorName, number>;
  const reads = zero(), writes = zero();
  reads.O = heads * Nq * d;
  reads.dO = heads * (Nq * d + Tc * Nq * d);
  reads.K = reads.V = heads * Nk * d;
  reads.Q = reads.dQ = heads * Tc * Nq * d;
  reads.L = reads.D = heads * Tc * Nq;
  writes.D = heads * Nq;
  writes.dQ = heads * Tc * Nq * d;
  writes.dK = writes.dV = heads * Nk * d;
  return { reads, writes };
}
