import { describe, expect, it } from "vitest";
import { forwardBackward, initTinyMlpLm, PARAM_NAMES } from "./tinyMlpLm.js";
import { markovText, sampleBatch } from "./markovText.js";
import { mulberry32 } from "../random.js";

const cfg = { vocabSize: 6, embedDim: 3, hidden: 5 };
const text = markovText({ vocabSize: 6, length: 500, seed: 3 });
const rng = mulberry32(9);
const params = initTinyMlpLm(cfg, rng).map((p, i) => (i === 3 ? p.map((v) => v * 50) : p)); // larger w2 so every gradient is well above noise
const batch = sampleBatch(text, 7, rng);

describe("tinyMlpLm forwardBackward", () => {
  it("forwardBackward(exact) gradients equal central finite differences on every parameter", () => {
    const r = forwardBackward(cfg, params, batch, { precision: "fp32", exact: true });
    const h = 1e-4;
    params.forEach((p, i) => {
      for (let j = 0; j < p.length; j++) {
        const plus = params.map((q) => Float64Array.from(q)) as unknown as Float32Array[];
        const minus = params.map((q) => Float64Array.from(q)) as unknown as Float32Array[];
        plus[i]![j] = p[j]! + h;
        minus[i]![j] = p[j]! - h;
        const fd = (forwardBackward(cfg, plus, batch, { precision: "fp32", exact: true }).loss - forwardBackward(cfg, minus, batch, { precision: "fp32", exact: true }).loss) / (2 * h);
        expect(r.grads[i]![j], `${PARAM_NAMES[i]}[${j}]`).toBeCloseTo(fd, 6);
      }
    });
  });

  it("forwardBackward: the loss at initialisation is about ln V (near-uniform predictions)", () => {
    const small = initTinyMlpLm(cfg, mulberry32(1));
    expect(forwardBackward(cfg, small, batch, { precision: "fp32" }).loss).toBeCloseTo(Math.log(6), 1);
  });

  it("forwardBackward: gradients scale with the loss scale S and the 1/N normalisation", () => {
    const a = forwardBackward(cfg, params, batch, { precision: "fp32", exact: true });
    const b = forwardBackward(cfg, params, batch, { precision: "fp32", exact: true, lossScale: 8, tokensPerStep: 14 });
    for (let i = 0; i < a.grads.length; i++) for (let j = 0; j < a.grads[i]!.length; j++) expect(b.grads[i]![j]).toBeCloseTo((a.grads[i]![j]! * 8 * 7) / 14, 6);
    expect(b.loss).toBe(a.loss); // the reported loss is unscaled
  });

  it("forwardBackward in fp16 flushes tiny gradients to zero without a loss scale, and overflows with a huge one", () => {
    const tiny = forwardBackward(cfg, params, batch, { precision: "fp16", tokensPerStep: 2 ** 30 });
    const exact = forwardBackward(cfg, params, batch, { precision: "fp32", tokensPerStep: 2 ** 30 });
    const zeros = (gs: Float32Array[]) => gs.reduce((s, g) => s + g.filter((v) => v === 0).length, 0);
    expect(zeros(tiny.grads)).toBeGreaterThan(zeros(exact.grads));
    const huge = forwardBackward(cfg, params, batch, { precision: "fp16", lossScale: 2 ** 24 });
    expect(huge.grads.some((g) => g.some((v) => !Number.isFinite(v)))).toBe(true);
  });

  it("forwardBackward rejects wrong parameter sizes and a normaliser below the batch size", () => {
    expect(() => forwardBackward(cfg, [new Float32Array(1)], batch, { precision: "fp32" })).toThrow(/params\[0\] \(wte\) must have 18 elements, got 1/);
    expect(() => forwardBackward(cfg, params, batch, { precision: "fp32", tokensPerStep: 3 })).toThrow(/tokensPerStep must be a finite number >= the batch size 7/);
  });
});

describe("markovText", () => {
  it("markovText is seeded, in range, and its transition rows sum to 1", () => {
    const a = markovText({ vocabSize: 5, length: 200, seed: 2 });
    expect(a.tokens).toEqual(markovText({ vocabSize: 5, length: 200, seed: 2 }).tokens);
    expect(Math.max(...a.tokens)).toBeLessThan(5);
    for (let r = 0; r < 25; r++) expect(a.transition.slice(r * 5, r * 5 + 5).reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
    expect(a.entropyNats).toBeGreaterThan(0);
    expect(a.entropyNats).toBeLessThan(Math.log(5));
    expect(() => markovText({ vocabSize: 1 })).toThrow(/vocabSize must be an integer in \[2, 256\], got 1/);
  });
});
