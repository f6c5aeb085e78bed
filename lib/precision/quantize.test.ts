import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { quantize, createQuantizer } from "./quantize.js";
import { round } from "./round.js";
import { kernelRoundToFormat } from "./kernelRoundToFormat.js";
import { FORMATS } from "./formats.js";

const N = 100_000;

/** 100,000 seeded float32 values per format: wide random magnitudes, the target's subnormal range, its overflow boundary, exact ties, specials. */
function sample(format: "bf16" | "fp16" | "tf32", seed: number): Float32Array {
  const f = FORMATS[format];
  const subTop = Math.fround(2 * f.minNormal);
  const wide = fc.sample(fc.float({ noNaN: true }), { numRuns: 40_000, seed });
  const small = fc.sample(fc.float({ min: -subTop, max: subTop, noNaN: true }), { numRuns: 20_000, seed: seed + 1 });
  const top = Math.fround(Math.min(f.maxFinite * 1.01, 3.4e38));
  const nearMax = fc.sample(fc.float({ min: Math.fround(f.maxFinite * 0.99), max: top, noNaN: true }), { numRuns: 10_000, seed: seed + 2 });
  const mid = fc.sample(fc.float({ min: -1000, max: 1000, noNaN: true }), { numRuns: 20_000, seed: seed + 3 });
  // exact ties: a representable value plus half its ulp (representable in float32 for these formats)
  const ties = fc.sample(fc.integer({ min: 0, max: 2 ** 12 }), { numRuns: 10_000, seed: seed + 4 }).map((k) => (1 + k / 2 ** 12) * 2 ** ((k % 40) - 20));
  const specials = [0, -0, Infinity, -Infinity, f.maxFinite, f.maxFinite + f.maxFinite * f.machineEpsilon / 4, 65519.99, 65520, 1 + 2 ** -11, 1.01171875];
  const all = [...specials, ...wide, ...small, ...nearMax, ...mid, ...ties].slice(0, N);
  return Float32Array.from(all);
}

/** The first element where `out` differs in bits from `expected` (round(format, x) of each value), or null. */
function firstMismatch(out: Float32Array, values: Float32Array, expected: Float32Array): string | null {
  const a = new Uint32Array(out.buffer, out.byteOffset, out.length);
  const b = new Uint32Array(expected.buffer);
  if (out.length !== values.length) return `length ${out.length}, expected ${values.length}`;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return `at ${i}: x = ${values[i]}, kernel ${out[i]}, round ${expected[i]}`;
  }
  return null;
}

describe("quantize(values, format)", () => {
  for (const format of ["fp16", "bf16", "tf32"] as const) {
    it(`quantize(values, '${format}') equals round('${format}', x) bit for bit on ${N} values, default backend and mode 'cpu'`, () => {
      const values = sample(format, 100 + format.length);
      const copy = values.slice();
      const expected = Float32Array.from(values, (x) => round(format, x)); // once for both modes
      for (const mode of [undefined, "cpu"]) {
        expect(firstMismatch(quantize(values, format, { mode }), values, expected)).toBeNull();
      }
      expect(values).toEqual(copy); // input untouched
    });
  }

  it("quantize: worked example, ties to even and overflow to Infinity in fp16", () => {
    expect(Array.from(quantize(new Float32Array([1 + 2 ** -11, 1 + 3 * 2 ** -11, 65519.99, 65520, -65520]), "fp16"))).toEqual([1, 1 + 2 ** -9, 65504, Infinity, -Infinity]);
  });

  it("createQuantizer runs one compiled kernel on arrays of several lengths and names its backend", () => {
    const q = createQuantizer("bf16", { mode: "cpu" });
    try {
      expect(Array.from(q.run(new Float32Array([1.01171875])))).toEqual([1.015625]);
      expect(Array.from(q.run(new Float32Array([1, 3, 257])))).toEqual([1, 3, 256]);
      expect(q.run(new Float32Array(0)).length).toBe(0);
      expect(q.backend).toBe("cpu");
    } finally {
      q.destroy();
    }
  });

  it("quantize rejects formats the kernel does not support and non-Float32Array input", () => {
    expect(() => quantize(new Float32Array(1), "fp8-e4m3")).toThrow('format must be one of bf16, fp16, tf32 for quantize, got "fp8-e4m3"');
    expect(() => quantize(new Float32Array(1), "fp64")).toThrow(/format must be one of/);
    expect(() => quantize([1, 2] as unknown as Float32Array, "fp16")).toThrow(/values must be a Float32Array/);
  });

  it("kernelRoundToFormat, called as plain JavaScript, equals round on float32 inputs (fp16 constants)", () => {
    fc.assert(fc.property(fc.float({ noNaN: true }), (x) => {
      expect(Object.is(kernelRoundToFormat(x, 10, -14, 65504, Infinity), round("fp16", x))).toBe(true);
    }), { seed: 9, numRuns: 5000 });
  });
});
