import { describe, expect, it } from "vitest";
import { AMP_LIVE_MODEL, charLmSetup } from "./charLmSetup.js";
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

  it("charLmSetup({model: AMP_LIVE_MODEL}) builds lib/nn's model at that size: 2 characters of context, one block, 64-token batches", () => {
    const s = charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8, steps: 2 });
    const V = s.vocabSize, { contextLength: C, embedDim: d, width: h, hiddenDim: H } = AMP_LIVE_MODEL;
    expect(s.paramNames).toContain("blocks.0.W1");
    expect(s.paramNames.some((n) => n.startsWith("blocks.1"))).toBe(false);
    expect(s.batch(0).contextLength).toBe(C);
    expect(s.tokensPerBatch).toBe(64);
    const total = s.init.reduce((n, p) => n + p.length, 0);
    // emb (V, d) shared by the C positions, proj (C·d → h), one residual block (h → H → h), head (h → V)
    expect(total).toBe(V * d + (C * d * h + h) + (h * H + H + H * h + h) + (h * V + V));
  });

  it("charLmSetup(...).activationGrads: dlogits rows are (softmax − onehot)/N, summing to 0, and every layer input gets a gradient", () => {
    const s = charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 4, seqLen: 4, tokensPerStep: 1024, steps: 1 });
    const b = s.batch(0), V = s.vocabSize;
    const acts = s.activationGrads(s.init, b);
    const dlogits = acts[0]!;
    expect(dlogits.length).toBe(b.rows * V);
    for (let r = 0; r < b.rows; r++) {
      let sum = 0;
      for (let j = 0; j < V; j++) sum += dlogits[r * V + j]!;
      expect(Math.abs(sum)).toBeLessThan(1e-9);
      expect(dlogits[r * V + b.targets[r]!]!).toBeLessThan(0); // p − 1 < 0 at the target
      expect(dlogits[r * V + b.targets[r]!]!).toBeGreaterThan(-1 / 1024);
    }
    // head input (h), block input (h), proj input (C·d): one gradient per layer after the embedding
    expect(acts.map((a) => a.length / b.rows)).toEqual([V, AMP_LIVE_MODEL.width, AMP_LIVE_MODEL.width, AMP_LIVE_MODEL.contextLength * AMP_LIVE_MODEL.embedDim]);
  });
});
