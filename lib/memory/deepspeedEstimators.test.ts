import { describe, expect, it } from "vitest";
import {
  estimateZero2ModelStatesMemNeeds, estimateZero2ModelStatesMemNeedsBefore2024, estimateZero3ModelStatesMemNeeds,
} from "./deepspeedEstimators.js";

/** DeepSpeed prints `{bytes/2**30:.2f}GB`. */
const gb = (bytes: number) => (bytes / 2 ** 30).toFixed(2);

// bigscience/T0_3B through AutoModel (T5 v1.1 XL without the LM head): d_model 2048, d_ff 5120,
// 24 + 24 layers, 32 heads × d_kv 64, vocab 32128, 32 relative-position buckets. The docs print
// "2783M total params, 65M largest layer params"; the exact counts follow from the architecture:
const d = 2048, ff = 5120, vocab = 32128, inner = 32 * 64;
const attn = 4 * d * inner, gatedFf = 3 * d * ff, rel = 32 * 32;
const encoder = 24 * (attn + gatedFf + 2 * d) + rel + d;
const decoder = 24 * (2 * attn + gatedFf + 3 * d) + rel + d;
const T0_3B = vocab * d + encoder + decoder; // shared embedding counted once
const T0_3B_LARGEST = vocab * d;

describe("estimateZero3ModelStatesMemNeeds (DeepSpeed source)", () => {
  it("the T0_3B counts agree with the printed 2783M / 65M", () => {
    expect(Math.trunc(T0_3B / 1e6)).toBe(2783);
    expect(Math.trunc(T0_3B_LARGEST / 1e6)).toBe(65);
  });

  // Hugging Face Transformers' DeepSpeed guide, "Memory requirements": T0_3B on 1 node, 1 GPU and 2 GPUs.
  it.each([
    [1, [["70.00", "0.25"], ["70.00", "0.25"], ["62.23", "5.43"], ["62.23", "5.43"], ["0.37", "46.91"], ["15.56", "46.91"]]],
    [2, [["70.00", "0.25"], ["70.00", "0.25"], ["62.23", "2.84"], ["62.23", "2.84"], ["0.74", "23.58"], ["31.11", "23.58"]]],
  ])("reproduces the printed table for T0_3B on %d GPU(s)", (gpus, rows) => {
    const options = [
      { cpuOffload: true, cpuOffloadParams: true, zeroInit: true }, { cpuOffload: true, cpuOffloadParams: true, zeroInit: false },
      { cpuOffload: true, cpuOffloadParams: false, zeroInit: true }, { cpuOffload: true, cpuOffloadParams: false, zeroInit: false },
      { cpuOffload: false, cpuOffloadParams: false, zeroInit: true }, { cpuOffload: false, cpuOffloadParams: false, zeroInit: false },
    ];
    options.forEach((o, i) => {
      const r = estimateZero3ModelStatesMemNeeds(T0_3B, T0_3B_LARGEST, { numGpusPerNode: gpus as number, ...o });
      expect([gb(r.cpuBytes), gb(r.gpuBytes)]).toEqual((rows as string[][])[i]);
    });
  });

  it("reproduces DeepSpeed's docs for t5-3b 'cold' (2851e6 params, 32e6 largest layer, 1 node × 8 GPUs)", () => {
    const rows = [["71.69", "0.12"], ["127.45", "0.12"], ["63.72", "0.78"], ["127.45", "0.78"], ["1.43", "6.09"], ["127.45", "6.09"]];
    const options = [[true, true, true], [true, true, false], [true, false, true], [true, false, false], [false, false, true], [false, false, false]];
    options.forEach(([cpuOffload, cpuOffloadParams, zeroInit], i) => {
      const r = estimateZero3ModelStatesMemNeeds(2851e6, 32e6, { numGpusPerNode: 8, cpuOffload, cpuOffloadParams, zeroInit });
      expect([gb(r.cpuBytes), gb(r.gpuBytes)]).toEqual(rows[i]);
    });
  });

  it("spreads the CPU share over nodes and rejects bad counts", () => {
    const one = estimateZero3ModelStatesMemNeeds(1e9, 1e7, { numGpusPerNode: 8, numNodes: 1 });
    const two = estimateZero3ModelStatesMemNeeds(1e9, 1e7, { numGpusPerNode: 8, numNodes: 2 });
    expect(two.cpuBytes).toBe(one.cpuBytes / 2);
    expect(() => estimateZero3ModelStatesMemNeeds(1e9, 1e7, { numGpusPerNode: 0 })).toThrow(/numGpusPerNode must be an integer >= 1/);
  });
});

describe("estimateZero2ModelStatesMemNeeds (DeepSpeed source after the 2024 fix)", () => {
  it("reproduces the docs' offload row for t5-3b on 8 GPUs: 127.45GB CPU, 5.31GB GPU", () => {
    const r = estimateZero2ModelStatesMemNeeds(2851e6, true, { numGpusPerNode: 8 });
    expect([gb(r.cpuBytes), gb(r.gpuBytes)]).toEqual(["127.45", "5.31"]);
  });

  it("without offload computes 2Ψ + 18Ψ/N, while the docs' 15.93GB comes from the pre-2024 4Ψ + 16Ψ/N", () => {
    const now = estimateZero2ModelStatesMemNeeds(2851e6, false, { numGpusPerNode: 8 });
    expect(now.gpuBytes).toBe(2 * 2851e6 + (18 * 2851e6) / 8);
    expect(gb(now.cpuBytes)).toBe("127.45");
    const before = estimateZero2ModelStatesMemNeedsBefore2024(2851e6, { numGpusPerNode: 8 });
    expect(gb(before.gpuBytes)).toBe("15.93");
  });

  it("truncates like Python's int()", () => {
    expect(estimateZero2ModelStatesMemNeeds(7, false, { numGpusPerNode: 4 }).gpuBytes).toBe(14 + Math.trunc(126 / 4));
  });
});
