import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { attentionCaseArb, makeCase } from "./arbitraries.js";
import { createFlashAttentionKernel, createGpu, runFlashAttentionKernel } from "./flashAttentionKernel.js";
import { createStandardAttentionKernels, runStandardAttentionKernels } from "./standardAttentionKernels.js";
import { referenceAttention } from "./referenceAttention.js";
import { maxAbsDiff } from "./maxAbsDiff.js";


/** Float32 tolerance of both kernels against the float64-inside reference, for |logits| ≲ 10 and |V| ≤ 1. */
const KERNEL_TOL = 2e-5;

function lseClose(a: Float32Array, b: Float32Array, tol: number): boolean {
  return a.every((x, i) => (x === b[i]) || Math.abs(x - b[i]) <= tol * (1 + Math.abs(b[i])));
}

describe("gpu.js attention kernels", () => {
  it("runFlashAttentionKernel and runStandardAttentionKernels equal referenceAttention on a causal Nq ≠ Nk case, fully masked rows included", () => {
    const c = makeCase({ B: 2, H: 2, Nq: 9, Nk: 6, d: 5 }, 12, { causal: "bottom-right" });
    const ref = referenceAttention(c.q, c.k, c.v, c.shape, c.opts);
    for (const run of [runFlashAttentionKernel, runStandardAttentionKernels]) {
      const r = run(c.q, c.k, c.v, c.shape, c.opts);
      expect(maxAbsDiff(r.O, ref.O)).toBeLessThan(KERNEL_TOL);
      expect(lseClose(r.lse, ref.lse, KERNEL_TOL)).toBe(true);
      expect(Array.from(r.lse.subarray(0, 3))).toEqual([-Infinity, -Infinity, -Infinity]);
      expect(r.O.subarray(0, 15).every((x) => x === 0)).toBe(true);
    }
  });
  it("both kernels equal referenceAttention within 2e-5 for random shapes, masks and alignments (d from 1 to 9)", () => {
    const gpu = createGpu();
    try {
      fc.assert(fc.property(attentionCaseArb(12, 9), (c) => {
        const ref = referenceAttention(c.q, c.k, c.v, c.shape, c.opts);
        const fk = createFlashAttentionKernel(gpu, c.shape, c.opts);
        const sk = createStandardAttentionKernels(gpu, c.shape, c.opts);
        try {
          const f = fk.run(c.q, c.k, c.v);
          const s = sk.run(c.q, c.k, c.v);
          return maxAbsDiff(f.O, ref.O) < KERNEL_TOL && maxAbsDiff(s.O, ref.O) < KERNEL_TOL && lseClose(f.lse, ref.lse, KERNEL_TOL) && lseClose(s.lse, ref.lse, KERNEL_TOL);
        } finally {
          fk.destroy();
          sk.destroy();
        }
      }), { seed: 17, numRuns: 25 });
    } finally {
      gpu.destroy();
    }
  });
  it("compiled kernels give the same result when run again (output textures are reused, not freed)", () => {
    const gpu = createGpu();
    const c = makeCase({ B: 1, H: 1, Nq: 12, Nk: 10, d: 6 }, 4, {});
    const ref = referenceAttention(c.q, c.k, c.v, c.shape);
    const fk = createFlashAttentionKernel(gpu, c.shape);
    const sk = createStandardAttentionKernels(gpu, c.shape);
    for (let run = 0; run < 3; run++) {
      expect(maxAbsDiff(fk.run(c.q, c.k, c.v).O, ref.O)).toBeLessThan(KERNEL_TOL);
      expect(maxAbsDiff(sk.run(c.q, c.k, c.v).O, ref.O)).toBeLessThan(KERNEL_TOL);
    }
    fk.destroy(); sk.destroy(); gpu.destroy();
  });
  it("the flash kernel handles d = 256 and N not a multiple of 4", () => {
    const c = makeCase({ B: 1, H: 1, Nq: 7, Nk: 13, d: 256 }, 3, { causal: "top-left" });
    const ref = referenceAttention(c.q, c.k, c.v, c.shape, c.opts);
    expect(maxAbsDiff(runFlashAttentionKernel(c.q, c.k, c.v, c.shape, c.opts).O, ref.O)).toBeLessThan(KERNEL_TOL);
  });
  it("both kernels stay finite and close at logits of ±1e4 (float32 logits: error ≲ |logit|·2⁻²³·d)", () => {
    const c = makeCase({ B: 1, H: 1, Nq: 5, Nk: 8, d: 4 }, 8, { amplitude: 60 });
    const o = { scale: 1 };
    const ref = referenceAttention(c.q, c.k, c.v, c.shape, o);
    expect(Math.max(...Array.from(ref.lse, Math.abs))).toBeGreaterThan(1000);
    for (const run of [runFlashAttentionKernel, runStandardAttentionKernels]) {
      const r = run(c.q, c.k, c.v, c.shape, o);
      expect(r.O.some(Number.isNaN)).toBe(false);
      expect(maxAbsDiff(r.O, ref.O)).toBeLessThan(5e-3);
    }
  });
  it("the kernels report their memory: standard holds 2·N² floats of intermediates (S and P) and a texel per row (lse), flash none beyond O and lse", () => {
    const gpu = createGpu();
    const shape = { B: 1, H: 1, Nq: 64, Nk: 64, d: 16 };
    const sk = createStandardAttentionKernels(gpu, shape);
    const fk = createFlashAttentionKernel(gpu, shape);
    expect(sk.intermediateBytes).toBe((2 * 64 * 64 + 4 * 64) * 4);
    expect(fk.outputBytes).toBe(64 * (16 / 4 + 1) * 4 * 4);
    sk.destroy(); fk.destroy(); gpu.destroy();
  });
  it("createFlashAttentionKernel(…).run(q, k, v, mask) uses a new mask on each run of one compiled kernel (context parallelism's ring steps)", () => {
    const gpu = createGpu("cpu");
    const shape = { B: 1, H: 2, Nq: 5, Nk: 4, d: 3 };
    const c = makeCase(shape, 31, {});
    const fk = createFlashAttentionKernel(gpu, shape, { mask: new Uint8Array(20) });
    try {
      for (const seed of [1, 2, 3]) {
        const mask = Uint8Array.from({ length: 20 }, (_, i) => ((i * 7 + seed) % 3 === 0 ? 0 : 1));
        const ref = referenceAttention(c.q, c.k, c.v, shape, { mask });
        const out = fk.run(c.q, c.k, c.v, mask);
        expect(maxAbsDiff(out.O, ref.O)).toBeLessThan(KERNEL_TOL);
        expect(lseClose(out.lse, ref.lse, KERNEL_TOL)).toBe(true);
      }
      expect(() => fk.run(c.q, c.k, c.v, new Uint8Array(19))).toThrow(/^mask must have length 20 \(Nq·Nk\), got 19$/);
    } finally {
      fk.destroy();
    }
    const plain = createFlashAttentionKernel(gpu, shape);
    try {
      expect(() => plain.run(c.q, c.k, c.v, new Uint8Array(20))).toThrow(/compiled without a mask/);
    } finally {
      plain.destroy();
      gpu.destroy();
    }
  });
});
