import type { Mutant } from "../../harness/index.js";
import type { meanSquare } from "../mean-square.js";

// TODO: the plausible mistakes of a student, each with the check that must catch it.
export const mutants: Record<string, Mutant<typeof meanSquare>> = {
  "sums the squares without dividing by n": {
    impl: (xs) => { if (xs.length === 0) throw new RangeError("xs must not be empty"); return xs.reduce((s, x) => s + x * x, 0); },
    caughtBy: ["the stub's example", "random arrays"],
  },
  "returns NaN for an empty array instead of throwing": {
    impl: (xs) => xs.reduce((s, x) => s + x * x, 0) / xs.length,
    caughtBy: "an empty array throws a RangeError",
  },
};
