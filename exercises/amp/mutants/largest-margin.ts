import type { Mutant } from "../../harness/index.js";
import { round } from "../../../lib/precision/round.js";
import type { largestMargin } from "../largest-margin.js";

type F = typeof largestMargin;
type Bug = "threshold-at-subnormal" | "float64-product" | "closed-form" | "no-flt-max" | "spread" | "signed-min" | "minus-zero-counts" | "zero-not-null" | "no-validation";
const FLT_MAX = 3.4028234663852886e38;

/** A correct search with one plausible mistake switched on. */
function margin(values: Float32Array, format: "fp8-e4m3" | "fp8-e5m2", bug?: Bug): number | null {
  const max = format === "fp8-e4m3" ? 448 : 57344, sub = format === "fp8-e4m3" ? 2 ** -9 : 2 ** -16;
  let amax = 0, smallest = Infinity;
  if (bug === "spread") { amax = Math.max(...values.map(Math.abs)); smallest = Math.min(...[...values].filter((x) => x !== 0).map(Math.abs)); }
  else {
    let signedMin = Infinity;
    for (const x of values) {
      if (!Number.isFinite(x) && bug !== "no-validation") throw new RangeError(`values must be finite, got ${x}`);
      amax = Math.max(amax, Math.abs(x));
      const nonzero = bug === "minus-zero-counts" ? !Object.is(x, 0) : x !== 0;
      if (nonzero && Math.abs(x) < smallest) smallest = Math.abs(x);
      if (nonzero && x < signedMin) signedMin = x;
    }
    if (bug === "signed-min") smallest = Math.abs(signedMin); // the most negative value's magnitude
  }
  if (amax === 0 && bug !== "no-validation") throw new RangeError("values must hold a nonzero value");
  if (bug === "closed-form") { const m = Math.floor(Math.log2((smallest * max) / amax / sub)); return m < 0 ? null : m; }
  let m = 0;
  for (; m < 400; m++) {
    let s = Math.fround(Math.fround(max * Math.fround(2 ** -m)) / amax);
    if (s === Infinity && bug !== "no-flt-max") s = FLT_MAX;
    const p = bug === "float64-product" ? smallest * s : Math.fround(smallest * s);
    const survives = bug === "threshold-at-subnormal" ? p >= sub : round(format, p) !== 0;
    if (!survives) break;
  }
  if (m === 0) return bug === "zero-not-null" ? 0 : null;
  return m - 1;
}
const m = (bug: Bug): F => (v, f) => margin(v, f, bug);

export const mutants: Record<string, Mutant<F>> = {
  "keeps a value only when |x|·scale reaches the smallest subnormal (forgets that the cast rounds up from above half of it)": { impl: m("threshold-at-subnormal"), caughtBy: "rounding at the underflow edge: the tie at half the smallest subnormal, and the float32 product" },
  "the product |x|·scale in float64": { impl: m("float64-product"), caughtBy: "rounding at the underflow edge: the tie at half the smallest subnormal, and the float32 product" },
  "a closed form ⌊log2(|x|min · fp8Max / amax / subnormal)⌋ without the casts": { impl: m("closed-form"), caughtBy: "rounding at the underflow edge: the tie at half the smallest subnormal, and the float32 product" },
  "a scale beyond float32 stays Infinity": { impl: m("no-flt-max"), caughtBy: "a tiny amax: the scale stops at the largest float32" },
  "Math.min(...values)": { impl: m("spread"), caughtBy: "a million values" },
  "the smallest signed value instead of the smallest magnitude": { impl: m("signed-min"), caughtBy: "signs and zeros" },
  "−0 counted as a nonzero value": { impl: m("minus-zero-counts"), caughtBy: "signs and zeros" },
  "0 instead of null when no margin works": { impl: m("zero-not-null"), caughtBy: "null when margin 0 already loses the value" },
  "no validation": { impl: m("no-validation"), caughtBy: "bad input throws a RangeError" },
};
