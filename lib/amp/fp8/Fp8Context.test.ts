import { describe, expect, it } from "vitest";
import { Fp8Context } from "./Fp8Context.js";
import { quantizeFp8 } from "./quantizeFp8.js";
import { linear } from "../../nn/linear.js";
import { matmul } from "../../nn/matmul.js";
import { mulberry32 } from "../../random.js";
import type { Activation } from "../../nn/types.js";

/** A linear layer (in 4, out 3) on 5 rows, its input and an output gradient. */
function setup(seed = 1) {
  const rng = mulberry32(seed), layer = linear("l", 4, 3, rng);
  const x: Activation = { data: Float32Array.from({ length: 20 }, () => rng() * 4 - 2), rows: 5, cols: 4 };
  const dy: Activation = { data: Float32Array.from({ length: 15 }, () => (rng() - 0.5) * 1e-3), rows: 5, cols: 3 };
  return { layer, W: layer.params[0], x, dy };
}

/** One forward and backward of the layer through the context; returns y, dx and the step's stats. */
function step(ctx: Fp8Context, s: ReturnType<typeof setup>, n = 0) {
  ctx.beginStep(n);
  const { y, saved } = s.layer.forward(s.x, ctx.ops);
  for (const p of s.layer.params) p.grad.fill(0);
  const dx = s.layer.backward(saved, s.dy, ctx.ops)!;
  return { y: y.data, dx: dx.data, dW: Float32Array.from(s.W.grad), stats: ctx.endStep() };
}

describe("Fp8Context", () => {
  it("worked example: the first delayed step casts x and W with scale 1 to E4M3, and the forward GEMM sums their products in fp32 (then adds the bias)", () => {
    const s = setup(), ctx = new Fp8Context([s.W], { kind: "delayed" });
    const { y } = step(ctx, s);
    const qx = quantizeFp8(s.x.data, 1, "fp8-e4m3").data, qw = quantizeFp8(s.W.data, 1, "fp8-e4m3").data;
    const want = matmul(qx, qw, { M: 5, K: 4, N: 3 }); // the bias is 0 at initialisation; y is then rounded to bf16
    y.forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThanOrEqual(Math.abs(want[i]) * 2 ** -8));
  });

  it("casts the three tensors of each FP8 weight, once per step, gradients to E5M2 under HYBRID", () => {
    const s = setup(), { stats } = step(new Fp8Context([s.W], { kind: "delayed" }), s);
    expect(stats.map((t) => [t.tensor, t.format, t.elements])).toEqual([
      ["l.W:input", "fp8-e4m3", 20], ["l.W:weight", "fp8-e4m3", 12], ["l.W:grad_output", "fp8-e5m2", 15],
    ]);
  });

  it("delayed scaling: the scale of step 1 is 448 / (step 0's amax), TE's update; step 1 counts no overflow", () => {
    const s = setup(), ctx = new Fp8Context([s.W], { kind: "delayed" });
    step(ctx, s, 0);
    const amax = Math.max(...[...s.x.data].map(Math.abs));
    expect(ctx.delayedState("l.W:input").scale).toBe(Math.fround(448 / amax));
    const st = step(ctx, s, 1).stats.find((t) => t.tensor === "l.W:input")!;
    expect(st).toMatchObject({ scale: Math.fround(448 / amax), overflow: 0 });
  });

  it("gradients through FP8 stay close to the bf16 ones (dx, dW within a few % in norm)", () => {
    const s = setup(), fp8 = step(new Fp8Context([s.W], { kind: "current" }), s);
    const ref = step(new Fp8Context([], { kind: "current" }), s); // no FP8 weight: every GEMM is lib/nn's
    const rel = (a: Float32Array, b: Float32Array) => Math.hypot(...a.map((v, i) => v - b[i])) / Math.hypot(...b);
    expect(rel(fp8.dx, ref.dx)).toBeLessThan(0.1);
    expect(rel(fp8.dW, ref.dW)).toBeLessThan(0.1);
    expect(rel(fp8.dx, ref.dx)).toBeGreaterThan(0); // but not equal: the casts did something
  });

  it("with one power-of-two scale per element, an outlier channel changes nothing: y, dx and dW are the same bit for bit", () => {
    const s = setup(), base = step(new Fp8Context([s.W], { kind: "blockwise", blockSize: 1 }), s);
    const out = step(new Fp8Context([s.W], { kind: "blockwise", blockSize: 1 }, { outlier: { weight: "l.W", channel: 2, log2Factor: 10 } }), s);
    expect([...out.y]).toEqual([...base.y]);
    expect([...out.dx]).toEqual([...base.dx]);
    expect([...out.dW]).toEqual([...base.dW]);
  });

  it("a per-tensor scale shared with an outlier channel flushes the other values: underflow appears, and the forward error grows", () => {
    const s = setup(), o = { outlier: { weight: "l.W", channel: 0, log2Factor: 18 }, measureError: true };
    const plain = new Fp8Context([s.W], { kind: "current" }, { measureError: true }), spiky = new Fp8Context([s.W], { kind: "current" }, o);
    step(plain, s); const e0 = plain.forwardError.get("l.W")!;
    const r = step(spiky, s), e1 = spiky.forwardError.get("l.W")!;
    expect(r.stats.find((t) => t.tensor === "l.W:input")!.underflow).toBeGreaterThan(0);
    expect(e1).toBeGreaterThan(e0);
  });

  it("refuses an outlier on a weight that is not FP8 and an unknown scaling", () => {
    const s = setup();
    expect(() => new Fp8Context([s.W], { kind: "delayed" }, { outlier: { weight: "head.W", channel: 0, log2Factor: 3 } })).toThrow(/outlier.weight must name an FP8 weight, got "head.W"/);
    expect(() => new Fp8Context([s.W], { kind: "mx" } as never)).toThrow(/scaling.kind must be "delayed", "current" or "blockwise", got "mx"/);
  });
});
