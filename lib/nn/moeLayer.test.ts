import { describe, expect, it } from "vitest";
import { createModel, forward, backward, type Model } from "./model.js";
import { moeLayer, type MoeLayer } from "./moeLayer.js";
import { zeroGrad, parameterCount } from "./param.js";
import { cpuOps } from "./ops.js";
import { train } from "./train.js";
import { mulberry32, randomInt } from "../random.js";
import type { MoeOptions } from "./moeOptions.js";
import type { Batch } from "./sampler.js";

const tiny = { vocabSize: 5, contextLength: 3, embedDim: 2, width: 4, hiddenDim: 3, numBlocks: 2, seed: 3 };

function randomBatch(rows: number, seed: number): Batch {
  const r = mulberry32(seed);
  return { contexts: Int32Array.from({ length: rows * 3 }, () => randomInt(r, 5)), targets: Int32Array.from({ length: rows }, () => randomInt(r, 5)), rows, contextLength: 3 };
}

/** The objective whose gradient backward computes: CE + Σ_blocks (α·aux + c_z·z), and a key of every routing decision. */
function objective(m: Model, b: Batch): { value: number; key: string } {
  const f = forward(m, b);
  let value = f.loss, key = "";
  m.layers.forEach((l, i) => {
    const s = f.cache.saved[i].moe;
    if (l.kind !== "moe" || !s) return;
    const o = (l as MoeLayer).options;
    value += o.auxLossScale * (o.auxLossCoeff * s.stats.auxLoss + o.zLossCoeff * s.stats.zLoss);
    key += s.states.map((st) => `${Array.from(st.routing.experts)}|${Array.from(st.kept)}|${st.aux.tokensPerExpert}`).join(";");
  });
  return { value, key };
}

function gradCheck(moe: MoeOptions, rows: number, seed: number): { checked: number; skipped: number } {
  const m = createModel({ ...tiny, moe }), b = randomBatch(rows, seed);
  zeroGrad(m.params);
  backward(m, forward(m, b));
  const base = objective(m, b).key;
  let checked = 0, skipped = 0;
  m.params.forEach((p) => {
    for (let i = 0; i < p.data.length; i++) {
      const x0 = p.data[i], h = 3e-3;
      p.data[i] = x0 + h; const up = p.data[i]; const fp = objective(m, b);
      p.data[i] = x0 - h; const dn = p.data[i]; const fm = objective(m, b);
      p.data[i] = x0;
      if (fp.key !== base || fm.key !== base) { skipped++; continue; } // a routing decision flipped: the loss jumps there
      const num = (fp.value - fm.value) / (up - dn);
      expect(Math.abs(p.grad[i] - num), `${p.name}[${i}]: analytic ${p.grad[i]} vs numeric ${num}`).toBeLessThanOrEqual(3e-4 + 2e-2 * Math.abs(num));
      checked++;
    }
  });
  return { checked, skipped };
}

describe("moeLayer", () => {
  it("createModel with moe builds MoE blocks: router (h, E) and E experts of (h·H + H + H·h + h) each", () => {
    const m = createModel({ ...tiny, moe: { numExperts: 4, topK: 2 } });
    expect(m.layers.map((l) => l.kind)).toEqual(["embedding", "linear", "moe", "moe", "linear"]);
    const block = 4 * 4 + 4 * (4 * 3 + 3 + 3 * 4 + 4);
    expect(parameterCount(m.params)).toBe(5 * 2 + (3 * 2 * 4 + 4) + 2 * block + (4 * 5 + 5));
  });

  it("backward matches central finite differences of CE + α·aux + c_z·z on every parameter (each routing order, dropless)", () => {
    for (const order of ["topk-softmax", "softmax-topk", "sigmoid"] as const) {
      const { checked, skipped } = gradCheck({ numExperts: 4, topK: 2, order, auxLossCoeff: 0.3, zLossCoeff: 0.05 }, 6, 2);
      expect(checked, order).toBeGreaterThan(10 * skipped);
    }
  });

  it("backward matches finite differences with capacity drops, two groups and k = 1 (Switch)", () => {
    const { checked, skipped } = gradCheck({ numExperts: 3, topK: 1, order: "softmax-topk", capacityFactor: 1, numGroups: 2, auxLossCoeff: 0.2 }, 8, 5);
    expect(checked).toBeGreaterThan(10 * skipped);
  });

  it("a token dropped by every expert passes through unchanged (the residual), and its dropped pairs are counted", () => {
    const layer = moeLayer("m", 2, mulberry32(1), { numExperts: 2, topK: 1, capacityFactor: 0.5 });
    // 4 tokens, capacity ⌈4·1/2·0.5⌉ = 1 per expert: at most 2 tokens processed
    const x = Float32Array.of(1, 2, 3, 4, 5, 6, 7, 8);
    const { y, saved } = layer.forward({ data: x, rows: 4, cols: 2 }, cpuOps());
    const st = saved.moe!.stats;
    expect(st.keptPerExpert.reduce((a, b) => a + b, 0) + st.dropped).toBe(4);
    expect(st.dropped).toBeGreaterThanOrEqual(2);
    saved.moe!.kept.forEach((k, t) => { if (!k) expect([y.data[2 * t], y.data[2 * t + 1]]).toEqual([x[2 * t], x[2 * t + 1]]); });
  });

  it("updateExpertBias moves b_i by γ toward the mean load (DeepSeek-V3 §2.1.2), and not at all when γ = 0", () => {
    const l = moeLayer("m", 2, mulberry32(1), { numExperts: 4, topK: 1, order: "sigmoid", biasUpdateRate: 0.001 });
    l.updateExpertBias([10, 2, 2, 2]);
    expect(Array.from(l.expertBias)).toEqual([-0.001, 0.001, 0.001, 0.001].map(Math.fround));
    const z = moeLayer("m", 2, mulberry32(1), { numExperts: 4, topK: 1 });
    z.updateExpertBias([10, 2, 2, 2]);
    expect(Array.from(z.expertBias)).toEqual([0, 0, 0, 0]);
  });

  it("moeLayer rejects bad options, naming the field", () => {
    expect(() => moeLayer("m", 2, mulberry32(1), { numExperts: 4, topK: 5 })).toThrow("moe.topK must be an integer in [1, numExperts = 4], got 5");
    expect(() => moeLayer("m", 2, mulberry32(1), { numExperts: 0, topK: 1 })).toThrow("moe.numExperts must be an integer >= 1, got 0");
    expect(() => moeLayer("m", 2, mulberry32(1), { numExperts: 2, topK: 1, capacityFactor: 0 })).toThrow("moe.capacityFactor must be null or a finite number > 0, got 0");
    expect(() => moeLayer("m", 2, mulberry32(1), { numExperts: 2, topK: 1, auxLossCoeff: -1 })).toThrow("moe.auxLossCoeff must be a finite number >= 0, got -1");
  });

  it("train with MoE blocks lowers the loss on the sonnets, as the dense model of the same active width does", () => {
    // dense: hidden 64; MoE: 8 experts of hidden 32, top-2 → 64 active hidden units per token (plus the router)
    const dense = train({ steps: 120, model: { hiddenDim: 64 } });
    const moe = train({ steps: 120, model: { hiddenDim: 32, moe: { numExperts: 8, topK: 2 } } });
    const tail = (xs: number[]) => xs.slice(-20).reduce((a, b) => a + b, 0) / 20;
    expect(tail(moe.losses)).toBeLessThan(moe.losses[0] - 1);
    expect(Math.abs(tail(moe.losses) - tail(dense.losses))).toBeLessThan(0.3);
    expect(moe.moeStats).toHaveLength(120);
    expect(moe.moeStats[0]).toHaveLength(2);
  });
});
