import type { offloadStep } from "../offload-step.js";
import { offloadStep as lib } from "../../../lib/offload/index.js";
import { optimizerStep, roundArray } from "../../../lib/nn/index.js";

type F = typeof offloadStep;

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "sends the fp32 master to the GPU without rounding to fp16": {
    impl: (s, g, c) => { const r = lib(s, g, c); const send = c.dpu && s.t >= (c.dpuWarmupSteps ?? 0) ? s.master : r.state.master; return { state: r.state, params16: send.map((a) => a.slice()) }; },
    caughtBy: ["the stub's example", "the master follows AdamW; the GPU gets its fp16 rounding", "trains lib/nn's model like the reference (30 steps, synchronous)"],
  },
  "keeps the master in fp16 (rounds the master too)": {
    impl: (s, g, c) => { const r = lib(s, g, c); const master = r.state.master.map((a) => roundArray("fp16", a.slice())); return { state: { ...r.state, master }, params16: r.params16 }; },
    caughtBy: ["the master follows AdamW; the GPU gets its fp16 rounding", "trains lib/nn's model like the reference (30 steps, synchronous)"],
  },
  "DPU without delay: sends this update's parameters": {
    impl: (s, g, c) => lib(s, g, { ...c, dpu: false }),
    caughtBy: ["the delayed update and its warm-up", "trains lib/nn's model like the reference (30 steps, DPU after 5)"],
  },
  "ignores the DPU warm-up": {
    impl: (s, g, c) => lib(s, g, { ...c, dpuWarmupSteps: 0 }),
    caughtBy: ["the delayed update and its warm-up", "trains lib/nn's model like the reference (30 steps, DPU after 5)"],
  },
  "bias correction with t instead of t + 1 (the step counter is not advanced first)": {
    impl: (s, g, c) => {
      const { dpu: _d, dpuWarmupSteps: _w, ...adam } = c;
      if (s.t === 0) return lib(s, g, c);
      const r = optimizerStep(s.master, g, { t: s.t - 1, m: s.m, v: s.v }, { kind: "adamw", lr: 1e-3, ...adam });
      const delayed = (c.dpu ?? false) && s.t >= (c.dpuWarmupSteps ?? 0);
      return { state: { t: s.t + 1, master: r.params, m: r.state.m, v: r.state.v }, params16: (delayed ? s.master : r.params).map((a) => roundArray("fp16", a.slice())) };
    },
    caughtBy: ["the master follows AdamW; the GPU gets its fp16 rounding", "trains lib/nn's model like the reference (30 steps, synchronous)"],
  },
};
