import { describe, expect, it } from "vitest";
import { charLmSetup } from "./charLmSetup.js";
import { ampStep, initAmpState } from "./ampStep.js";

describe("charLmSetup", () => {
  it("charLmSetup(...).model.lossAndGrads returns ∂(S·lossSum/N)/∂θ: linear in S/N, loss unscaled", () => {
    const a = charLmSetup({ steps: 1 }); // N = B·L = 128
    const b = charLmSetup({ steps: 1, tokensPerStep: 512 });
    const ga = a.model.lossAndGrads(a.init, a.batch(0), { precision: "fp32", lossScale: 1 });
    const gb = b.model.lossAndGrads(b.init, b.batch(0), { precision: "fp32", lossScale: 8 });
    expect(gb.loss).toBe(ga.loss);
    expect(ga.loss).toBeCloseTo(Math.log(a.vocabSize), 0); // near-uniform predictions at initialisation
    let checked = 0;
    ga.grads.forEach((g, i) => g.forEach((v, j) => { if (Math.abs(v) > 1e-6) { expect(gb.grads[i]![j]! / v).toBeCloseTo((8 * 128) / 512, 4); checked++; } }));
    expect(checked).toBeGreaterThan(100);
  });

  it("charLmSetup: with 2^30-token steps fp16 flushes gradients that fp32 keeps, and GradScaler's 2^16 brings them back", () => {
    const s = charLmSetup({ steps: 1, tokensPerStep: 2 ** 30 });
    const zeros = (p: "fp16" | "fp32", S: number) => s.model.lossAndGrads(s.init, s.batch(0), { precision: p, lossScale: S }).grads.reduce((n, g) => n + g.filter((v) => v === 0).length, 0);
    expect(zeros("fp16", 1)).toBeGreaterThan(zeros("fp32", 1) + 1000);
    expect(zeros("fp16", 2 ** 16)).toBeLessThan(zeros("fp16", 1));
  });

  it("charLmSetup rejects a token count below the batch's", () => {
    expect(() => charLmSetup({ steps: 1, tokensPerStep: 10 })).toThrow(/tokensPerStep must be >= the tokens of a batch \(128\), got 10/);
  });

  it("ampStep on lib/nn's model lowers the loss over a few fp16 + GradScaler steps", () => {
    const s = charLmSetup({ steps: 8 });
    const cfg = { precision: "fp16", lossScaling: "dynamic", optimizer: { kind: "adamw", lr: 1e-2 } } as const;
    let st = initAmpState(s.init, cfg);
    const losses: number[] = [];
    for (let i = 0; i < 8; i++) { const r = ampStep(s.model, st, s.batch(0), cfg); st = r.state; losses.push(r.record.loss); }
    expect(losses.at(-1)!).toBeLessThan(losses[0]! - 0.1); // same batch: the loss must fall
  });
});
