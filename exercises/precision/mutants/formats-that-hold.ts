import type { formatsThatHold, FormatName } from "../formats-that-hold.js";

type F = typeof formatsThatHold;
type Mutant = { impl: F; caughtBy: string | string[] };

/** E, m of each format (the page's table), written out for the mutants. */
const SPECS: [FormatName, number, number][] = [["fp32", 8, 23], ["tf32", 8, 10], ["bf16", 8, 7], ["fp16", 5, 10], ["fp8-e5m2", 5, 2], ["fp8-e4m3", 4, 3]];

interface Options {
  subnormals?: boolean;
  /** fp8-e4m3 laid out as an IEEE format (largest 240, with infinities) */
  ieeeE4m3?: boolean;
  strictMax?: boolean;
  extraBit?: boolean;
  infinityEverywhere?: boolean;
  noNegativeZero?: boolean;
  /** the exponent as Math.round(Math.log2(|x|)): the binade above for values in its upper half */
  roundedLog?: boolean;
  spread?: boolean;
  some?: boolean;
  noCheck?: boolean;
}

function holds(x: number, E: number, m: number, name: FormatName, o: Options): boolean {
  if (Number.isNaN(x)) return true;
  if (x === 0) return !(o.noNegativeZero && Object.is(x, -0));
  const e4m3 = name === "fp8-e4m3" && !o.ieeeE4m3;
  if (!Number.isFinite(x)) return o.infinityEverywhere || !e4m3;
  const bias = 2 ** (E - 1) - 1, emin = 1 - bias;
  const emax = e4m3 ? 2 ** E - 1 - bias : 2 ** E - 2 - bias;
  const max = e4m3 ? 2 ** emax * (2 - 2 * 2 ** -m) : 2 ** emax * (2 - 2 ** -m);
  const a = Math.abs(x);
  if (o.strictMax ? a >= max : a > max) return false;
  let e = o.roundedLog ? Math.round(Math.log2(a)) : Math.floor(Math.log2(a));
  if (!o.roundedLog) { if (2 ** e > a) e--; if (2 ** (e + 1) <= a) e++; }
  if (e < emin && o.subnormals === false) return false;
  const q = 2 ** (Math.max(e, emin) - (o.extraBit ? m + 1 : m));
  return Number.isInteger(a / q);
}

const make = (o: Options = {}): F => (values) => {
  if (!o.noCheck) values.forEach((x, i) => { if (typeof x !== "number") throw new TypeError(`values[${i}] must be a number, got ${typeof x}`); });
  if (o.spread && values.length > 0) Math.max(...values.map(Math.abs)); // the range, "at a glance"
  const pick = o.some ? (f: (x: number) => boolean) => values.length === 0 || values.some(f) : (f: (x: number) => boolean) => values.every(f);
  return SPECS.filter(([name, E, m]) => pick((x) => holds(x, E, m, name, o))).map(([name]) => name);
};

export const mutants: Record<string, Mutant> = {
  "no subnormals: below the smallest normal value nothing fits": { caughtBy: ["the stub's example", "each format's smallest subnormal, and half of it"], impl: make({ subnormals: false }) },
  "fp8-e4m3 laid out as an IEEE format (largest 240, with infinities)": { caughtBy: ["each format's largest value, and the next value above it", "special values: ±0, NaN (any payload), ±Infinity"], impl: make({ ieeeE4m3: true }) },
  "the largest finite value counted as out of range (> instead of ≥)": { caughtBy: "each format's largest value, and the next value above it", impl: make({ strictMax: true }) },
  "one fraction bit too many (m + 1 significant bits after the point)": { caughtBy: ["precision: the last fraction bit of each format, in any binade", "random tensors drawn from each format"], impl: make({ extraBit: true }) },
  "Infinity counted in every format, fp8-e4m3 too": { caughtBy: "special values: ±0, NaN (any payload), ±Infinity", impl: make({ infinityEverywhere: true }) },
  "−0 taken as not a value": { caughtBy: "special values: ±0, NaN (any payload), ±Infinity", impl: make({ noNegativeZero: true }) },
  "the binade from Math.round(Math.log2(|x|)) (the one above, in a binade's upper half)": { caughtBy: ["next to a power of two, and far from 1", "precision: the last fraction bit of each format, in any binade"], impl: make({ roundedLog: true }) },
  "the range checked with Math.max(...values)": { caughtBy: "a million values (a loop, not a spread)", impl: make({ spread: true }) },
  "a format that holds some value, not every value": { caughtBy: ["a million values (a loop, not a spread)", "float64 values that no format holds"], impl: make({ some: true }) },
  "no check of the entries": { caughtBy: "bad input: a TypeError naming the index", impl: make({ noCheck: true }) },
};
