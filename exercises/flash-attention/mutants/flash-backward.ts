import type { Mutant } from "../../harness/index.js";
import type { AttentionShape, flashBackwardTiled, SlowMemory, TiledBackwardOptions } from "../flash-backward.js";

type F = typeof flashBackwardTiled;

/** The mistakes, each in a different place of Algorithm 2. */
interface Flaws {
  noD?: boolean; noScale?: boolean; unscaledP?: boolean; ignoreMask?: boolean; nanOnMaskedRows?: boolean;
  dQOverwrite?: boolean; rereadKV?: boolean; writeKVEveryStep?: boolean; dInLoop?: boolean; noValidation?: boolean;
}

const keepFn = (causal: TiledBackwardOptions["causal"], Nq: number, Nk: number) => (i: number, j: number) =>
  causal === undefined ? true : causal === "top-left" ? j <= i : j <= i + Nk - Nq;

function backward(mem: SlowMemory, shape: AttentionShape, o: TiledBackwardOptions, f: Flaws): void {
  if (!f.noValidation) for (const k of ["Br", "Bc"] as const) if (!Number.isInteger(o[k]) || o[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${o[k]}`);
  const { B, H, Nq, Nk, d } = shape;
  const { Br, Bc } = o;
  const scale = o.scale ?? 1 / Math.sqrt(d);
  const keep = keepFn(f.ignoreMask ? undefined : o.causal, Nq, Nk);
  const rowDot = (a: Float32Array, b: Float32Array, r: number) => { let s = 0; for (let x = 0; x < d; x++) s += a[r * d + x] * b[r * d + x]; return s; };
  for (let bh = 0; bh < B * H; bh++) {
    if (!f.dInLoop) for (let r0 = 0; r0 < Nq; r0 += Br) {
      const r1 = Math.min(Nq, r0 + Br);
      const Oi = mem.read("O", bh, r0, r1), dOi = mem.read("dO", bh, r0, r1);
      mem.write("D", bh, r0, r1, Array.from({ length: r1 - r0 }, (_, r) => rowDot(dOi, Oi, r)));
    }
    for (let c0 = 0; c0 < Nk; c0 += Bc) {
      const c1 = Math.min(Nk, c0 + Bc), bc = c1 - c0;
      let Kj = mem.read("K", bh, c0, c1), Vj = mem.read("V", bh, c0, c1);
      const dKj = new Float64Array(bc * d), dVj = new Float64Array(bc * d);
      for (let r0 = 0; r0 < Nq; r0 += Br) {
        const r1 = Math.min(Nq, r0 + Br), br = r1 - r0;
        if (f.rereadKV && r0 > 0) { Kj = mem.read("K", bh, c0, c1); Vj = mem.read("V", bh, c0, c1); }
        const Qi = mem.read("Q", bh, r0, r1), dOi = mem.read("dO", bh, r0, r1), Li = mem.read("L", bh, r0, r1);
        let Di: ArrayLike<number>;
        if (f.dInLoop) { const Oi = mem.read("O", bh, r0, r1); Di = Array.from({ length: br }, (_, r) => rowDot(dOi, Oi, r)); } else Di = mem.read("D", bh, r0, r1);
        const dQi = f.dQOverwrite ? new Float64Array(br * d) : Float64Array.from(mem.read("dQ", bh, r0, r1));
        for (let r = 0; r < br; r++) for (let c = 0; c < bc; c++) {
          let s = 0, dp = 0;
          for (let x = 0; x < d; x++) { s += Qi[r * d + x] * Kj[c * d + x]; dp += dOi[r * d + x] * Vj[c * d + x]; }
          const logit = f.unscaledP ? s : scale * s;
          let p: number;
          if (f.nanOnMaskedRows) p = Math.exp((keep(r0 + r, c0 + c) ? logit : -Infinity) - Li[r]);
          else p = Li[r] === -Infinity || !keep(r0 + r, c0 + c) ? 0 : Math.exp(logit - Li[r]);
          const ds = f.noD ? p * dp : p * (dp - Di[r]);
          const g = f.noScale ? 1 : scale;
          for (let x = 0; x < d; x++) {
            dVj[c * d + x] += p * dOi[r * d + x];
            dKj[c * d + x] += g * ds * Qi[r * d + x];
            dQi[r * d + x] += g * ds * Kj[c * d + x];
          }
        }
        mem.write("dQ", bh, r0, r1, dQi);
        if (f.writeKVEveryStep) { mem.write("dK", bh, c0, c1, dKj); mem.write("dV", bh, c0, c1, dVj); }
      }
      if (!f.writeKVEveryStep) { mem.write("dK", bh, c0, c1, dKj); mem.write("dV", bh, c0, c1, dVj); }
    }
  }
}

export const mutants: Record<string, Mutant<F>> = {
  "missing D term: dS = P ∘ dP (forgets the softmax's row sum)": {
    impl: (m, s, o) => backward(m, s, o, { noD: true }),
    caughtBy: ["the stub's example", "dK on random shapes and tiles", "dQ on random shapes and tiles"],
  },
  "forgets the softmax scale in dQ and dK": {
    impl: (m, s, o) => backward(m, s, o, { noScale: true }),
    caughtBy: ["dK on random shapes and tiles", "dQ on random shapes and tiles"],
  },
  "recomputes P from the unscaled scores exp(QKᵀ − L)": {
    impl: (m, s, o) => backward(m, s, o, { unscaledP: true }),
    caughtBy: ["dV on random shapes and tiles", "dK on random shapes and tiles", "dQ on random shapes and tiles"],
  },
  "ignores the causal mask in the backward pass": {
    impl: (m, s, o) => backward(m, s, o, { ignoreMask: true }),
    caughtBy: "causal masks and fully masked rows",
  },
  "masked scores as −Infinity in exp(S − L): NaN on fully masked rows (L = −Infinity)": {
    impl: (m, s, o) => backward(m, s, o, { nanOnMaskedRows: true }),
    caughtBy: "causal masks and fully masked rows",
  },
  "overwrites dQ_i with this key block's part instead of accumulating it": {
    impl: (m, s, o) => backward(m, s, o, { dQOverwrite: true }),
    caughtBy: ["dQ on random shapes and tiles", "slow-memory traffic equals Algorithm 2's"],
  },
  "re-reads K_j and V_j for every query block": {
    impl: (m, s, o) => backward(m, s, o, { rereadKV: true }),
    caughtBy: "slow-memory traffic equals Algorithm 2's",
  },
  "writes dK_j and dV_j back after every query block": {
    impl: (m, s, o) => backward(m, s, o, { writeKVEveryStep: true }),
    caughtBy: "slow-memory traffic equals Algorithm 2's",
  },
  "computes D_i from O_i inside the inner loop (reads O once per key block)": {
    impl: (m, s, o) => backward(m, s, o, { dInLoop: true }),
    caughtBy: "slow-memory traffic equals Algorithm 2's",
  },
  "no validation of Br and Bc": {
    impl: (m, s, o) => backward(m, s, o, { noValidation: true }),
    caughtBy: "rejects bad tile sizes (RangeError naming Br or Bc)",
  },
};
