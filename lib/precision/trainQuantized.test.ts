import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { trainQuantized } from "./trainQuantized.js";
import { castArray } from "./fastRound.js";
import { round } from "./round.js";
import { train } from "../nn/train.js";

const small = { model: { width: 16, hiddenDim: 32, numBlocks: 1 }, batchSize: 4, seqLen: 8 };
const bits = (ws: Float32Array[]) => ws.flatMap((w) => Array.from(new Uint32Array(w.buffer, w.byteOffset, w.length)));

describe("trainQuantized", () => {
  it("trainQuantized with an identity quantize equals lib/nn's fp32 train() bit for bit (same batches, same AdamW)", () => {
    const q = trainQuantized({ format: "bf16", steps: 6, quantize: (v) => v, ...small, lr: 1e-2 });
    const t = train({ steps: 6, batchSize: 4, seqLen: 8, model: small.model, adamw: { lr: 1e-2 } });
    expect(q.losses).toEqual(t.losses);
    expect(bits(q.weights)).toEqual(bits(t.model.params.map((p) => p.data)));
    expect(q.names).toEqual(t.model.params.map((p) => p.name));
  });

  it("trainQuantized's default rounding is castArray: passing it explicitly gives the same run bit for bit", () => {
    for (const format of ["bf16", "fp16"] as const) {
      const a = trainQuantized({ format, steps: 4, ...small, lossScale: format === "fp16" ? 1024 : 1 });
      const b = trainQuantized({ format, steps: 4, ...small, lossScale: format === "fp16" ? 1024 : 1, quantize: (v, f) => castArray(f, v) });
      expect(bits(a.weights)).toEqual(bits(b.weights));
      expect(a.losses).toEqual(b.losses);
    }
  });

  it("trainQuantized in bf16 with fp32 master weights lowers the loss like fp32; without them every weight is a bf16 value", () => {
    const mixed = trainQuantized({ format: "bf16", steps: 40, ...small });
    const mean = (l: number[]) => l.reduce((s, x) => s + x, 0) / l.length;
    expect(mean(mixed.losses.slice(-10))).toBeLessThan(mean(mixed.losses.slice(0, 5)) - 0.5);
    const pure = trainQuantized({ format: "bf16", steps: 5, ...small, masterWeights: false });
    for (const w of pure.weights) for (const x of w) expect(round("bf16", x)).toBe(x);
    expect(mixed.weights.some((w) => w.some((x) => round("bf16", x) !== x))).toBe(true); // the master keeps fp32 detail
  });

  it("trainQuantized uses the quantize it is given, for every rounding of the run", () => {
    let calls = 0;
    const r = trainQuantized({ format: "bf16", steps: 2, ...small, quantize: (v, f) => { calls++; return castArray(f, v); } });
    expect(calls).toBeGreaterThan(2 * 10); // working copy of each parameter, activations, gradients
    const trunc = trainQuantized({ format: "bf16", steps: 2, ...small, quantize: (v) => Float32Array.from(v, (x) => { const u = new Uint32Array(Float32Array.of(x).buffer); u[0] &= 0xffff0000; return new Float32Array(u.buffer)[0]; }) });
    expect(bits(trunc.weights)).not.toEqual(bits(r.weights));
  });

  it("trainQuantized validates format, steps, lossScale and the hook's result", () => {
    expect(() => trainQuantized({ format: "fp8" as never, steps: 1 })).toThrow(/format must be "fp16" or "bf16", got "fp8"/);
    expect(() => trainQuantized({ format: "bf16", steps: 0 })).toThrow(/steps must be an integer >= 1, got 0/);
    expect(() => trainQuantized({ format: "fp16", steps: 1, lossScale: 1000 })).toThrow(/lossScale must be a power of two >= 1, got 1000/);
    expect(() => trainQuantized({ format: "bf16", steps: 1, ...small, quantize: (v) => v.subarray(1) })).toThrow(/quantize must return a Float32Array of \d+ elements, got \d+ elements/);
  });

  it("trainQuantized is deterministic for any data seed (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1000 }), (seed) => {
      const a = trainQuantized({ format: "bf16", steps: 2, ...small, dataSeed: seed });
      const b = trainQuantized({ format: "bf16", steps: 2, ...small, dataSeed: seed });
      return a.losses.every((x, i) => Object.is(x, b.losses[i]));
    }), { seed: 5, numRuns: 5 });
  });
});
