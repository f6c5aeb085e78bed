import type { isCausalAllowed } from "../causal-mask.js";

type F = typeof isCausalAllowed;

function check(i: number, j: number, Nq: number, Nk: number): void {
  if (!Number.isInteger(Nq) || Nq < 1) throw new RangeError(`Nq must be an integer >= 1, got ${Nq}`);
  if (!Number.isInteger(Nk) || Nk < 1) throw new RangeError(`Nk must be an integer >= 1, got ${Nk}`);
  if (!Number.isInteger(i) || i < 0 || i >= Nq) throw new RangeError(`i must be an integer in [0, ${Nq}), got ${i}`);
  if (!Number.isInteger(j) || j < 0 || j >= Nk) throw new RangeError(`j must be an integer in [0, ${Nk}), got ${j}`);
}

export const mutants: Record<string, F> = {
  "top-left alignment (PyTorch is_causal) instead of bottom-right": (i, j, Nq, Nk) => { check(i, j, Nq, Nk); return j <= i; },
  "off by one: j < i + Nk − Nq": (i, j, Nq, Nk) => { check(i, j, Nq, Nk); return j < i + Nk - Nq; },
  "offset with the wrong sign: j ≤ i + Nq − Nk": (i, j, Nq, Nk) => { check(i, j, Nq, Nk); return j <= i + Nq - Nk; },
  "no range checks": (i, j, Nq, Nk) => j <= i + Nk - Nq,
};
