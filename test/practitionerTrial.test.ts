/**
 * The practitioner trial: public launch scripts and configs, run through `npm run estimate` as the
 * README tells a practitioner to. Each row names its source (repository, path, commit); the text
 * here is not the file but the lines of it the readers act on, retyped with the same structure
 * (the public files stay out of the repository), and each expectation comes from the framework's
 * own rule or a published figure, never from this code's output.
 */
import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../lib/memory/cli.js";

const dir = mkdtempSync(join(tmpdir(), "trial-"));
const file = (name: string, text: string) => { const p = join(dir, name); writeFileSync(p, text); return p; };
const estimate = (...argv: string[]) => {
  const r = main([...argv, "--json"]);
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as { params: number; perGpu: Record<string, number>; notes?: string[] } & Record<string, unknown>;
};
const refusal = (...argv: string[]) => { const r = main(argv); expect(r.code).toBe(2); return r.stderr; };

/** GPT-style decoder with learned positions, LayerNorm, biases, tied embeddings: 12Lh² + 13Lh + (V + s)h + 2h. */
const gptParams = (L: number, h: number, V: number, s: number) => 12 * L * h * h + 13 * L * h + (V + s) * h + 2 * h;

describe("practitioner trial: public launches and configs through npm run estimate", () => {
  it("NVIDIA/Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh @ d98e8a6: refused on its own 8 GPUs as Megatron refuses it, read on 1024 (Narayanan et al. 2021, Table 1: t = 8, p = 16)", () => {
    const launch = file("gpt3.sh", [
      "GPUS_PER_NODE=8", "NUM_NODES=1",
      "DISTRIBUTED_ARGS=(\n  --nproc_per_node $GPUS_PER_NODE\n  --nnodes $NUM_NODES\n)",
      "GPT_MODEL_ARGS=(\n  --num-layers 96\n  --hidden-size 12288\n  --num-attention-heads 96\n  --seq-length 2048\n  --max-position-embeddings 2048\n  --attention-backend auto # comment\n)",
      "TRAINING_ARGS=(\n  --micro-batch-size 1\n  --global-batch-size 1536\n  --fp16\n)",
      "MODEL_PARALLEL_ARGS=(\n\t--tensor-model-parallel-size 8\n\t--pipeline-model-parallel-size 16\n)",
      "DATA_ARGS=(\n  --vocab-file $VOCAB_FILE\n  --merge-file $MERGE_FILE\n)",
      "torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py ${GPT_MODEL_ARGS[@]} ${TRAINING_ARGS[@]} ${MODEL_PARALLEL_ARGS[@]} ${DATA_ARGS[@]}",
    ].join("\n"));
    expect(refusal("--megatron-args", launch)).toMatch(/world size \(8\) is not divisible by total_model_size \(128 = tensor 8 × pipeline 16 × context 1\).*give --gpus N/);
    const r = estimate("--megatron-args", launch, "--gpus", "1024");
    // pretrain_gpt.py's default GPT2BPETokenizer: 50,257 padded to a multiple of 128 · t = 1024 → 51,200 (Megatron vocab_size_with_padding)
    expect(r.params).toBe(gptParams(96, 12288, 51200, 2048)); // 174,615,846,912
    // fp16 without the distributed optimizer: 2-byte weights and gradients, 12 bytes of fp32 master and Adam, over t·p = 128
    expect(r.perGpu.parameters).toBeCloseTo((2 * r.params) / 128, -7);
    expect(r.perGpu.optimizerStates).toBeCloseTo((12 * r.params) / 128, -7);
  });

  it("NVIDIA/Megatron-LM examples/llama/train_llama3_8b_h100_fp8.sh @ d98e8a6: Llama 3 8B's published 8,030,261,248 parameters; the tokenizer's if/else and FP8 weights said, not silently taken", () => {
    const launch = file("llama3.sh", [
      'TOKENIZER_ARG=${3:-"MOCK"}', "MODEL_ARGS=(\n  --num-layers 32\n  --hidden-size 4096\n  --ffn-hidden-size 14336\n  --num-attention-heads 32\n  --group-query-attention\n  --num-query-groups 8\n  --seq-length 8192\n  --max-position-embeddings 8192\n  --position-embedding-type rope\n  --attention-dropout 0.0\n  --hidden-dropout 0.0\n  --swiglu\n  --normalization RMSNorm\n  --untie-embeddings-and-output-weights\n  --disable-bias-linear\n)",
      "TRAINING_ARGS=(\n  --micro-batch-size 1\n  --global-batch-size 128\n  --bf16\n  --grad-reduce-in-bf16\n)",
      'DTYPE_ARGS=()\nif [[ "$DTYPE" == "fp8" ]]; then\n  DTYPE_ARGS+=(\n    "--fp8-format hybrid"\n    "--fp8-param-gather"\n  )\nfi',
      "DDP_ARGS=(\n  --use-distributed-optimizer\n  --overlap-grad-reduce\n  --overlap-param-gather\n)",
      'if [[ "$TOKENIZER_ARG" == "MOCK" ]]; then\n  DATA=( "--tokenizer-type NullTokenizer" "--vocab-size 128256" )\nelse\n  DATA=( "--tokenizer-type HuggingFaceTokenizer" "--vocab-size 128256" )\nfi',
      "torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py ${MODEL_ARGS[@]} ${TRAINING_ARGS[@]} ${DTYPE_ARGS[@]} ${DDP_ARGS[@]} ${DATA[@]}",
    ].join("\n"));
    const r = estimate("--megatron-args", launch);
    expect(r.params).toBe(8_030_261_248); // meta-llama/Meta-Llama-3-8B
    const text = main(["--megatron-args", launch]).stdout;
    expect(text).toMatch(/--tokenizer-type is set in two branches of the text's if\/else/);
    expect(text).toMatch(/--fp8-param-gather the GEMM weights are kept in FP8/);
    expect(text).toMatch(/ZeRO-1/); // --use-distributed-optimizer
    // Megatron's own cross-entropy (it was sized with Hugging Face's 2 · 4·b·s·V): bf16 logits and one fp32 softmax, b = 1, s = 8192, V = 128,256
    expect((r.peak as { lines: { name: string; bytes: number }[] }).lines.find((l) => l.name === "logitsFp32")!.bytes).toBe(6 * 8192 * 128256);
  });

  it("NVIDIA/Megatron-LM examples/megatron_fsdp/train_llama3_8b_fsdp_h100_fp8.sh @ d98e8a6: Megatron-FSDP's optim_grads_params shards weights, gradients and optimizer states (it was counted as ZeRO-1)", () => {
    const launch = file("mfsdp.sh", [
      'SHARDING_STRATEGY=${SHARDING_STRATEGY:-"optim_grads_params"}',
      "torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py --num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336 --num-attention-heads 32 --group-query-attention --num-query-groups 8 --seq-length 8192 --max-position-embeddings 8192 --position-embedding-type rope --swiglu --normalization RMSNorm --untie-embeddings-and-output-weights --disable-bias-linear --vocab-size 128256 --micro-batch-size 1 --global-batch-size 128 --bf16 \\\n  --use-megatron-fsdp --data-parallel-sharding-strategy ${SHARDING_STRATEGY}",
    ].join("\n"));
    const r = estimate("--megatron-args", launch);
    expect(r.perGpu.parameters).toBeCloseTo((2 * 8_030_261_248) / 8, -7); // sharded over the 8 data-parallel ranks
    expect(r.perGpu.gradients).toBeCloseTo((2 * 8_030_261_248) / 8, -7);
  });

  it("NVIDIA/Megatron-LM examples/mixtral/train_mixtral_8x7b_distributed.sh @ d98e8a6: Llama2Tokenizer's size is in its model file (refused, naming the fix); with --vocab-size 32000, Mixtral's published 46.7B", () => {
    const args = "--num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336 --num-attention-heads 32 --group-query-attention --num-query-groups 8 --seq-length 4096 --max-position-embeddings 32768 --normalization RMSNorm --position-embedding-type rope --swiglu --untie-embeddings-and-output-weights --disable-bias-linear --no-position-embedding --num-experts 8 --moe-router-topk 2 --micro-batch-size 1 --global-batch-size 256 --bf16 --pipeline-model-parallel-size 4 --use-distributed-optimizer --tokenizer-type Llama2Tokenizer";
    expect(refusal("--megatron-args", file("mixtral.sh", `torchrun --nproc_per_node 8 pretrain_gpt.py ${args}`), "--gpus", "64")).toMatch(/--tokenizer-type Llama2Tokenizer\), which this reader cannot open: add --vocab-size N/);
    expect(estimate("--megatron-args", file("mixtral-v.sh", `torchrun pretrain_gpt.py ${args} --vocab-size 32000`), "--gpus", "64").params).toBe(46_702_792_704); // mistralai/Mixtral-8x7B-v0.1
  });

  it("bigscience-workshop/bigscience train/tr11-176B-ml/tr11-176B-ml.slurm @ e726b15: the command line is found (a comment's trailing backslash, srun … bash -c \"$LAUNCHER $CMD\"), and its uneven Megatron-DeepSpeed pipeline is refused with its reason", () => {
    const slurm = file("tr11.slurm", [
      "NNODES=$SLURM_NNODES", "TP_SIZE=4", "PP_SIZE=12", "NLAYERS=70",
      'GPT_ARGS=" \\\n    --pp-partition-method \'type:transformer|embedding\' \\\n    --num-layers $NLAYERS \\\n    --hidden-size 14336 \\\n    --num-attention-heads 112 \\\n    --seq-length 2048 \\\n    --max-position-embeddings 2048 \\\n    --micro-batch-size 2 \\\n    --global-batch-size 2048 \\\n    --bf16 \\\n    --position-embedding-type alibi \\\n    --checkpoint-activations \\\n    --pad-vocab-size-to 250880 \\\n    "',
      'DEEPSPEED_ARGS=" \\\n    --deepspeed \\\n    --zero-stage 0 \\\n    "',
      'export LAUNCHER="python -u -m torch.distributed.run \\\n    --nproc_per_node 8 \\\n    --nnodes $NNODES \\\n    "',
      "#    --universal-checkpoint \\",
      'export CMD=" \\\n    `pwd`/pretrain_gpt.py \\\n    --tensor-model-parallel-size $TP_SIZE \\\n    --pipeline-model-parallel-size $PP_SIZE \\\n    $GPT_ARGS \\\n    --tokenizer-type PretrainedFromHF \\\n     $DEEPSPEED_ARGS \\\n    "',
      'srun $SRUN_ARGS --jobid $SLURM_JOB_ID bash -c "$LAUNCHER --node_rank \\$SLURM_PROCID $CMD" 2>&1 | tee -a $LOGS_PATH/main_log.txt',
    ].join("\n"));
    expect(refusal("--megatron-args", slurm)).toMatch(/--nnodes \$SLURM_NNODES: \$SLURM_NNODES is not set in the text .*; or give --gpus N/);
    // 70 layers + 2 embeddings = 72 units over 12 stages (DeepSpeed PipelineModule, type:transformer|embedding); Megatron-LM needs L/p whole
    expect(refusal("--megatron-args", slurm, "--gpus", "384")).toMatch(/--num-layers \(70\) over --pipeline-model-parallel-size \(12\): a Megatron-DeepSpeed launch \(--deepspeed\)/);
  });

  it("huggingface/transformers tests/deepspeed/ds_config_zero3.json @ e7a1419 (the Trainer's ZeRO-3 offload config): 'auto' filled as the Trainer fills it; every model state offloaded to the CPU", () => {
    const ds = file("zero3.json", JSON.stringify({
      fp16: { enabled: "auto", loss_scale: 0 }, optimizer: { type: "AdamW", params: { lr: "auto" } },
      zero_optimization: { stage: 3, offload_optimizer: { device: "cpu", pin_memory: true }, offload_param: { device: "cpu", pin_memory: true }, sub_group_size: 1e14, stage3_gather_fp16_weights_on_model_save: true },
      gradient_accumulation_steps: "auto", train_batch_size: "auto", train_micro_batch_size_per_gpu: "auto",
    }));
    const r = main(["--model", "llama-2-7b", "--gpus", "8", "--deepspeed", ds, "--precision", "fp16", "--micro-batch", "4"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ZeRO-3 \+ offload optimizer\+params, fp16/);
    expect(r.stdout).toMatch(/train_batch_size is "auto": filled with 32/); // world 8 × micro 4 × accumulation 1 (TrainingArguments defaults)
    expect(r.stdout).toMatch(/deprecated: zero_optimization\.stage3_gather_fp16_weights_on_model_save → stage3_gather_16bit_weights_on_model_save/);
    const j = estimate("--model", "llama-2-7b", "--gpus", "8", "--deepspeed", ds, "--precision", "fp16", "--micro-batch", "4");
    expect([j.perGpu.parameters, j.perGpu.gradients, j.perGpu.optimizerStates]).toEqual([0, 0, 0]);
  });

  it("microsoft/DeepSpeedExamples training/autotuning/hf/dsconfigs/ds_config_fp16_z3.json @ 83757d9 and training/alpaca-lora-zero3/ds_config.json @ 2d0d45b: stage, fp16 and batch read; DeepSpeed's activation_checkpointing block named as not the estimate's --recompute", () => {
    const z3 = file("z3.json", JSON.stringify({ train_micro_batch_size_per_gpu: "auto", zero_optimization: { stage: 3 }, fp16: { enabled: true } }));
    const r = estimate("--model", "llama-2-7b", "--gpus", "4", "--deepspeed", z3, "--micro-batch", "2", "--recompute", "full");
    const psi = 6_738_415_616;
    expect([r.perGpu.parameters, r.perGpu.gradients, r.perGpu.optimizerStates]).toEqual([(2 * psi) / 4, (2 * psi) / 4, (12 * psi) / 4]); // ZeRO-3: 2 + 2 + 12 bytes over N_d = 4
    const alpaca = file("alpaca.json", JSON.stringify({
      fp16: { enabled: true }, optimizer: { type: "Adam", params: { lr: 1e-4 } },
      zero_optimization: { stage: 3, offload_optimizer: { device: "cpu" }, offload_param: { device: "cpu" } },
      activation_checkpointing: { partition_activations: false, cpu_checkpointing: false }, train_micro_batch_size_per_gpu: 8, gradient_accumulation_steps: 1,
    }));
    const out = main(["--model", "llama-2-7b", "--gpus", "8", "--deepspeed", alpaca, "--seq", "512"]).stdout;
    expect(out).toMatch(/train_batch_size 64 = 8 × 1 × 8/);
    expect(out).toMatch(/not modelled: activation_checkpointing: DeepSpeed's activation checkpointing .* the estimate's recomputation is --recompute/);
  });

  it("huggingface/alignment-handbook recipes/accelerate_configs/fsdp.yaml and zero3.yaml @ 925acdf: FULL_SHARD and DeepSpeed ZeRO-3 on one machine of 8, bf16", () => {
    const fsdp = file("fsdp.yaml", "distributed_type: FSDP\nfsdp_config:\n  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n  fsdp_offload_params: false\n  fsdp_sharding_strategy: FULL_SHARD\n  fsdp_use_orig_params: true\nmixed_precision: bf16\nnum_machines: 1\nnum_processes: 8\n");
    const zero3 = file("zero3.yaml", "deepspeed_config:\n  offload_optimizer_device: none\n  offload_param_device: none\n  zero3_init_flag: true\n  zero_stage: 3\ndistributed_type: DEEPSPEED\nmixed_precision: bf16\nnum_machines: 1\nnum_processes: 8\n");
    for (const cfg of [fsdp, zero3]) {
      const out = main(["--model", "mistral-7b", "--fsdp", cfg, "--micro-batch", "4", "--recompute", "full", "--attention", "flash"]).stdout;
      expect(out).toMatch(/Setup: 8 GPUs \(data 8 × tensor 1 × pipeline 1\), ZeRO-3, bf16/);
    }
  });

  it("huggingface/alignment-handbook recipes/accelerate_configs/ddp.yaml @ 925acdf: MULTI_GPU with mixed_precision bf16 is PyTorch AMP, fp32 weights, gradients and DDP buckets, Adam 8 bytes (it was counted with DeepSpeed's 16-bit weights)", () => {
    const ddp = file("ddp.yaml", "distributed_type: MULTI_GPU\ngpu_ids: all\nmixed_precision: bf16\nnum_machines: 1\nnum_processes: 8\n");
    const r = estimate("--model", "mistral-7b", "--fsdp", ddp, "--micro-batch", "1", "--recompute", "full", "--attention", "flash");
    const psi = 7_241_732_096; // mistralai/Mistral-7B-v0.1
    expect([r.perGpu.parameters, r.perGpu.gradients, r.perGpu.optimizerStates, r.perGpu.gradientBuckets]).toEqual([4 * psi, 4 * psi, 8 * psi, 4 * psi]);
  });
});
