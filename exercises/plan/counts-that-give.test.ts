import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { countsThatGive as lib, flopsPerTokenByCount, FLOP_COUNTS, gptArch, MEGATRON_TABLE_1, PUBLISHED_RUNS } from "../../lib/plan/index.js";
import { parameterCount, type ModelArch } from "../../lib/memory/index.js";
import type { countsThatGive, PublishedUtilisation } from "./counts-that-give.js";

type F = typeof countsThatGive;
const reference: F = (r) => lib(r);
const HINT = "see the section on model FLOP utilisation (/plan#model-flop-utilisation): which parameters take part in a product, what recomputation adds, and how precisely a figure is printed";
const same = async (f: F, r: PublishedUtilisation, hint = HINT): Promise<void> => { await expectSame(f, reference, [r], { hint, label: `countsThatGive(${JSON.stringify(r)})` }); };

const runOf = (a: ModelArch, seqLen: number, tokensPerSecond: number, numGpus: number, peakFlopsPerGpu: number, reported: string): PublishedUtilisation => ({
  params: parameterCount(a).total, vocabSize: a.vocabSize, hiddenSize: a.hiddenSize, numLayers: a.numLayers, numHeads: a.numHeads, headDim: a.headDim,
  tiedEmbeddings: a.tiedEmbeddings, positionRows: a.learnedPositions, seqLen, tokensPerSecond, numGpus, peakFlopsPerGpu, reported,
});
const mpt = PUBLISHED_RUNS.find((r) => r.id === "mpt-70b")!;
const EXAMPLE = runOf(mpt.arch, 2048, 66523, 64, 989.5e12, "42.57");
/** Narayanan et al.'s Table 1 rows: their TFLOP/s per GPU (Eq. 3) read back as tokens per second, and their "% of peak". */
const TABLE_1 = MEGATRON_TABLE_1.map((r) => {
  const a = gptArch({ numLayers: r.numLayers, hiddenSize: r.hiddenSize, numHeads: r.numHeads, vocabSize: 51200, seqLen: 2048 } as never) as ModelArch;
  const base = runOf(a, 2048, 1, r.gpus, 312e12, String(r.percentOfPeak));
  return { ...base, tokensPerSecond: Math.round((r.teraflopsPerGpu * 1e12 * r.gpus) / flopsPerTokenByCount(base)["megatron-eq3"]) };
});

/** A random model of alike layers and a run; `reported` printed from one count with `d` decimals, nudged by `nudge` (relative). */
const model = fc.record({
  layers: fc.integer({ min: 2, max: 120 }), heads: fc.constantFrom(8, 16, 32, 64, 96), headDim: fc.constantFrom(64, 128, 256),
  vocab: fc.integer({ min: 1000, max: 256000 }), tied: fc.boolean(), positions: fc.constantFrom(0, 0, 1024, 2048, 4096), seqLen: fc.constantFrom(512, 1024, 2048, 4096, 8192),
});
interface Model { layers: number; heads: number; headDim: number; vocab: number; tied: boolean; positions: number; seqLen: number }
function synth(m: Model, gpus: number, mfu: number, count: number, d: number): PublishedUtilisation {
  const h = m.heads * m.headDim;
  const params = m.layers * (12 * h * h + 13 * h) + 2 * h + m.vocab * h * (m.tied ? 1 : 2) + m.positions * h;
  const shape = { params, vocabSize: m.vocab, hiddenSize: h, numLayers: m.layers, numHeads: m.heads, headDim: m.headDim, tiedEmbeddings: m.tied, positionRows: m.positions, seqLen: m.seqLen };
  const peak = 989.5e12, flops = flopsPerTokenByCount(shape)[FLOP_COUNTS[count]];
  const tokensPerSecond = (mfu * gpus * peak) / flops;
  return { ...shape, tokensPerSecond, numGpus: gpus, peakFlopsPerGpu: peak, reported: (100 * mfu).toFixed(d) };
}
const arbRun = fc.record({ m: model, gpus: fc.integer({ min: 1, max: 4096 }), mfu: fc.double({ min: 0.05, max: 0.7, noNaN: true }), count: fc.integer({ min: 0, max: 3 }), d: fc.integer({ min: 0, max: 3 }) })
  .map(({ m, gpus, mfu, count, d }) => synth(m, gpus, mfu, count, d));

/** The same run with the throughput that puts `count`'s percentage at `printed` + `offset`. */
function at(r: PublishedUtilisation, count: number, percentage: number): PublishedUtilisation {
  const flops = flopsPerTokenByCount(r)[FLOP_COUNTS[count]];
  return { ...r, tokensPerSecond: (percentage / 100) * r.numGpus * r.peakFlopsPerGpu / flops };
}

export default defineExercise<F>({
  id: "12.1",
  kind: "concept",
  title: "whose FLOP count is that utilisation?",
  chapter: "plan",
  section: "model-flop-utilisation",
  file: "exercises/plan/counts-that-give.ts",
  exportName: "countsThatGive",
  signature: "countsThatGive(run: { params, vocabSize, hiddenSize, numLayers, numHeads, headDim, tiedEmbeddings, positionRows, seqLen, tokensPerSecond, numGpus, peakFlopsPerGpu, reported }): FlopCount[]",
  summary:
    "A published utilisation read backwards: which of four FLOP counts (6Ψ, PaLM's MFU, the hardware's FLOPs with full recomputation, Megatron-LM's Eq. 3) gives the figure a paper or a tool printed, to the precision it printed. Graded on llm-foundry's MPT-70B row, every row of Narayanan et al.'s Table 1 (where two counts agree), models with untied tables and learned positions, figures printed to 0–3 decimals and figures at the edge of their precision.",
  solution: ["lib/plan/countsThatGive.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 2, run: (f) => same(f, EXAMPLE, `the stub's example (MPT-70B, tied embeddings, no position table); ${HINT}`) },
    { name: "Narayanan et al.'s Table 1: every row, and the counts that agree", points: 3, run: async (f) => {
        for (const r of TABLE_1) await same(f, r, "a figure printed to whole percents: several counts may give it, return every one");
    } },
    { name: "random models and runs (untied tables, learned positions, 0–3 decimals)", points: 3, run: (f) => property(arbRun, (r) => same(f, r), { numRuns: 150 }) },
    { name: "at the edge of the printed precision: half a unit, or 0.1 %, whichever is wider", points: 2, run: async (f) => {
        const base = synth({ layers: 32, heads: 32, headDim: 128, vocab: 32000, tied: false, positions: 0, seqLen: 4096 }, 64, 0.4, 1, 0);
        for (const [reported, half] of [["40", 0.5], ["40.1", 0.05], ["40.12", 0.0401], ["40.123", 0.040123]] as const) {
          for (const side of [1 - 1e-9, 1 + 1e-9]) for (const sign of [-1, 1])
            await same(f, at({ ...base, reported }, 1, Number(reported) + sign * half * side), `"${reported}" is printed to ${reported.split(".")[1]?.length ?? 0} decimals: which is wider here, half a unit of its last digit or 0.1 % of it?`);
        }
    } },
    { name: "no count gives it", points: 1, run: async (f) => {
        await same(f, { ...EXAMPLE, reported: "50" }, "no count gives 50 %: return []");
        await same(f, { ...EXAMPLE, reported: "0" }, "no count gives 0 %: return []");
    } },
    { name: "bad input names the field", points: 1, run: async (f) => {
        const e = (r: unknown, re: RegExp) => expectThrows(f, [r as PublishedUtilisation], re, { class: RangeError, hint: "the stub's contract names the field" });
        await e({ ...EXAMPLE, reported: "42.5%" }, /^reported must be a percentage as printed \(digits, at most one point\), got "42\.5%"$/);
        await e({ ...EXAMPLE, numGpus: 0 }, /^numGpus must be an integer > 0, got 0$/);
        await e({ ...EXAMPLE, params: Number.NaN }, /^params must be a finite number > 0, got NaN$/);
        await e({ ...EXAMPLE, positionRows: -1 }, /^positionRows must be an integer >= 0, got -1$/);
    } },
  ],
});
