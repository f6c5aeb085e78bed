import type { Mutant } from "../../harness/index.js";
import type { tpSizesForPaddedVocab } from "../vocab-tp-sizes.js";

type F = typeof tpSizesForPaddedVocab;
interface Options { maxT?: number; divisorOnly?: boolean; strictBelow?: boolean; firstOnly?: boolean; noCheck?: boolean }

const make = (o: Options = {}): F => (v, rows, m = 128) => {
  if (!o.noCheck) for (const [k, x] of [["vocabSize", v], ["paddedRows", rows], ["makeVocabSizeDivisibleBy", m]] as const) if (!Number.isInteger(x) || x < 1) throw new RangeError(`${k} must be an integer >= 1, got ${x}`);
  const out: number[] = [];
  for (let T = 1; T * m <= rows && T <= (o.maxT ?? Infinity); T++) {
    const mult = T * m;
    if (rows % mult !== 0) continue;
    const padded = Math.ceil(v / mult) * mult;
    if (o.divisorOnly ? rows >= v : o.strictBelow ? padded === rows && rows > v : padded === rows) out.push(T);
    if (o.firstOnly && out.length) break;
  }
  return out;
};

export const mutants: Record<string, Mutant<F>> = {
  "T only up to 64 (the largest a cluster would use)": { impl: make({ maxT: 64 }), caughtBy: "GPT-2's 50,304 rows: T = 1 is not the only answer" },
  "every T whose multiple divides the rows (the vocabulary not checked)": { impl: make({ divisorOnly: true }), caughtBy: ["the stub's example", "random checkpoints"] },
  "no T when the vocabulary needs no padding": { impl: make({ strictBelow: true }), caughtBy: "a vocabulary that needs no padding; rows it cannot have" },
  "the smallest T only": { impl: make({ firstOnly: true }), caughtBy: ["the stub's example", "random checkpoints"] },
  "no check of the sizes": { impl: make({ noCheck: true }), caughtBy: "bad input: RangeError naming the field" },
};
