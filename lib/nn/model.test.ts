import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { createModel, forward, backward, type Model } from "./model.js";
import { IGNORE_INDEX } from "./crossEntropy.js";
import { zeroGrad, parameterCount } from "./param.js";
import { cpuOps } from "./ops.js";
import { mulberry32, randomInt } from "../random.js";
import type { Batch } from "./sampler.js";

const tiny = { vocabSize: 5, contextLength: 3, embedDim: 2, width: 4, hiddenDim: 6, numBlocks: 2, seed: 3 };

function randomBatch(rows: number, seed: number, ignoreEvery = 0): Batch {
  const r = mulberry32(seed);
  const contexts = Int32Array.from({ length: rows * tiny.contextLength }, () => randomInt(r, tiny.vocabSize));
  const targets = Int32Array.from({ length: rows }, (_, i) => (ignoreEvery && i % ignoreEvery === 0 ? IGNORE_INDEX : randomInt(r, tiny.vocabSize)));
  return { contexts, targets, rows, contextLength: tiny.contextLength };
}

/** Central finite differences of the mean loss, dividing by the float32 step actually taken. */
function numericGrad(model: Model, batch: Batch, pi: number, i: number, h = 3e-3): number {
  const p = model.params[pi].data, x0 = p[i];
  p[i] = x0 + h; const up = p[i]; const lp = forward(model, batch).loss;
  p[i] = x0 - h; const dn = p[i]; const lm = forward(model, batch).loss;
  p[i] = x0;
  return (lp - lm) / (up - dn);
}

describe("createModel / forward / backward", () => {
  it("createModel builds [emb, proj, blocks…, head] with the expected parameter count", () => {
    const m = createModel(tiny);
    expect(m.layers.map((l) => l.name)).toEqual(["emb", "proj", "blocks.0", "blocks.1", "head"]);
    // emb V·d + proj (C·d·h + h) + 2 blocks (h·H + H + H·h + h) + head (h·V + V)
    expect(parameterCount(m.params)).toBe(5 * 2 + (3 * 2 * 4 + 4) + 2 * (4 * 6 + 6 + 6 * 4 + 4) + (4 * 5 + 5));
  });
  it("forward(model, batch).loss is ln V when all logits are equal (head zeroed)", () => {
    const m = createModel(tiny);
    m.layers.at(-1)!.params.forEach((p) => p.data.fill(0));
    expect(forward(m, randomBatch(7, 1)).loss).toBeCloseTo(Math.log(5), 6);
  });
  it("backward(model, forward(...)) matches central finite differences on every parameter", () => {
    const m = createModel(tiny), batch = randomBatch(6, 2, 4);
    zeroGrad(m.params);
    backward(m, forward(m, batch));
    let checked = 0;
    m.params.forEach((p, pi) => {
      for (let i = 0; i < p.data.length; i++) {
        const num = numericGrad(m, batch, pi, i);
        expect(Math.abs(p.grad[i] - num), `${p.name}[${i}]: analytic ${p.grad[i]} vs numeric ${num}`).toBeLessThanOrEqual(2e-4 + 2e-2 * Math.abs(num));
        checked++;
      }
    });
    expect(checked).toBe(parameterCount(m.params));
  });
  it("with attention: true, backward matches central finite differences on every parameter", () => {
    const m = createModel({ ...tiny, attention: true }), batch = randomBatch(5, 12, 3);
    expect(m.layers.map((l) => l.name)).toEqual(["emb", "attn", "proj", "blocks.0", "blocks.1", "head"]);
    zeroGrad(m.params);
    backward(m, forward(m, batch));
    for (const w of ["attn.Wq", "attn.Wk", "attn.Wv", "attn.Wo"]) expect(m.params.find((p) => p.name === w)!.grad.some((g) => Math.abs(g) > 1e-3), w).toBe(true);
    m.params.forEach((p, pi) => {
      for (let i = 0; i < p.data.length; i++) {
        const num = numericGrad(m, batch, pi, i);
        expect(Math.abs(p.grad[i] - num), `${p.name}[${i}]: analytic ${p.grad[i]} vs numeric ${num}`).toBeLessThanOrEqual(2e-4 + 2e-2 * Math.abs(num));
      }
    });
  });
  it("selfAttention is causal: changing the last position changes no earlier position's output", () => {
    const m = createModel({ ...tiny, attention: true });
    const attn = m.layers[1], C = tiny.contextLength, d = tiny.embedDim;
    const r = mulberry32(2);
    const x = Float32Array.from({ length: 2 * C * d }, () => r() - 0.5);
    const y1 = attn.forward({ data: x, rows: 2, cols: C * d }, cpuOps()).y.data;
    const x2 = Float32Array.from(x); for (let t = 0; t < d; t++) x2[(C - 1) * d + t] += 1; // row 0, last position
    const y2 = attn.forward({ data: x2, rows: 2, cols: C * d }, cpuOps()).y.data;
    for (let k = 0; k < 2 * C * d; k++) {
      const pos = Math.floor((k % (C * d)) / d), row = Math.floor(k / (C * d));
      if (row === 0 && pos === C - 1) expect(y2[k]).not.toBe(y1[k]);
      else expect(y2[k]).toBe(y1[k]);
    }
  });
  it("createModel without attention keeps the same initial weights (attention is opt-in)", () => {
    expect(createModel(tiny).params.map((p) => p.name)).not.toContain("attn.Wq");
  });
  it("backward adds into .grad: two backward calls give twice the gradient (PyTorch accumulation)", () => {
    const m = createModel(tiny), batch = randomBatch(5, 4);
    zeroGrad(m.params);
    const f = forward(m, batch);
    backward(m, f);
    const once = m.params.map((p) => Float32Array.from(p.grad));
    backward(m, f);
    m.params.forEach((p, j) => p.grad.forEach((g, i) => expect(g).toBeCloseTo(2 * once[j][i], 6)));
  });
  it("ignored targets contribute no loss and no gradient", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1000 }), (seed) => {
      const m = createModel(tiny);
      const a = randomBatch(4, seed);
      const padded: Batch = { ...a, rows: 5, contexts: Int32Array.from([...a.contexts, 1, 2, 3]), targets: Int32Array.from([...a.targets, IGNORE_INDEX]) };
      const fa = forward(m, a), fb = forward(m, padded);
      zeroGrad(m.params); backward(m, fa); const ga = m.params.map((p) => Float32Array.from(p.grad));
      zeroGrad(m.params); backward(m, fb);
      return fb.tokenCount === 4 && Math.abs(fa.lossSum - fb.lossSum) < 1e-9 && m.params.every((p, j) => p.grad.every((g, i) => g === ga[j][i]));
    }), { seed: 9, numRuns: 20 });
  });
  it("forward in bf16 stays within a few bf16 ulps of fp32 and differs from it", () => {
    const m = createModel(tiny), batch = randomBatch(8, 5);
    const l32 = forward(m, batch).loss;
    const l16 = forward(m, batch, cpuOps({ compute: "bf16", accumulate: "fp32" })).loss;
    expect(l16).not.toBe(l32);
    expect(Math.abs(l16 - l32)).toBeLessThan(0.05 * l32);
  });
  it("createModel and forward reject bad input with the field name", () => {
    expect(() => createModel({ ...tiny, width: 0 })).toThrow(/config.width must be an integer >= 1, got 0/);
    const bad = randomBatch(2, 1); bad.contexts[0] = 9;
    expect(() => forward(createModel(tiny), bad)).toThrow(/batch\.contexts\[\d+\] must be an integer token id in \[0, 5\), got 9/);
    expect(() => backward(createModel(tiny), forward(createModel(tiny), randomBatch(2, 1)), NaN)).toThrow(/scale must be a finite number, got NaN/);
  });
});

describe("createParam and zeros reject bad sizes with the field's name", () => {
  it("createParam(name, shape, std) and zeros(rows, cols) throw RangeErrors naming the field", async () => {
    const { createParam } = await import("./param.js");
    const { zeros } = await import("./ops.js");
    const { mulberry32 } = await import("../random.js");
    expect(() => createParam("head.W", [3, 0], 0.1, mulberry32(1))).toThrow(/head.W: shape must be integers >= 1, got \[3,0\]/);
    expect(() => createParam("b", [2], NaN, mulberry32(1))).toThrow(/b: std must be finite and >= 0, got NaN/);
    expect(() => zeros(-1, 2)).toThrow(/rows must be an integer >= 0, got -1/);
    expect(zeros(0, 3).data.length).toBe(0);
  });
});
