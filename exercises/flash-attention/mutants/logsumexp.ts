import type { Mutant } from "../../harness/index.js";
import type { logsumexp } from "../logsumexp.js";

type F = typeof logsumexp;

/** max, then m + log Σ exp(x − m), with the guards a student may forget. */
function shifted(xs: number[], o: { guardAllMasked?: boolean; guardInfinity?: boolean; checkNaN?: boolean; firstAsMax?: boolean }): number {
  if (o.checkNaN && xs.some(Number.isNaN)) return NaN;
  const m = o.firstAsMax ? (xs.length ? xs[0] : -Infinity) : Math.max(-Infinity, ...xs.filter((x) => !Number.isNaN(x)));
  if (o.guardAllMasked && m === -Infinity) return -Infinity;
  if (o.guardInfinity && m === Infinity) return Infinity;
  return m + Math.log(xs.reduce((s, x) => s + Math.exp(x - m), 0));
}

export const mutants: Record<string, Mutant<F>> = {
  "naive log(sum(exp(x))) overflows": {
    impl: (xs) => Math.log(xs.reduce((s, x) => s + Math.exp(x), 0)),
    caughtBy: ["the stub's example", "logits of ±1e4"],
  },
  "no guard for all −Infinity (NaN)": {
    impl: (xs) => shifted(xs, { guardInfinity: true, checkNaN: true }),
    caughtBy: "empty and fully masked rows",
  },
  "no guard for +Infinity (∞ − ∞ = NaN)": {
    impl: (xs) => shifted(xs, { guardAllMasked: true, checkNaN: true }),
    caughtBy: "infinities and NaN",
  },
  "returns +Infinity for a row with both +Infinity and NaN (checks Infinity before NaN)": {
    impl: (xs) => (xs.includes(Infinity) ? Infinity : shifted(xs, { guardAllMasked: true, guardInfinity: true, checkNaN: true })),
    caughtBy: "infinities and NaN",
  },
  "ignores NaN (Math.max over the finite entries only)": {
    impl: (xs) => shifted(xs.filter((x) => !Number.isNaN(x)), { guardAllMasked: true, guardInfinity: true }),
    caughtBy: "infinities and NaN",
  },
  "shifts by the first entry instead of the maximum (assumes a sorted row)": {
    impl: (xs) => shifted(xs, { guardAllMasked: true, guardInfinity: true, checkNaN: true, firstAsMax: true }),
    caughtBy: ["logits of ±1e4", "random rows"],
  },
  "returns the max only": {
    impl: (xs) => (xs.some(Number.isNaN) ? NaN : Math.max(-Infinity, ...xs)),
    caughtBy: ["the stub's example", "worked examples"],
  },
};
