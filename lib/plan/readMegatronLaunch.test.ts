import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { readFileSync } from "node:fs";
import { shellFlags } from "./shellFlags.js";
import { readMegatronLaunch } from "./readMegatronLaunch.js";
import { megatronPlan } from "./megatronPlan.js";
import { parameterCount, parseModelConfig } from "../memory/index.js";
import { loadPresetText } from "../memory/loadPresetText.js";

const script = readFileSync(new URL("./configs/megatron-llama2-7b.sh", import.meta.url), "utf8");
const gpt = "--num-layers 24 --hidden-size 2048 --num-attention-heads 16 --seq-length 2048 --max-position-embeddings 2048 --micro-batch-size 4 --tokenizer-type GPT2BPETokenizer";

describe("shellFlags(text)", () => {
  it("joins backslash continuations, drops comments, reads bash arrays, expands assigned variables and $(( ))", () => {
    const f = shellFlags("N=2\nGPUS=8\nWORLD=$((GPUS*N))\nARGS=(\n  --tp $N  # two\n)\ntorchrun --nproc_per_node $GPUS \\\n  train.py ${ARGS[@]} --gbs $((WORLD*4)) --name \"a b\" --bf16");
    expect(f.map((x) => [x.flag, x.value])).toEqual([["--tp", "2"], ["--nproc_per_node", "8"], ["--gbs", "64"], ["--name", "a b"], ["--bf16", null]]);
  });

  it("a variable the text never assigns is listed, not guessed; ${X:-d} takes its default", () => {
    const [a, b, c] = shellFlags("--tp $TP --pp ${PP:-4} --gbs $((MBS*8))");
    expect([a.value, a.unresolved]).toEqual(["$TP", ["TP"]]);
    expect(b.value).toBe("4");
    expect(c.unresolved).toEqual(["MBS"]);
  });

  it("property: --flag=value and --flag value read the same", () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z][a-z-]{0,12}$/), fc.integer({ min: 0, max: 1e6 }), (name, v) => {
      expect(shellFlags(`--${name}=${v}`)).toEqual(shellFlags(`--${name} ${v}`));
    }), { seed: 5, numRuns: 100 });
  });
});

describe("readMegatronLaunch(text) against Megatron-LM's rules (arguments.py at d98e8a6)", () => {
  it("reads the Llama-2-7B script: 16 GPUs = tensor 2 × pipeline 2 × data 4, global batch 128 = 2 × 16 × 4, and the same 6,738,415,616 parameters as the Hugging Face config", () => {
    const r = readMegatronLaunch(script);
    expect([r.worldSize, r.tensorParallel, r.pipelineParallel, r.dataParallel, r.microBatch, r.globalBatch]).toEqual([16, 2, 2, 4, 2, 128]);
    expect([r.precision, r.distributedOptimizer, r.recompute, r.sequenceParallel, r.attention]).toEqual(["bf16", true, "selective", true, "flash"]);
    expect(parameterCount(r.arch).total).toBe(parameterCount(parseModelConfig(loadPresetText("llama-2-7b"))).total);
    expect(megatronPlan(r, "adamw").plan).toMatchObject({ zeroStage: 1, gradAccum: 16, microBatch: 2 });
  });

  it("defaults as Megatron: fp32, learned positions, biases, LayerNorm, tied, 4h MLP, global batch = micro × DP, the vocabulary padded to 128 × t", () => {
    const r = readMegatronLaunch(`${gpt} --tensor-model-parallel-size 2`, { worldSize: 8 });
    expect(r.precision).toBe("fp32");
    expect(r.arch).toMatchObject({ learnedPositions: 2048, attentionBias: true, norm: "layernorm", tiedEmbeddings: true, intermediateSize: 8192, vocabSize: 50432, numKvHeads: 16 });
    expect(r.globalBatch).toBe(16);
    expect(readMegatronLaunch(`${gpt} --swiglu`, { worldSize: 8 }).arch.intermediateSize).toBe(Math.floor((4 * 2048 * 2) / 3 / 64) * 64); // 5440
  });

  it("--num-query-groups counts only with --group-query-attention, whose default is one group", () => {
    expect(readMegatronLaunch(`${gpt} --num-query-groups 4`, { worldSize: 8 }).arch.numKvHeads).toBe(16);
    expect(readMegatronLaunch(`${gpt} --group-query-attention --num-query-groups 4`, { worldSize: 8 }).arch.numKvHeads).toBe(4);
    expect(readMegatronLaunch(`${gpt} --group-query-attention`, { worldSize: 8 }).arch.numKvHeads).toBe(1);
  });

  it("refuses what Megatron refuses, naming the flag", () => {
    const bad: [string, RegExp][] = [
      [`${gpt} --tensor-model-parallel-size 3`, /--tensor-model-parallel-size 3: numHeads \(16\) must be divisible by T \(3\)/],
      [`${gpt} --pipeline-model-parallel-size 5`, /--num-layers \(24\) must be divisible by --pipeline-model-parallel-size \(5\)/],
      [`${gpt} --tensor-model-parallel-size 8 --group-query-attention --num-query-groups 3 --num-attention-heads 24 --hidden-size 3072`, /--tensor-model-parallel-size 8: numKvHeads \(3\) must be a multiple or a divisor of T \(8\)/],
      [`${gpt} --global-batch-size 20`, /global batch size \(20\) is not divisible by micro batch size \(4\) times data parallel size \(8\)/],
      [`${gpt} --seq-length 4096`, /--seq-length \(4096\) must be at most --max-position-embeddings \(2048\)/],
      [`${gpt} --bf16 --fp16`, /--bf16 and --fp16 exclude each other/],
      [gpt.replace("--micro-batch-size 4", ""), /--micro-batch-size is required/],
      [gpt.replace("--tokenizer-type GPT2BPETokenizer", "--tokenizer-type HuggingFaceTokenizer"), /add --vocab-size N to the arguments/],
      [`${gpt} --recompute-granularity selective --recompute-method uniform`, /recompute method is not yet supported for selective/],
      [`${gpt} --tensor-model-parallel-size $TP`, /--tensor-model-parallel-size \$TP: \$TP is not set in the text \(assign it, e\.g\. TP=2, or write the number\)/],
    ];
    for (const [text, re] of bad) expect(() => readMegatronLaunch(text, { worldSize: 8 })).toThrow(re);
    expect(() => readMegatronLaunch(`--nproc_per_node 6 ${gpt} --tensor-model-parallel-size 4`)).toThrow(/world size \(6\) is not divisible by total_model_size \(4/);
  });

  it("--sequence-parallel is dropped at t = 1, as Megatron drops it", () => {
    const r = readMegatronLaunch(`${gpt} --sequence-parallel`, { worldSize: 8 });
    expect(r.sequenceParallel).toBe(false);
    expect(r.notes.join("\n")).toMatch(/Disabling sequence parallelism/);
  });

  it("property: d · t · p = world and global = micro · accumulation · d for every valid layout", () => {
    fc.assert(fc.property(fc.constantFrom(1, 2, 4, 8), fc.constantFrom(1, 2, 3, 4, 6), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }), (t, p, d, acc) => {
      const r = readMegatronLaunch(`${gpt} --num-layers 24 --tensor-model-parallel-size ${t} --pipeline-model-parallel-size ${p} --global-batch-size ${4 * d * acc}`, { worldSize: t * p * d });
      expect(r.dataParallel! * t * p).toBe(t * p * d);
      expect(megatronPlan(r, "adamw").plan.gradAccum).toBe(acc);
    }), { seed: 9, numRuns: 100 });
  });
});
