import { describe, expect, it } from "vitest";
import { LLAMA3_405B, LLAMA3_405B_LAYOUTS } from "./llama3.js";
import { megatronRankGroups } from "./megatronRankGroups.js";
import { cpActivationBytes } from "./cpActivationBytes.js";

describe("LLAMA3_405B_LAYOUTS", () => {
  it("every layout of Llama 3's Table 4 uses all its GPUs (TP·CP·PP·DP) and about 16M tokens a step", () => {
    for (const r of LLAMA3_405B_LAYOUTS) {
      expect(r.tp * r.cp * r.pp * r.dp).toBe(r.gpus);
      expect(r.dp * r.batchPerDp * r.seqLen).toBe(2 ** 24);
      expect(megatronRankGroups({ ...r, order: "tp-cp-pp-dp" }, "dp-cp")[0].length).toBe(r.dp * r.cp);
    }
  });
  it("the long-context stage keeps 8,192 tokens per GPU per sequence, as the 8K stage, so the activations stored per GPU are the same", () => {
    const [, short, long] = LLAMA3_405B_LAYOUTS;
    expect(long.seqLen / long.cp).toBe(short.seqLen);
    const mem = (r: typeof long) => cpActivationBytes({ seqLen: r.seqLen, cpSize: r.cp, microBatch: 1, hiddenSize: LLAMA3_405B.hiddenSize, numHeads: LLAMA3_405B.numHeads, numKvHeads: LLAMA3_405B.numKvHeads, tensorParallel: r.tp, sequenceParallel: true }).stored;
    expect(mem(long)).toBe(mem(short));
  });
});
