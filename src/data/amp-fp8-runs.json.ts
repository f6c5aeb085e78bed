// Data loader (Node, build time): the amp page's FP8 loss curves and accumulator figure. lib/nn's model trained
// for RUNS.steps steps in fp32, bf16 and FP8 with four scalings (TE's DelayedScaling defaults, the same with margin 1,
// current scaling, DeepSeek-V3's block-wise scaling), same initial weights and batches; and the FP8 GEMM's error against
// K for a 14-bit tensor-core accumulator with and without promotion. About 40 s on a quiet 2-core machine.
import { fp8AccumulationError, trainFp8, type Fp8Scaling } from "../../lib/amp/fp8/index.js";
import { RUNS } from "./amp-fp8-settings.js";

const configs: { name: string; precision: "fp32" | "bf16" | Fp8Scaling }[] = [
  { name: "fp32", precision: "fp32" },
  { name: "bf16", precision: "bf16" },
  { name: "fp8 delayed (TE defaults)", precision: { kind: "delayed" } },
  { name: "fp8 delayed, margin 1", precision: { kind: "delayed", recipe: { margin: 1 } } },
  { name: "fp8 current", precision: { kind: "current" } },
  { name: "fp8 block-wise (DeepSeek-V3)", precision: { kind: "blockwise" } },
];

const runs = configs.map(({ name, precision }) => {
  const { records } = trainFp8({ precision, steps: RUNS.steps });
  const tensors = new Map<string, { tensor: string; format: string; elements: number; overflow: number; underflow: number; overflowSteps: number }>();
  for (const r of records) for (const t of r.tensors) {
    const s = tensors.get(t.tensor) ?? { tensor: t.tensor, format: t.format, elements: 0, overflow: 0, underflow: 0, overflowSteps: 0 };
    tensors.set(t.tensor, { ...s, elements: s.elements + t.elements, overflow: s.overflow + t.overflow, underflow: s.underflow + t.underflow, overflowSteps: s.overflowSteps + (t.overflow > 0 ? 1 : 0) });
  }
  return { name, precision, losses: records.map((r) => Number(r.loss.toPrecision(6))), tensors: [...tensors.values()] };
});

const ks = [128, 256, 512, 1024, 2048, 4096, 8192];
const accumulation = { ks, bits: 14, promoteEvery: 128, nearest: fp8AccumulationError(ks, { m: 4 }), towardZero: fp8AccumulationError(ks, { m: 4, rounding: "toward-zero" }) };

process.stdout.write(JSON.stringify({ steps: RUNS.steps, batchSize: 4, seqLen: 16, lr: 1e-2, runs, accumulation }));
