import type { paddedVocab } from "../pad-vocab.js";

type F = typeof paddedVocab;
function check(v: number, T: number, m: number): void {
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`vocabSize must be an integer >= 1, got ${v}`);
  if (!Number.isInteger(T) || T < 1) throw new RangeError(`T must be an integer >= 1, got ${T}`);
  if (!Number.isInteger(m) || m < 1) throw new RangeError(`makeVocabSizeDivisibleBy must be an integer >= 1, got ${m}`);
}

export const mutants = {
  "pads to a multiple of 128 only (forgets T)": { impl: ((v, T, m = 128) => { check(v, T, m); return Math.ceil(v / m) * m; }) as F, caughtBy: "Llama-2's 32000 for T = 1, 2, 4, 8" },
  "always adds a block (floor + 1 instead of ceil)": { impl: ((v, T, m = 128) => { check(v, T, m); return (Math.floor(v / (m * T)) + 1) * m * T; }) as F, caughtBy: "already a multiple; custom divisor" },
  "ignores a custom divisor": { impl: ((v, T, m = 128) => { check(v, T, m); return Math.ceil(v / (128 * T)) * 128 * T; }) as F, caughtBy: "already a multiple; custom divisor" },
  "accepts T = 0 (returns NaN)": { impl: ((v, T, m = 128) => Math.ceil(v / (m * T)) * m * T) as F, caughtBy: "bad input: RangeError naming the field" },
};
