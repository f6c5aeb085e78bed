import type { Mutant } from "../../harness/index.js";
import type { AttentionShape, flashForwardWorkgroups, ForwardOptions, WorkgroupDevice } from "../flash-forward-workgroups.js";

type F = typeof flashForwardWorkgroups;

/** The mistakes, each in a different place of the kernel. */
interface Flaws {
  rowsPerGroup1?: boolean; noRescale?: boolean; ignoreMask?: boolean; nanOnMaskedRows?: boolean;
  algorithm1Tiles?: boolean; kvInRegisters?: boolean; noValidation?: boolean;
}

/** The workgroup loop with one flaw switched on (same tile rule as the page otherwise). */
function forward(device: WorkgroupDevice, shape: AttentionShape, o: ForwardOptions, f: Flaws): void {
  const { B, H, Nq, Nk, d } = shape;
  const M = device.capacity;
  if (!f.noValidation && M < 3 * d + 4) throw new RangeError(`capacity = ${M} cannot hold one row of Q, K and V`);
  const scale = o.scale ?? 1 / Math.sqrt(d);
  const off = o.causal === undefined || f.ignoreMask ? Infinity : o.causal === "top-left" ? 0 : Nk - Nq;
  const fits = (br: number, bc: number) => br * d + 2 * bc * d + br * bc + 3 * br + (f.algorithm1Tiles ? br * d : 0) <= M;
  let Bc = Math.max(1, Math.ceil(M / (4 * d))), Br = Math.min(Bc, d);
  if (!f.algorithm1Tiles) while (!fits(Br, Bc)) { Bc--; Br = Math.min(Br, Bc); }
  if (f.rowsPerGroup1) Br = 1;
  if (f.kvInRegisters) Br = Nq; // one workgroup per head: Q tiles pass through, K and V are read once
  device.dispatch(Math.ceil(Nq / Br), B * H, (wg) => {
    const bh = wg.y, i0 = wg.x * Br, br = Math.min(Br, Nq - i0);
    const tileRows = f.kvInRegisters ? Math.min(Br, Math.max(1, Math.floor((M - 2 * Bc * d) / d))) : Br;
    const Qi = wg.alloc(tileRows * d), Kj = wg.alloc(Bc * d), Vj = wg.alloc(Bc * d);
    if (f.algorithm1Tiles) wg.alloc(Br * d + Br * Bc + 3 * Br); // O_i in workgroup memory as well
    const q = new Float64Array(br * d); // registers
    for (let r0 = 0; r0 < br; r0 += tileRows) {
      const n = Math.min(tileRows, br - r0);
      wg.load("Q", bh, i0 + r0, i0 + r0 + n, Qi);
      for (let x = 0; x < n * d; x++) q[r0 * d + x] = Qi[x];
    }
    const m = new Float64Array(br).fill(-Infinity), l = new Float64Array(br), acc = new Float64Array(br * d);
    const kEnd = Math.max(0, Math.min(Nk, i0 + br + off));
    for (let j0 = 0; j0 < kEnd; j0 += Bc) {
      const bc = Math.min(Bc, Nk - j0);
      wg.load("K", bh, j0, j0 + bc, Kj);
      wg.load("V", bh, j0, j0 + bc, Vj);
      for (let r = 0; r < br; r++) {
        const s = Array.from({ length: bc }, (_, c) => {
          if (j0 + c > i0 + r + off) return -Infinity;
          let t = 0;
          for (let x = 0; x < d; x++) t += q[r * d + x] * Kj[c * d + x];
          return t * scale;
        });
        const mNew = Math.max(m[r], ...s);
        const p = s.map((x) => (f.nanOnMaskedRows ? Math.exp(x - mNew) : mNew === -Infinity ? 0 : Math.exp(x - mNew)));
        const alpha = f.noRescale ? 1 : f.nanOnMaskedRows ? Math.exp(m[r] - mNew) : mNew === -Infinity ? 1 : Math.exp(m[r] - mNew);
        l[r] = alpha * l[r] + p.reduce((a, b) => a + b, 0);
        m[r] = mNew;
        for (let x = 0; x < d; x++) {
          let a = acc[r * d + x] * alpha;
          for (let c = 0; c < bc; c++) a += p[c] * Vj[c * d + x];
          acc[r * d + x] = a;
        }
      }
    }
    wg.store("O", bh, i0, i0 + br, Array.from(acc, (a, e) => (f.nanOnMaskedRows || l[Math.floor(e / d)] > 0 ? a / l[Math.floor(e / d)] : 0)));
    wg.store("L", bh, i0, i0 + br, Array.from(l, (x, r) => (f.nanOnMaskedRows || x > 0 ? m[r] + Math.log(x) : -Infinity)));
  });
}

export const mutants: Record<string, Mutant<F>> = {
  "one query row per workgroup (B_r = 1): K and V are read once per row": {
    impl: (dev, s, o) => forward(dev, s, o ?? {}, { rowsPerGroup1: true }),
    caughtBy: "slow-memory traffic within FlashAttention-2's bound",
  },
  "forgets to rescale ℓ and O by e^{m_old − m_new} when the max grows": {
    impl: (dev, s, o) => forward(dev, s, o ?? {}, { noRescale: true }),
    caughtBy: ["O and L on random shapes and capacities", "causal masks and fully masked rows"],
  },
  "ignores the causal mask": {
    impl: (dev, s, o) => forward(dev, s, o ?? {}, { ignoreMask: true }),
    caughtBy: "causal masks and fully masked rows",
  },
  "e^{−∞ − (−∞)}: NaN on fully masked rows": {
    impl: (dev, s, o) => forward(dev, s, o ?? {}, { nanOnMaskedRows: true }),
    caughtBy: "causal masks and fully masked rows",
  },
  "Algorithm 1's tiles (B_c = ⌈M/4d⌉) with O_i and the score tile in workgroup memory too: they do not fit": {
    impl: (dev, s, o) => forward(dev, s, o ?? {}, { algorithm1Tiles: true }),
    caughtBy: ["the stub's example", "O and L on random shapes and capacities"],
  },
  "one workgroup per head keeps every Q row in registers and reads K and V once (off chip)": {
    impl: (dev, s, o) => forward(dev, s, o ?? {}, { kvInRegisters: true }),
    caughtBy: "O and L on random shapes and capacities",
  },
  "no check of the capacity": {
    impl: (dev, s, o) => forward(dev, s, o ?? {}, { noValidation: true }),
    caughtBy: "rejects a workgroup memory too small for one row (RangeError naming capacity)",
  },
};
