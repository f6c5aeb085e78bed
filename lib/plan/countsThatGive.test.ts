import { describe, expect, it } from "vitest";
import { countsThatGive, flopsPerTokenByCount } from "./countsThatGive.js";
import { stagesFromProfile } from "./stagesFromProfile.js";
import { dataParallelCommTime } from "./dataParallelCommTime.js";
import { PUBLISHED_RUNS } from "./publishedRuns.js";
import { parameterCount } from "../memory/index.js";
import { matmulParams, palmFlopsPerToken } from "../perf/index.js";

const mpt = PUBLISHED_RUNS.find((r) => r.id === "mpt-70b")!;
const a = mpt.arch;
const MPT = { params: parameterCount(a).total, vocabSize: a.vocabSize, hiddenSize: a.hiddenSize, numLayers: a.numLayers, numHeads: a.numHeads, headDim: a.headDim, tiedEmbeddings: a.tiedEmbeddings, positionRows: a.learnedPositions, seqLen: 2048, tokensPerSecond: 66523, numGpus: 64, peakFlopsPerGpu: 989.5e12, reported: "42.57" };

describe("countsThatGive", () => {
  it("worked example: llm-foundry's MPT-70B row (42.57 %) is PaLM's count, not 6Ψ (40.87 %)", () => {
    expect(countsThatGive(MPT)).toEqual(["palm-mfu"]);
    expect(countsThatGive({ ...MPT, reported: "40.87" })).toEqual(["six-psi"]);
  });
  it("PaLM's count equals lib/perf's palmFlopsPerToken (N = matmulParams), and HFU with full recomputation is 4/3 of it", () => {
    const f = flopsPerTokenByCount(MPT);
    expect(f["palm-mfu"]).toBe(palmFlopsPerToken(a, 2048));
    expect(MPT.params - MPT.positionRows * MPT.hiddenSize - (MPT.tiedEmbeddings ? 0 : MPT.vocabSize * MPT.hiddenSize)).toBe(matmulParams(a));
    expect(f["palm-hfu-full"] / f["palm-mfu"]).toBeCloseTo(4 / 3, 12);
  });
  it("a figure printed to whole percents takes half a unit; one printed to many digits 0.1 %", () => {
    expect(countsThatGive({ ...MPT, reported: "43" })).toEqual(["palm-mfu"]);
    expect(countsThatGive({ ...MPT, reported: "42.6" })).toEqual(["palm-mfu"]);
    expect(countsThatGive({ ...MPT, reported: "42.52" })).toEqual(["palm-mfu"]); // 0.1 % of 42.52 = 0.043
    expect(countsThatGive({ ...MPT, reported: "42.50" })).toEqual([]);
  });
  it("names the field of bad input", () => {
    expect(() => countsThatGive({ ...MPT, reported: "42.5%" })).toThrow(new RangeError('reported must be a percentage as printed (digits, at most one point), got "42.5%"'));
    expect(() => countsThatGive({ ...MPT, numGpus: 0 })).toThrow(new RangeError("numGpus must be an integer > 0, got 0"));
  });
});

describe("stagesFromProfile", () => {
  const o = { shardParams: 1e9, dataParallel: 8, microBatches: 4, link: { alphaS: 0, bandwidthBytesPerS: 100e9 }, bytesPerElement: 2, backwardPerMicroBatchS: 0.02, busyPerMicroBatchS: 0.03 };
  it("worked example: exposed 0.0325 s, hidden 0.02 s is stage 1", () => {
    expect(stagesFromProfile(o, { exposedS: 0.0325, hiddenS: 0.02 })).toEqual([1]);
  });
  it("reads every stage's own profile back, and stages 1 and 2 alike with one micro-batch", () => {
    for (const z of [0, 1, 2, 3] as const) expect(stagesFromProfile(o, dataParallelCommTime({ ...o, zeroStage: z }))).toContain(z);
    expect(stagesFromProfile({ ...o, microBatches: 1 }, dataParallelCommTime({ ...o, microBatches: 1, zeroStage: 2 }))).toEqual([1, 2]);
    expect(stagesFromProfile({ ...o, dataParallel: 1 }, { exposedS: 0, hiddenS: 0 })).toEqual([0, 1, 2, 3]);
    expect(() => stagesFromProfile(o, { exposedS: -1, hiddenS: 0 })).toThrow(new RangeError("profile.exposedS must be a finite number >= 0, got -1"));
  });
});
