import { describe, expect, it } from "vitest";
import { GradScaler, type ScalableOptimizer } from "./GradScaler.js";

/** A one-parameter SGD optimizer (lr 1) whose gradient the test writes, as backward would. */
function sgd(w = 10): ScalableOptimizer & { w: number; steps: number; grads: Float32Array[] } {
  const o = { w, steps: 0, grads: [new Float32Array(1)], step() { o.w -= o.grads[0]![0]!; o.steps++; } };
  return o;
}

describe("GradScaler", () => {
  it("new GradScaler() has PyTorch's defaults and a lazily created scale", () => {
    const s = new GradScaler();
    expect(s.getScale()).toBe(65536);
    expect([s.growthFactor, s.backoffFactor, s.growthInterval]).toEqual([2, 0.5, 2000]);
    expect(() => s.update()).toThrow(/Attempted update but _scale is None/);
    expect(s.scale(0.5)).toBe(32768);
  });

  it("GradScaler.step skips on inf, update backs off, then grows after growthInterval clean steps (trace)", () => {
    const s = new GradScaler({ initScale: 8, growthInterval: 2 });
    const opt = sgd();
    const trace: string[] = [];
    // per iteration: the unscaled gradient backward would give (times the scale), or Infinity
    for (const g of [1, Infinity, 0.5, 0.25, 0.125]) {
      const scale = s.scale(1); // the scaled loss of a unit loss is the current scale
      opt.grads[0]![0] = g * scale;
      const r = s.step(opt);
      s.update();
      trace.push(`${scale}:${r.stepped ? "step" : "skip"}→${s.getScale()}/${s.getGrowthTracker()}`);
    }
    expect(trace).toEqual(["8:step→8/1", "8:skip→4/0", "4:step→4/1", "4:step→8/0", "8:step→8/1"]);
    expect(opt.steps).toBe(4);
    expect(opt.w).toBe(10 - 1 - 0.5 - 0.25 - 0.125);
  });

  it("GradScaler.unscale_ once, then clip, then step does not unscale twice", () => {
    const s = new GradScaler();
    const opt = sgd();
    opt.grads[0]![0] = s.scale(1) * 3; // scaled gradient
    s.unscale_(opt);
    expect(opt.grads[0]![0]).toBe(3);
    expect(s.stageOf(opt)).toBe("UNSCALED");
    s.step(opt);
    expect(opt.w).toBe(7);
    s.update();
    expect(s.stageOf(opt)).toBe("READY");
  });

  it("GradScaler raises PyTorch's errors on a second unscale_, unscale_ after step, a second step", () => {
    const s = new GradScaler();
    const opt = sgd();
    s.scale(1);
    s.unscale_(opt);
    expect(() => s.unscale_(opt)).toThrow("unscale_() has already been called on this optimizer since the last update().");
    s.step(opt);
    expect(() => s.unscale_(opt)).toThrow("unscale_() is being called after step().");
    expect(() => s.step(opt)).toThrow("step() has already been called since the last update().");
    s.update();
    expect(() => s.update()).toThrow("No inf checks were recorded prior to update.");
  });

  it("GradScaler.step with no gradients at all fails like PyTorch", () => {
    const s = new GradScaler();
    s.scale(1);
    expect(() => s.step({ grads: [null], step() {} })).toThrow("No inf checks were recorded for this optimizer.");
  });

  it("GradScaler: a NaN loss makes NaN gradients, the step is skipped and the scale halves (documented behaviour)", () => {
    const s = new GradScaler();
    const opt = sgd();
    const scaled = s.scale(NaN);
    expect(Number.isNaN(scaled)).toBe(true);
    opt.grads[0]![0] = scaled; // backward of a NaN loss
    expect(s.step(opt)).toEqual({ stepped: false, foundInf: true });
    s.update();
    expect(opt.w).toBe(10);
    expect(s.getScale()).toBe(32768);
  });

  it("GradScaler({enabled: false}) is a pass-through", () => {
    const s = new GradScaler({ enabled: false, growthFactor: 0.1 }); // options not validated when disabled, as in PyTorch
    const opt = sgd();
    expect(s.scale(2.5)).toBe(2.5);
    opt.grads[0]![0] = 1;
    s.unscale_(opt);
    expect(s.step(opt)).toEqual({ stepped: true, foundInf: false });
    s.update();
    expect([s.getScale(), s.getGrowthTracker(), opt.w]).toEqual([1, 0, 9]);
    expect(s.stateDict()).toEqual({});
  });

  it("GradScaler.update(newScale) sets the scale and keeps the growth tracker", () => {
    const s = new GradScaler({ growthInterval: 10 });
    const opt = sgd();
    opt.grads[0]![0] = s.scale(1);
    s.step(opt);
    s.update();
    s.update(1024);
    expect([s.getScale(), s.getGrowthTracker()]).toEqual([1024, 1]);
    expect(() => s.update(-1)).toThrow(/newScale must be a positive finite number, got -1/);
  });

  it("GradScaler rejects bad options: growth factor <= 1, backoff outside (0, 1), negative interval", () => {
    expect(() => new GradScaler({ growthFactor: 1 })).toThrow(/growthFactor/);
    expect(() => new GradScaler({ backoffFactor: 1.5 })).toThrow(/backoffFactor must be in \(0, 1\)/);
    expect(() => new GradScaler({ growthInterval: -3 })).toThrow(/growthInterval must be an integer >= 1, got -3/);
    expect(() => new GradScaler({ initScale: 0 })).toThrow(/initScale/);
  });

  it("GradScaler.stateDict round-trips through loadStateDict", () => {
    const a = new GradScaler({ growthInterval: 5 });
    const opt = sgd();
    opt.grads[0]![0] = a.scale(1);
    a.step(opt);
    a.update();
    const b = new GradScaler({ growthInterval: 5 });
    b.loadStateDict(a.stateDict());
    expect([b.getScale(), b.getGrowthTracker()]).toEqual([65536, 1]);
    expect(b.scale(1)).toBe(65536);
  });
});
