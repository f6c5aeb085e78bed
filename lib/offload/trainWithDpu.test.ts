import { describe, expect, it } from "vitest";
import { trainWithDpu } from "./trainWithDpu.js";
import { train } from "../nn/index.js";

describe("trainWithDpu(options)", () => {
  it("without DPU it is lib/nn's train() bit for bit (same batches, same AdamW)", () => {
    const a = trainWithDpu({ steps: 12 });
    const b = train({ steps: 12 });
    expect(a.losses).toEqual(b.losses);
    b.model.params.forEach((p, j) => expect(Array.from(a.master[j])).toEqual(Array.from(p.data)));
  });

  it("with DPU the first step is identical and the second uses stale parameters: step 2's loss equals step 1's parameters' loss on that batch", () => {
    const sync = trainWithDpu({ steps: 3 });
    const dpu = trainWithDpu({ steps: 3, dpu: true });
    expect(dpu.losses[0]).toBe(sync.losses[0]);
    // Step 1 under DPU still runs on the initial parameters (update 0 is in flight), so its loss differs.
    expect(dpu.losses[1]).not.toBe(sync.losses[1]);
  });

  it("a DPU warm-up as long as the run gives the synchronous run exactly", () => {
    const a = trainWithDpu({ steps: 8, dpu: true, dpuWarmupSteps: 8 });
    const b = trainWithDpu({ steps: 8 });
    expect(a.losses).toEqual(b.losses);
  });

  it("DPU is not identical to the synchronous update, but trains: its loss over the last 20 of 60 steps is within 15% of the synchronous run's", () => {
    const steps = 60;
    const sync = trainWithDpu({ steps });
    const dpu = trainWithDpu({ steps, dpu: true, dpuWarmupSteps: 10 });
    const tail = (l: number[]) => l.slice(-20).reduce((a, x) => a + x, 0) / 20;
    expect(dpu.master.some((m, j) => m.some((x, i) => x !== sync.master[j][i]))).toBe(true);
    expect(Math.abs(tail(dpu.losses) - tail(sync.losses)) / tail(sync.losses)).toBeLessThan(0.15);
    expect(tail(dpu.losses)).toBeLessThan(dpu.losses[0] * 0.8); // it trains
  });

  it("bad input names the field", () => {
    expect(() => trainWithDpu({ steps: 0 })).toThrow(/^steps must be an integer >= 1, got 0$/);
    expect(() => trainWithDpu({ steps: 1, dpuWarmupSteps: -1 })).toThrow(/^dpuWarmupSteps must be an integer >= 0, got -1$/);
  });
});
