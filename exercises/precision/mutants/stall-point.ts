import type { stallPoint, AccumulatorFormat } from "../stall-point.js";

type F = typeof stallPoint;
type Mutant = { impl: F; caughtBy: string | string[] };

/** E, m of each format (the page's table), for the mutants' own rounding. */
const SPECS: Record<AccumulatorFormat, [number, number]> = { "fp32": [8, 23], "bf16": [8, 7], "fp16": [5, 10], "fp8-e5m2": [5, 2], "fp8-e4m3": [4, 3] };

interface Options { tiesUp?: boolean; ftz?: boolean; saturate?: boolean; e4m3Infinity?: boolean; countLast?: boolean; noCheck?: boolean; closedForm?: boolean; recursive?: boolean }

function rounder(format: AccumulatorFormat, o: Options): (x: number) => number {
  const [E, m] = SPECS[format];
  const e4m3 = format === "fp8-e4m3";
  const bias = 2 ** (E - 1) - 1, emin = 1 - bias, emax = e4m3 ? 2 ** E - 1 - bias : 2 ** E - 2 - bias;
  const max = 2 ** emax * (2 - (e4m3 ? 2 : 1) * 2 ** -m);
  return (x) => {
    if (x === 0) return 0;
    let e = Math.floor(Math.log2(x));
    if (2 ** e > x) e--;
    if (2 ** (e + 1) <= x) e++;
    if (o.ftz && e < emin) return 0;
    const q = 2 ** (Math.max(e, emin) - m), r = x / q, n = Math.floor(r), d = r - n;
    const v = (d > 0.5 || (d === 0.5 && (o.tiesUp || n % 2 === 1)) ? n + 1 : n) * q;
    if (v > max) return o.saturate ? max : e4m3 && !o.e4m3Infinity ? NaN : Infinity;
    return v;
  };
}

const make = (o: Options = {}): F => (format, addend) => {
  if (!o.noCheck) {
    if (!(format in SPECS)) throw new RangeError(`format must be one of fp32, bf16, fp16, fp8-e5m2, fp8-e4m3, got "${format}"`);
    const r = rounder(format, {});
    if (!(addend > 0) || !Number.isFinite(addend) || r(addend) !== addend) throw new RangeError(`addend must be a positive finite value of ${format}, got ${addend}`);
  }
  const r = rounder(format, o);
  if (o.closedForm) return { total: 2 ** (SPECS[format][1] + 1) * addend, additions: 2 ** (SPECS[format][1] + 1) };
  if (o.recursive) {
    const go = (t: number, n: number): { total: number; additions: number } => {
      const next = r(t + addend);
      if (next === t) return { total: t, additions: n };
      if (!Number.isFinite(next)) return { total: next, additions: n + 1 };
      return go(next, n + 1);
    };
    return go(0, 0);
  }
  let t = 0, n = 0;
  for (;;) {
    const next = r(t + addend);
    if (next === t) return { total: t, additions: o.countLast ? n + 1 : n };
    n++;
    if (!Number.isFinite(next)) return { total: next, additions: n };
    t = next;
  }
};

export const mutants: Record<string, Mutant> = {
  "the page's closed form 2^(m+1)·addend for every addend": { caughtBy: ["addends that are not powers of two", "a tie at the stall goes to the even total"], impl: make({ closedForm: true }) },
  "ties round up": { caughtBy: ["the stub's example: ones in fp16", "a tie at the stall goes to the even total"], impl: make({ tiesUp: true }) },
  "counts the addition that changed nothing": { caughtBy: ["the stub's example: ones in fp16", "ones in every format"], impl: make({ countLast: true }) },
  "subnormals flushed to zero": { caughtBy: "subnormal addends", impl: make({ ftz: true }) },
  "overflow saturates at the largest value": { caughtBy: "overflow before the stall: Infinity, or NaN in fp8-e4m3", impl: make({ saturate: true }) },
  "fp8-e4m3 overflows to Infinity": { caughtBy: "overflow before the stall: Infinity, or NaN in fp8-e4m3", impl: make({ e4m3Infinity: true }) },
  "a recursion, one call per addition": { caughtBy: "fp32: sixteen million additions (a loop, not a recursion)", impl: make({ recursive: true }) },
  "no check of the format or the addend": { caughtBy: "bad input: a RangeError naming the field", impl: make({ noCheck: true }) },
};
