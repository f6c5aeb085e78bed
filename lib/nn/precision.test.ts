import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { round } from "../precision/index.js";
import { bytesPerElement, checkPrecision, roundArray, roundTo } from "./precision.js";

describe("roundTo", () => {
  it('roundTo("fp16", x) gives the IEEE binary16 values: max 65504, overflow past 65520, ties to even', () => {
    expect(roundTo("fp16", 65504)).toBe(65504);
    expect(roundTo("fp16", 65519)).toBe(65504);
    expect(roundTo("fp16", 65520)).toBe(Infinity); // halfway to 2^16 rounds to even = overflow
    expect(roundTo("fp16", 1 + 2 ** -11)).toBe(1); // tie: to even
    expect(roundTo("fp16", 1 + 3 * 2 ** -11)).toBe(1 + 2 ** -9); // tie: to even (up)
    expect(roundTo("fp16", 2 ** -24)).toBe(2 ** -24); // smallest subnormal
    expect(roundTo("fp16", 2 ** -26)).toBe(0); // underflow
  });
  it('roundTo("bf16", x) keeps 8 significant bits, ties to even, fp32 range', () => {
    expect(roundTo("bf16", 1.01171875)).toBe(1.015625); // 1 + 3·2^-8: tie, to even (up)
    expect(roundTo("bf16", 1 + 2 ** -8)).toBe(1); // tie, to even (down)
    expect(roundTo("bf16", 3e38)).toBe(226 * 2 ** 120); // 3e38 = 225.7·2^120: nearest multiple of the ulp 2^120
    expect(roundTo("bf16", 1e-30)).toBeGreaterThan(0);
    expect(Number.isNaN(roundTo("bf16", NaN))).toBe(true);
    expect(roundTo("bf16", -Infinity)).toBe(-Infinity);
  });
  it('roundTo("bf16", x) is the nearest of the two bf16 neighbours of float32(x) (brute-force oracle)', () => {
    fc.assert(fc.property(fc.float({ noNaN: true, noDefaultInfinity: true, min: Math.fround(-1e30), max: Math.fround(1e30) }), (x) => {
      const f = Math.fround(x);
      if (f === 0) return roundTo("bf16", f) === 0;
      const e = Math.floor(Math.log2(Math.abs(f)));
      const ulp = 2 ** (Math.max(e, -126) - 7);
      const lo = Math.floor(f / ulp) * ulp, hi = lo + ulp;
      const r = roundTo("bf16", f);
      const dl = f - lo, dh = hi - f;
      if (dl < dh) return r === lo;
      if (dh < dl) return r === hi;
      return r === (Math.round(lo / ulp) % 2 === 0 ? lo : hi);
    }), { seed: 3, numRuns: 2000 });
  });
  it("roundTo(format, x) equals lib/precision's round(format, x) on float32 and float64 inputs", () => {
    const edge = [0, -0, 65504, 65519.99, 65520, 2 ** -24, 2 ** -25, 3 * 2 ** -26, 1 + 2 ** -11, 1.01171875, 3e38, 3.4e38, 1e-40, NaN, Infinity, -Infinity];
    const same = (a: number, b: number) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
    for (const f of ["fp16", "bf16"] as const) for (const x of edge) expect(same(roundTo(f, x), round(f, x)), `${f} ${x}`).toBe(true);
    fc.assert(fc.property(fc.oneof(fc.float(), fc.double()), (x) => same(roundTo("fp16", x), round("fp16", x)) && same(roundTo("bf16", x), round("bf16", x))), { seed: 4, numRuns: 5000 });
    // near-ties in float64 that float32 rounding turns into exact ties (double rounding would go wrong)
    fc.assert(fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: -20, max: 20 }), fc.boolean(), fc.boolean(), (m, e, up, neg) => {
      const sgn = neg ? -1 : 1;
      const bfTie = sgn * (1 + (2 * m + 1) / 256) * 2 ** e; // halfway between two bf16 values
      const f16Tie = sgn * (1 + (2 * m + 1) / 2048) * 2 ** Math.max(-14, Math.min(e, 15));
      const d = (up ? 1 : -1) * 2 ** -40 * Math.abs(bfTie), d16 = (up ? 1 : -1) * 2 ** -40 * Math.abs(f16Tie);
      return [bfTie, bfTie + d].every((x) => same(roundTo("bf16", x), round("bf16", x))) && [f16Tie, f16Tie + d16].every((x) => same(roundTo("fp16", x), round("fp16", x)));
    }), { seed: 6, numRuns: 2000 });
  });
  it("roundTo rejects an unknown format", () => {
    expect(() => roundTo("fp8" as never, 1)).toThrow(/format must be one of fp32, fp16, bf16, got "fp8"/);
  });
  it("roundArray(\"fp32\", a) leaves a unchanged; bytesPerElement gives 4 and 2", () => {
    const a = Float32Array.of(0.1, 1 / 3);
    expect(Array.from(roundArray("fp32", a))).toEqual(Array.from(Float32Array.of(0.1, 1 / 3)));
    expect([bytesPerElement("fp32"), bytesPerElement("fp16"), bytesPerElement("bf16")]).toEqual([4, 2, 2]);
  });
  it("checkPrecision names the bad field", () => {
    expect(() => checkPrecision({ compute: "fp16", accumulate: "int8" as never })).toThrow(/precision.accumulate must be one of/);
  });
});

describe("roundArrayWith and the ops.quantize hook", () => {
  it("roundArrayWith(format, a) without a hook is roundArray; fp32 never calls the hook", async () => {
    const { roundArrayWith } = await import("./precision.js");
    const a = Float32Array.of(1.01171875, 65520, 1e-8);
    expect(Array.from(roundArrayWith("bf16", a.slice()))).toEqual(Array.from(roundArray("bf16", a.slice())));
    let called = 0;
    roundArrayWith("fp32", a.slice(), (v) => { called++; return v; });
    expect(called).toBe(0);
    expect(Array.from(roundArrayWith("fp16", a.slice(), (v) => v.map(() => 7)))).toEqual([7, 7, 7]);
    expect(() => roundArrayWith("fp16", a.slice(), (v) => v.subarray(1))).toThrow(/quantize must return a Float32Array of 3 elements, got 2 elements/);
  });
  it("forward/backward with ops.quantize = lib's rounding equal the run without it bit for bit, and call it in every layer kind", async () => {
    const { createModel, forward, backward } = await import("./model.js");
    const { cpuOps } = await import("./ops.js");
    const { sampleBatch } = await import("./sampler.js");
    const { mulberry32 } = await import("../random.js");
    const { castArray } = await import("../precision/fastRound.js");
    const { flatGrad } = await import("./param.js");
    const cfg = { vocabSize: 11, contextLength: 4, embedDim: 4, width: 8, hiddenDim: 8, numBlocks: 1, seed: 3, attention: true };
    const tokens = Int32Array.from({ length: 200 }, (_, i) => (i * 7) % 11);
    for (const compute of ["fp16", "bf16"] as const) {
      const run = (quantize?: (v: Float32Array, f: "fp16" | "bf16") => Float32Array) => {
        const m = createModel(cfg);
        const batch = sampleBatch(tokens, { batchSize: 2, seqLen: 4, contextLength: 4 }, mulberry32(1));
        const ops = { ...cpuOps({ compute, accumulate: "fp32" }), quantize };
        const f = forward(m, batch, ops);
        backward(m, f, 1 / f.tokenCount, ops);
        return { loss: f.loss, grad: Array.from(flatGrad(m.params)) };
      };
      const kinds = new Set<number>();
      const hooked = run((v, f) => { kinds.add(v.length); return castArray(f, v); });
      expect(hooked).toEqual(run());
      expect(kinds.size).toBeGreaterThan(5); // activations and gradients of several shapes
      const zeroed = run((v) => new Float32Array(v.length));
      expect(zeroed.grad.every((g) => g === 0)).toBe(true); // the hook reaches every gradient
    }
  });
});
