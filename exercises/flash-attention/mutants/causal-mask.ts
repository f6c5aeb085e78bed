import type { Mutant } from "../../harness/index.js";
import type { isCausalAllowed } from "../causal-mask.js";

type F = typeof isCausalAllowed;

function check(i: number, j: number, Nq: number, Nk: number, o: { plainError?: boolean; noIntegerCheck?: boolean } = {}): void {
  const E = o.plainError ? Error : RangeError;
  const int = (v: number) => o.noIntegerCheck || Number.isInteger(v);
  if (!int(Nq) || !(Nq >= 1)) throw new E(`Nq must be an integer >= 1, got ${Nq}`);
  if (!int(Nk) || !(Nk >= 1)) throw new E(`Nk must be an integer >= 1, got ${Nk}`);
  if (!int(i) || !(i >= 0 && i < Nq)) throw new E(`i must be an integer in [0, ${Nq}), got ${i}`);
  if (!int(j) || !(j >= 0 && j < Nk)) throw new E(`j must be an integer in [0, ${Nk}), got ${j}`);
}
const bottomRight = (i: number, j: number, Nq: number, Nk: number) => j <= i + Nk - Nq;

export const mutants: Record<string, Mutant<F>> = {
  "top-left alignment (PyTorch is_causal) instead of bottom-right": {
    impl: (i, j, Nq, Nk) => { check(i, j, Nq, Nk); return j <= i; },
    caughtBy: ["the stub's example", "README example Nq = 2, Nk = 5"],
  },
  "off by one: j < i + Nk − Nq": {
    impl: (i, j, Nq, Nk) => { check(i, j, Nq, Nk); return j < i + Nk - Nq; },
    caughtBy: "square masks are lower triangular",
  },
  "offset with the wrong sign: j ≤ i + Nq − Nk": {
    impl: (i, j, Nq, Nk) => { check(i, j, Nq, Nk); return j <= i + Nq - Nk; },
    caughtBy: ["the stub's example", "random shapes"],
  },
  "no range checks": {
    impl: bottomRight,
    caughtBy: "rejects out-of-range indices (RangeError naming the field)",
  },
  "range checks without the integer test (accepts j = 1.5, Nq = Infinity)": {
    impl: (i, j, Nq, Nk) => { check(i, j, Nq, Nk, { noIntegerCheck: true }); return bottomRight(i, j, Nq, Nk); },
    caughtBy: "rejects out-of-range indices (RangeError naming the field)",
  },
  "throws a plain Error instead of a RangeError": {
    impl: (i, j, Nq, Nk) => { check(i, j, Nq, Nk, { plainError: true }); return bottomRight(i, j, Nq, Nk); },
    caughtBy: "rejects out-of-range indices (RangeError naming the field)",
  },
};
