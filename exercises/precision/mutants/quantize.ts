import type { quantize } from "../quantize.js";
import { castArray } from "../../../lib/precision/index.js";

type Quantize = typeof quantize;
type Mutant = { impl: Quantize; caughtBy: string | string[] };

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const bitsOf = (x: number) => { f32[0] = x; return u32[0]!; };
const fromBits = (b: number) => { u32[0] = b >>> 0; return f32[0]!; };

/** A validating wrapper around a per-element rounding, as a student would write it. */
const elementwise = (round: (x: number, format: "fp16" | "bf16") => number): Quantize => (values, format) => {
  if (format !== "fp16" && format !== "bf16") throw new RangeError(`format must be "fp16" or "bf16", got "${String(format)}"`);
  if (!(values instanceof Float32Array)) throw new TypeError("values must be a Float32Array");
  return Float32Array.from(values, (x) => round(x, format));
};
const right = (x: number, format: "fp16" | "bf16") => castArray(format, Float32Array.of(x))[0]!;

/** fp16 by float64 arithmetic, with the mistakes switchable. */
function fp16With(x: number, o: { ftz?: boolean; saturate?: boolean; tiesUp?: boolean } = {}): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  if (o.ftz && a < 2 ** -14) return x < 0 ? -0 : 0;
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  const q = 2 ** (Math.max(e, -14) - 10), r = a / q, n = Math.floor(r), d = r - n;
  const m = o.tiesUp ? (d >= 0.5 ? n + 1 : n) : d > 0.5 || (d === 0.5 && n % 2 === 1) ? n + 1 : n;
  const v = m * q;
  if (v > 65504) return Math.sign(x) * (o.saturate ? 65504 : Infinity);
  return v === 0 ? (x < 0 ? -0 : 0) : Math.sign(x) * v;
}

export const mutants: Record<string, Mutant> = {
  "bf16 by truncating the low 16 bits": {
    caughtBy: ["the contract's example", "single values, bf16", "a weight tensor", "one training step in bf16", "trained weights, bf16 run, bit for bit"],
    impl: elementwise((x, format) => (format === "bf16" ? (Number.isNaN(x) ? NaN : fromBits(bitsOf(x) & 0xffff0000)) : right(x, format))),
  },
  "ignores the format: always rounds to bf16": {
    caughtBy: ["the contract's example", "single values, fp16", "a weight tensor", "trained weights, fp16 run with loss scale 1024, bit for bit"],
    impl: elementwise((x) => right(x, "bf16")),
  },
  "fp16 ties go up instead of to even": {
    caughtBy: ["single values, fp16", "trained weights, fp16 run with loss scale 1024, bit for bit"],
    impl: elementwise((x, format) => (format === "fp16" ? fp16With(x, { tiesUp: true }) : right(x, format))),
  },
  "fp16 flushes subnormals to zero": {
    caughtBy: ["single values, fp16", "a weight tensor"],
    impl: elementwise((x, format) => (format === "fp16" ? fp16With(x, { ftz: true }) : right(x, format))),
  },
  "fp16 overflow saturates at 65504": {
    caughtBy: ["the contract's example", "single values, fp16", "a weight tensor"],
    impl: elementwise((x, format) => (format === "fp16" ? fp16With(x, { saturate: true }) : right(x, format))),
  },
  "rounds in place and returns its input": {
    caughtBy: "a new array; input unchanged; errors",
    impl: (values, format) => {
      if (format !== "fp16" && format !== "bf16") throw new RangeError(`format must be "fp16" or "bf16", got "${String(format)}"`);
      if (!(values instanceof Float32Array)) throw new TypeError("values must be a Float32Array");
      values.set(castArray(format, values));
      return values;
    },
  },
  "keeps a buffer between calls: a later call overwrites an earlier result": {
    caughtBy: "a new array; input unchanged; errors",
    impl: (() => {
      let buffer = new Float32Array(0);
      return (values: Float32Array, format: "fp16" | "bf16") => {
        if (format !== "fp16" && format !== "bf16") throw new RangeError(`format must be "fp16" or "bf16", got "${String(format)}"`);
        if (!(values instanceof Float32Array)) throw new TypeError("values must be a Float32Array");
        if (buffer.length < values.length) buffer = new Float32Array(values.length);
        const out = buffer.subarray(0, values.length); // reused: every result is a view of the same memory
        out.set(castArray(format, values));
        return out;
      };
    })(),
  },
};
