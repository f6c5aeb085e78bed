import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { readFileSync } from "node:fs";
import { shellFlags } from "./shellFlags.js";
import { readMegatronLaunch } from "./readMegatronLaunch.js";
import { megatronPlan } from "./megatronPlan.js";
import { evaluatePlan } from "./evaluatePlan.js";
import { clusterPreset } from "./clusterPresets.js";
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

  it("expands string variables on the command line and splits them as bash does (Megatron's older examples: torchrun $DISTRIBUTED_ARGS pretrain_gpt.py $GPT_ARGS)", () => {
    const text = 'N=2\nDIST="--nproc_per_node 8 \\\n  --nnodes $N"\nGPT_ARGS="\n  --num-layers 24\n  --micro-batch-size 2   # two\n"\ntorchrun $DIST pretrain_gpt.py ${GPT_ARGS} --bf16';
    expect(shellFlags(text).map((x) => [x.flag, x.value])).toEqual([["--nproc_per_node", "8"], ["--nnodes", "2"], ["--num-layers", "24"], ["--micro-batch-size", "2"], ["--bf16", null]]);
  });

  it("reads a quoted array element \"--flag value\" as two words, as the unquoted ${ARR[@]} gives them to argparse", () => {
    const f = shellFlags('DATA=(\n  "--vocab-size 128256"\n  "--split \'99,1,0\'"\n)\ntorchrun pretrain_gpt.py ${DATA[@]} --name "a b"');
    expect(f.map((x) => [x.flag, x.value])).toEqual([["--vocab-size", "128256"], ["--split", "'99,1,0'"], ["--name", "a b"]]);
  });

  it("$(( … )) may hold spaces, and a comment's apostrophe opens no quote", () => {
    const f = shellFlags("MBS=2 # don't change\nGBS=$((MBS * 4 * 16))\n--global-batch-size $GBS --micro-batch-size $(( MBS * 2 ))");
    expect(f.map((x) => [x.flag, x.value, x.unresolved])).toEqual([["--global-batch-size", "128", []], ["--micro-batch-size", "4", []]]);
  });

  it("a comment's trailing backslash continues nothing, and the command of bash -c \"…\" is split as the inner shell splits it (BigScience's tr11-176B-ml.slurm: both lost its whole command line)", () => {
    const text = 'A="--num-layers 24"\n#    --universal-checkpoint \\\nexport CMD=" \\\n    `pwd`/pretrain_gpt.py $A \\\n    --bf16"\nLAUNCHER="python -m torch.distributed.run --nproc_per_node 8 --nnodes $SLURM_NNODES"\nsrun --jobid 1 bash -c "$LAUNCHER --node_rank \\$SLURM_PROCID $CMD" 2>&1 | tee log';
    const f = shellFlags(text);
    expect(f.map((x) => x.flag)).toEqual(["--jobid", "--nproc_per_node", "--nnodes", "--node_rank", "--num-layers", "--bf16"]);
    expect(f.find((x) => x.flag === "--nnodes")!.unresolved).toEqual(["SLURM_NNODES"]); // unset inside the expanded $LAUNCHER
  });

  it("knows the if/else branch of each flag (conditions are not evaluated): Megatron-LM's llama3 FP8 script sets --tokenizer-type in both arms", () => {
    const text = 'X=()\nif [[ "$T" == "MOCK" ]]; then\n  X+=( "--tokenizer-type NullTokenizer" )\nelse\n  X+=( "--tokenizer-type HuggingFaceTokenizer" )\nfi\ntorchrun pretrain_gpt.py ${X[@]} --bf16';
    expect(shellFlags(text).map((f) => [f.flag, f.branch])).toEqual([["--tokenizer-type", "1.0"], ["--tokenizer-type", "1.1"], ["--bf16", ""]]);
    const notes = readMegatronLaunch(`${gpt.replace(" --tokenizer-type GPT2BPETokenizer", " --vocab-size 128256")}\n${text}`, { worldSize: 8 }).notes.join("\n");
    expect(notes).toMatch(/--tokenizer-type is set in two branches of the text's if\/else \(NullTokenizer, then HuggingFaceTokenizer\): this reader does not evaluate conditions/);
    expect(readMegatronLaunch(`${gpt} --micro-batch-size 2`, { worldSize: 8 }).notes.join("\n")).toMatch(/--micro-batch-size is given twice \(4, then 2\): argparse keeps the last/);
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

  it("reads a launch written with string variables, as Megatron-LM's older examples were (it used to answer \"--num-layers is required\")", () => {
    const text = [
      "GPUS_PER_NODE=8", "NNODES=2", 'DISTRIBUTED_ARGS="--nproc_per_node $GPUS_PER_NODE --nnodes $NNODES"',
      'GPT_ARGS="--num-layers 24 \\', "  --hidden-size 2048 --num-attention-heads 16 \\", "  --seq-length 2048 --max-position-embeddings 2048 \\",
      '  --micro-batch-size 4 --global-batch-size 128 --bf16 --tokenizer-type GPT2BPETokenizer"', 'MP_ARGS="--tensor-model-parallel-size 2"',
      "torchrun $DISTRIBUTED_ARGS pretrain_gpt.py $GPT_ARGS $MP_ARGS",
    ].join("\n");
    const r = readMegatronLaunch(text);
    expect([r.worldSize, r.tensorParallel, r.dataParallel, r.microBatch, r.globalBatch, r.precision]).toEqual([16, 2, 8, 4, 128, "bf16"]);
  });

  it("defaults as Megatron: fp32, learned positions, biases, LayerNorm, tied, 4h MLP, global batch = micro × DP, the vocabulary padded to 128 × t", () => {
    const r = readMegatronLaunch(`${gpt} --tensor-model-parallel-size 2`, { worldSize: 8 });
    expect(r.precision).toBe("fp32");
    expect(r.arch).toMatchObject({ learnedPositions: 2048, attentionBias: true, norm: "layernorm", tiedEmbeddings: true, intermediateSize: 8192, vocabSize: 50432, numKvHeads: 16 });
    expect(r.globalBatch).toBe(16);
    expect(readMegatronLaunch(`${gpt} --swiglu`, { worldSize: 8 }).arch.intermediateSize).toBe(Math.floor((4 * 2048 * 2) / 3 / 64) * 64); // 5440
  });

  it("no --tokenizer-type is pretrain_gpt.py's default GPT2BPETokenizer: 50,257 padded to 128 × t (Megatron-LM's examples/gpt3 175B script, t = 8: 51,200; it used to be refused)", () => {
    const noTok = gpt.replace(" --tokenizer-type GPT2BPETokenizer", " --vocab-file gpt2-vocab.json --merge-file gpt2-merges.txt");
    const r = readMegatronLaunch(`${noTok} --tensor-model-parallel-size 8`, { worldSize: 8 });
    expect(r.arch.vocabSize).toBe(51200); // ceil(50257 / 1024) · 1024
    expect(r.notes.join("\n")).toMatch(/no --tokenizer-type: pretrain_gpt.py's default GPT2BPETokenizer/);
    expect(readMegatronLaunch(`${noTok} --vocab-size 32000`, { worldSize: 8 }).arch.vocabSize).toBe(32000);
  });

  it("a SLURM launch: $SLURM_NNODES unset asks for --gpus, which makes it moot; a Megatron-DeepSpeed pipeline split unevenly is refused with its reason; --checkpoint-activations is full recomputation", () => {
    const slurm = `${gpt} --nproc_per_node 8 --nnodes $SLURM_NNODES`;
    expect(() => readMegatronLaunch(slurm)).toThrow(/\$SLURM_NNODES is not set in the text .*; or give --gpus N/);
    expect(readMegatronLaunch(slurm, { worldSize: 16 }).dataParallel).toBe(16);
    const bloomLike = `${gpt.replace("--num-layers 24", "--num-layers 70")} --pipeline-model-parallel-size 12 --deepspeed --pp-partition-method type:transformer|embedding`;
    expect(() => readMegatronLaunch(bloomLike, { worldSize: 96 })).toThrow(/a Megatron-DeepSpeed launch \(--deepspeed\), whose DeepSpeed PipelineModule splits the layers by --pp-partition-method type:transformer\|embedding/);
    expect(() => readMegatronLaunch(bloomLike.replace(" --deepspeed", ""), { worldSize: 96 })).toThrow(/must be divisible by --pipeline-model-parallel-size \(12\)/);
    const old = readMegatronLaunch(`${gpt} --checkpoint-activations`, { worldSize: 8 });
    expect(old.recompute).toBe("full");
    expect(old.notes.join("\n")).toMatch(/--checkpoint-activations: full recomputation .* current Megatron-LM refuses it/);
  });

  it("--use-megatron-fsdp shards by its --data-parallel-sharding-strategy (default optim_grads_params: ZeRO-3); it used to be counted as the distributed optimizer's ZeRO-1 (Megatron-LM examples/megatron_fsdp, d98e8a6)", () => {
    const stage = (extra: string) => readMegatronLaunch(`${gpt} ${extra}`, { worldSize: 8 }).zeroStage;
    expect([stage(""), stage("--use-distributed-optimizer"), stage("--use-megatron-fsdp"), stage("--use-megatron-fsdp --data-parallel-sharding-strategy optim_grads"),
      stage("--use-megatron-fsdp --data-parallel-sharding-strategy optim"), stage("--use-megatron-fsdp --data-parallel-sharding-strategy no_shard")]).toEqual([0, 1, 3, 2, 1, 0]);
    const r = readMegatronLaunch(`${gpt} --use-megatron-fsdp --overlap-grad-reduce --overlap-param-gather`, { worldSize: 8 });
    expect(r.notes.join("\n")).toMatch(/Megatron-FSDP shards the optimizer states, gradients and parameters over data parallelism, counted as ZeRO-3/);
    expect(megatronPlan(r, "adamw").plan.zeroStage).toBe(3);
    expect(() => stage("--use-megatron-fsdp --data-parallel-sharding-strategy full")).toThrow(/--data-parallel-sharding-strategy must be one of no_shard, optim, optim_grads, optim_grads_params, got "full"/);
    expect(readMegatronLaunch(`${gpt} --data-parallel-sharding-strategy optim`, { worldSize: 8 }).notes.join("\n")).toMatch(/no effect without --use-megatron-fsdp/);
  });

  it("--fp16 says Megatron's 20 bytes per parameter (4 + 16/d distributed) beside the estimate's 16, as --bf16 says its 18 (docs/user-guide/features/dist_optimizer.md at d98e8a6)", () => {
    expect(readMegatronLaunch(`${gpt} --fp16`, { worldSize: 8 }).notes.join("\n")).toMatch(/--fp16: Megatron's table gives 20 bytes per parameter .*: 4 bytes per parameter more than the estimate's 2 \+ 2 \+ 12, not counted/);
    expect(readMegatronLaunch(`${gpt} --fp16 --use-distributed-optimizer`, { worldSize: 8 }).notes.join("\n")).toMatch(/: 4\/d bytes per parameter more/);
    expect(readMegatronLaunch(`${gpt} --bf16`, { worldSize: 8 }).notes.join("\n")).not.toMatch(/--fp16:/);
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

  it("reads the switches the step time depends on, with Megatron's defaults (no overlaps, dropout 0.1) and its checks", () => {
    expect(readMegatronLaunch(gpt, { worldSize: 8 }).runtime).toMatchObject({ overlapGradReduce: false, overlapParamGather: false, gradReduceInBf16: false, dropout: true, virtualStages: 1 });
    const r = readMegatronLaunch(`${gpt} --bf16 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather --grad-reduce-in-bf16 --attention-dropout 0.0 --hidden-dropout 0`, { worldSize: 8 });
    expect(r.runtime).toMatchObject({ overlapGradReduce: true, overlapParamGather: true, gradReduceInBf16: true, dropout: false });
    expect(() => readMegatronLaunch(`${gpt} --use-distributed-optimizer --overlap-param-gather`, { worldSize: 8 })).toThrow(/Must use --overlap-param-gather with --overlap-grad-reduce/);
    expect(() => readMegatronLaunch(`${gpt} --overlap-grad-reduce --overlap-param-gather`, { worldSize: 8 })).toThrow(/--overlap-param-gather needs --use-distributed-optimizer/);
    expect(() => readMegatronLaunch(`${gpt} --hidden-dropout 1.5`, { worldSize: 8 })).toThrow(/--hidden-dropout must be a number in \[0, 1\), got "1.5"/);
  });

  it("a launch without tensor or pipeline parallelism is still Megatron's: bf16 gradients kept in fp32 (+2 bytes per parameter) unless --grad-reduce-in-bf16", () => {
    const judge = (extra: string) => {
      const r = readMegatronLaunch(`${gpt} --bf16 --use-distributed-optimizer ${extra}`, { worldSize: 8 });
      const { plan, workload } = megatronPlan(r, "adamw");
      return evaluatePlan(r.arch, plan, clusterPreset("8x-a100-80gb"), workload, { runtime: r.runtime });
    };
    const fp32Grads = judge(""), bf16Grads = judge("--grad-reduce-in-bf16");
    expect(fp32Grads.memory.peak.total - bf16Grads.memory.peak.total).toBe(2 * parameterCount(readMegatronLaunch(gpt, { worldSize: 8 }).arch).total);
    expect(fp32Grads.time.assumptions.join("; ")).toMatch(/Megatron-LM collectives, gradients reduced in fp32/);
  });

  it("says that an FP8 launch is timed with FP8 GEMMs by the planner and judged at 16 bits by the estimate (activations: upper bounds; weights too with --fp8-param-gather)", () => {
    expect(readMegatronLaunch(`${gpt} --bf16 --fp8-format hybrid`, { worldSize: 8 }).fp8).toBe(true);
    expect(readMegatronLaunch(`${gpt} --bf16 --fp8-format hybrid`, { worldSize: 8 }).notes.join("\n")).toMatch(/--fp8-format hybrid: the planner times FP8 GEMMs .* the memory estimate \(npm run estimate\) does not model FP8 and judges the run as bf16/);
    expect(readMegatronLaunch(`${gpt} --bf16 --fp8-format hybrid`, { worldSize: 8 }).notes.join("\n")).not.toMatch(/fp8-param-gather/);
    // Megatron-LM's examples/llama/train_llama3_8b_h100_fp8.sh (d98e8a6) adds --fp8-param-gather: 1-byte weights, which the bf16 count overstates
    expect(readMegatronLaunch(`${gpt} --bf16 --fp8-format hybrid --fp8-param-gather --use-distributed-optimizer`, { worldSize: 8 }).notes.join("\n")).toMatch(/--fp8-param-gather the GEMM weights are kept in FP8 \(1 byte, not 2/);
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
