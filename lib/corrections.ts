/**
 * The course's errata of the study notes: every place where a chapter corrects
 * the notes, as data. One source for two places: each chapter page has a box
 * `<div class="warning" id="correction-<id>" label="Correction: <title>">` with
 * the full argument, and the notes page (src/notes.md.ts, at /notes) lists every entry in one
 * table. A test keeps the two in step, so a correction cannot exist in one place only.
 */

/**
 * One correction of the notes.
 * @see src/notes.md.ts (the notes page and its errata table) and each chapter's "Corrections to the notes"
 */
export interface Correction {
  /** Unique, kebab-case; the page box has `id="correction-<id>"`. */
  id: string;
  /** Chapter slug whose page carries the box. */
  chapter: string;
  /** The box's label after "Correction: ", e.g. "3D parallelism". */
  title: string;
  /** What the notes say, in the course's words, with the notes' own term in Chinese where it helps, e.g. "ZeRO's three stages are '3D parallelism' (3D 并行)". */
  claim: string;
  /** The correct statement, one or two sentences. */
  correction: string;
  /** The primary source, with section, e.g. "Narayanan et al. 2021, §1". */
  source: string;
}

// One block per chapter, in course order. Edit only your chapter's block.

// ── precision ──────────────────────────────────────────────
const precision: Correction[] = [
  {
    id: "tf32-npu-flags", chapter: "precision", title: "TF32 flags of the notes are not NVIDIA's",
    claim: "TF32 is switched on with torch.backends.npu.matmul.allow_tf32 = True and torch.backends.npu.matmul.allow_16 = True.",
    correction: "On NVIDIA GPUs the switches are torch.backends.cuda.matmul.allow_tf32 and torch.backends.cudnn.allow_tf32 (or torch.set_float32_matmul_precision(\"high\")). The npu namespace is Huawei Ascend's, whose documented switches are torch_npu.npu.matmul.allow_hf32 and torch_npu.npu.conv.allow_hf32.",
    source: "PyTorch CUDA semantics notes, \"TensorFloat-32 (TF32) on Ampere (and later) devices\"; Ascend PyTorch API reference (torch_npu.npu.matmul.allow_hf32)",
  },
  {
    id: "tf32-not-automatic", chapter: "precision", title: "TF32 is off for matmuls by default",
    claim: "TF32 needs no explicit setting and happens automatically (无需显示设置，而是自动执行).",
    correction: "Only from PyTorch 1.7 to 1.11. Since 1.12, float32 matmuls use TF32 only when enabled; cuDNN convolutions still use it by default.",
    source: "PyTorch CUDA semantics notes, TF32 section",
  },
  {
    id: "tf32-rounds", chapter: "precision", title: "TF32 rounds the inputs",
    claim: "TF32 truncates (截断) fp32 inputs, and a paragraph later rounds (舍入) the mantissa from 23 to 10 bits.",
    correction: "The framework documentation describes rounding to 10 fraction bits (cvt.rna.tf32.f32 rounds to nearest, ties away); PyTorch's numerical-accuracy note says the tensor cores read only the first 10 bits, so it depends on how the library feeds them. Truncation errs by up to 2^-10 relative and always towards zero, rounding by at most 2^-11.",
    source: "PyTorch CUDA semantics notes (\"by rounding input data to have 10 bits of mantissa\"); TensorFlow enable_tensor_float_32_execution; PTX ISA cvt; PyTorch numerical accuracy notes",
  },
  {
    id: "fp16-dynamic-range", chapter: "precision", title: "fp16's range starts at a single-bit subnormal",
    claim: "fp16's effective dynamic range is about 5.96e-8 to 65504.",
    correction: "5.96e-8 = 2^-24 is the smallest subnormal, a value with one significant bit; full 11-bit precision starts at the smallest normal 2^-14 ≈ 6.10e-5. In between the relative rounding error grows from 2^-11 to 1/3 (at 1.5·2^-24) and towards 100% just above 2^-25.",
    source: "IEEE 754-2008 binary16 (§3.3, §3.6)",
  },
  {
    id: "fp16-extra-precision", chapter: "precision", title: "Extra precision does help; bf16's range is not fp32's",
    claim: "For fp16, extra precision brings no benefit (额外的精度不会带来任何好处); bf16 has the same dynamic range as fp32.",
    correction: "Sums and weight updates need fp32 (master weights, fp32 accumulation), which is why mixed precision keeps them. bf16 has fp32's exponent range, but its largest value is about 3.39e38 (fp32: 3.40e38) and its smallest subnormal 2^-133 (fp32: 2^-149).",
    source: "Micikevicius et al. 2017, Mixed Precision Training, §3.1 and §3.3; Wang & Kanwar 2019 (bfloat16)",
  },
];

// ── memory ─────────────────────────────────────────────────
const memory: Correction[] = [
  {
    id: "stage-ordering", chapter: "memory", title: "the stage ordering",
    claim: "Speed: Stage 0 > 1 > 1+Offload > 2 > 2+Offload > 3 > 3+Offload; memory consumption (显存消耗): Stage 0 < 1 < … < 3+Offload.",
    correction: "The second line is the order of memory efficiency: consumption runs the other way. Hugging Face's guide gives Stage 0 (DDP) > 1 > 2 > 2 + offload > 3 > 3 + offloads for speed, 'in general', with no 1 + offload. The notes' own benchmark contradicts the speed order: ZeRO-2, ZeRO-3 and ZeRO-3 + offload all ran faster than their DDP baseline.",
    source: "Hugging Face Transformers, DeepSpeed integration guide, 'How to Choose Which ZeRO Stage and Offloads To Use For Best Performance'; the notes' benchmark (train_samples_per_second)",
  },
  {
    id: "3d-parallelism", chapter: "memory", title: "3D parallelism",
    claim: "ZeRO's three stages are '3D parallelism' (3D parallelism / 3D并行).",
    correction: "3D parallelism combines data, tensor and pipeline parallelism. The ZeRO stages are three levels of partitioning inside the data-parallel dimension.",
    source: "Narayanan et al. 2021 (Megatron-LM, SC21), §1; DeepSpeed blog, 3D parallelism (2020)",
  },
  {
    id: "zero3-communication", chapter: "memory", title: "ZeRO-3 gathers parameters for every layer, twice per step",
    claim: "Stage 3 adds 'one broadcast each round' (每一轮加上一次broadcast) to send the parameters to every device.",
    correction: "The paper's own word is broadcast (§5.3, §7.2.2): the owner of each partition broadcasts it, and together these make an all-gather. It happens for every layer, in forward and again in backward, and the gathered parameters are freed after use: not once per round. Volume 3Ψ against 2Ψ for data parallelism. DeepSpeed implements it with all-gather.",
    source: "Rajbhandari et al. 2019 (ZeRO), §5.3 and §7.2.2",
  },
  {
    id: "mixed-precision-model-states", chapter: "memory", title: "mixed precision does not shrink model states",
    claim: "The budget is 4P (weights) + 4P (gradients) + 8P (Adam) bytes 'if stored in FP32', and mixed-precision training (使用混合精度训练) is listed as a way out when memory runs short.",
    correction: "Mixed precision leaves the model states at 16 bytes per parameter in both designs: 2 + 2 + 12 in DeepSpeed/Megatron (16-bit model, fp32 master copy in the optimizer), 4 + 4 + 8 under PyTorch AMP (fp32 weights and gradients) plus 16-bit weight casts and DDP's gradient buckets. It shrinks activations and speeds up matrix multiplies.",
    source: "Rajbhandari et al. 2019 (ZeRO), §3.1; PyTorch autocast_mode.cpp (weight-cast cache) and DistributedDataParallel (gradient_as_bucket_view)",
  },
];

// ── accumulation-checkpointing ─────────────────────────────
const accumulationCheckpointing: Correction[] = [
  {
    id: "accumulation-window-tokens",
    chapter: "accumulation-checkpointing",
    title: "loss / K is equivalent only when micro-batches hold equal token counts",
    claim: "Dividing each micro-batch's loss by the number of accumulation steps makes accumulation \"completely equivalent\" (完全等价) to training with the large batch.",
    correction: "Only when every micro-batch has the same number of loss tokens. With variable lengths or padding, divide each micro-batch's summed loss by the token count of the whole accumulation window (under data parallelism, of all ranks' windows).",
    source: "Hugging Face, \"Fixing Gradient Accumulation\" (2024-10-16); PyTorch torch.nn.functional.cross_entropy (reduction=\"mean\" averages over non-ignored targets)",
  },
  {
    id: "accumulation-speed",
    chapter: "accumulation-checkpointing",
    title: "accumulation does not speed training up",
    claim: "Gradient accumulation simulates a larger batch and so raises training speed and model quality (提高训练速度和模型性能).",
    correction: "The K micro-batches run one after another: the compute per sample is unchanged, and against one pass over the same large batch (when it fits) accumulation is slower. It only makes optimizer steps and, with DDP's no_sync() or DeepSpeed's accumulation boundary, gradient all-reduces K times rarer. A larger effective batch is not better by itself: it changes the optimisation (the learning rate may need retuning).",
    source: "DeepSpeed configuration docs, gradient_accumulation_steps (\"less frequent communication of gradients\"); PyTorch DistributedDataParallel.no_sync docs",
  },
  {
    id: "reentrant-checkpoint-on-data",
    chapter: "accumulation-checkpointing",
    title: "a reentrant checkpoint on the data input trains nothing",
    claim: "The example checkpoints layer1 and layer2 with checkpoint.checkpoint(layer, x) under PyTorch's default, and says the checkpointed forward runs under torch.no_grad().",
    correction: "With use_reentrant=True (the default when the argument is omitted) a checkpoint's output requires grad only if an input does; on the data batch, layer1 and then layer2 get no gradient and only layer3 trains. Pass use_reentrant=False or make the input require grad; \"runs under no_grad\" describes only the reentrant variant.",
    source: "PyTorch torch.utils.checkpoint docs and torch/utils/checkpoint.py (use_reentrant; \"None of the inputs have requires_grad=True. Gradients will be None\")",
  },
];

// ── amp ────────────────────────────────────────────────────
const amp: Correction[] = [
  {
    id: "amp-two-designs", chapter: "amp", title: "the step list and the code are two designs",
    claim: "The notes' step list (an fp16 model copy, fp16 gradients, a separate fp32 copy updated) and their torch.cuda.amp code are presented as one recipe.",
    correction: "The list is the apex-O2/Megatron/DeepSpeed design (16-bit model and gradients, fp32 master in the optimizer: 2 + 2 + 12 bytes per parameter); the code is torch.amp (fp32 parameters and .grad, fp16 casts made by autocast, no separate master: 4 + 4 + 8 bytes, plus the casts and DDP's bucket copy).",
    source: "PyTorch \"Automatic Mixed Precision package\" (torch.amp); Rajbhandari et al. 2020 (ZeRO), §3.1; DeepSpeed deepspeed/runtime/fp16/fused_optimizer.py",
  },
  {
    id: "amp-torch-cuda-amp-deprecated", chapter: "amp", title: "torch.cuda.amp is deprecated",
    claim: "The notes import autocast and GradScaler from torch.cuda.amp.",
    correction: "Both are deprecated (FutureWarning); use torch.amp: GradScaler(\"cuda\") and autocast(device_type=\"cuda\", dtype=torch.float16).",
    source: "pytorch/pytorch torch/cuda/amp/grad_scaler.py, torch/amp/grad_scaler.py",
  },
  {
    id: "amp-loss-inside-autocast", chapter: "amp", title: "the loss belongs inside autocast",
    claim: "The notes compute the loss after leaving the autocast block.",
    correction: "autocast should wrap the forward pass including the loss computation (which then runs in fp32 by autocast's op list); backward runs outside it.",
    source: "torch.autocast docstring; PyTorch \"Automatic Mixed Precision examples\"",
  },
  {
    id: "amp-unscale-in-fp32", chapter: "amp", title: "unscale in fp32, not in fp16",
    claim: "The notes multiply the fp16 gradients by 1/s (参数梯度乘 1/s) and then update the fp32 weights, with no inf/NaN check.",
    correction: "Unscaling happens in fp32 (fp16 would underflow the rescued gradients; GradScaler refuses fp16 gradients), and GradScaler tests each gradient as given (scaled) for inf/NaN in the same kernel, skipping the step when one is found.",
    source: "torch/amp/grad_scaler.py (_unscale_grads_); aten/src/ATen/native/cuda/AmpKernels.cu (_amp_foreach_non_finite_check_and_unscale_); Micikevicius et al. 2017, §3.2",
  },
  {
    id: "amp-unscale-acts-on-gradients", chapter: "amp", title: "unscale_ acts on gradients; clipping needs it",
    claim: "The notes' comment says the optimizer's parameters must be unscaled before gradient clipping.",
    correction: "scaler.unscale_(optimizer) divides the parameters' gradients (.grad) by the scale and leaves the parameters alone; clipping must see these unscaled gradients.",
    source: "PyTorch \"Automatic Mixed Precision examples\", Gradient clipping",
  },
  {
    id: "amp-activations-not-fixed-multiple", chapter: "amp", title: "activations are not a fixed multiple of the model states",
    claim: "Activations are usually 3–4 times the static memory (一般为静态内存的3-4倍).",
    correction: "Activation memory grows linearly with micro-batch size and sequence length while model states do not, so the ratio can be far below 1 or far above 4.",
    source: "Korthikanti et al. 2022, §4 (activation memory per layer)",
  },
  {
    id: "amp-min-loss-scale", chapter: "amp", title: "min_loss_scale 1e-10 in the notes' config",
    claim: "The notes' ZeRO-2 config sets \"min_loss_scale\": 1e-10.",
    correction: "DeepSpeed ≥ 0.17.1 (main at edaa722) declares min_loss_scale: int, so pydantic rejects 1e-10; 0.17.0 accepted it, and such a floor lets the scale fall far below 1 instead of failing fast. Use the default 1.",
    source: "deepspeedai/DeepSpeed deepspeed/runtime/precision_config.py (e440506, #6976; ded2349, #8050); v0.17.0 deepspeed/runtime/config.py get_dynamic_loss_scale_args",
  },
];

// ── data-parallel ──────────────────────────────────────────
const dataParallel: Correction[] = [
  {
    id: "dp-not-parameter-server", chapter: "data-parallel", title: "DataParallel is not a parameter server",
    claim: "PyTorch's DataParallel uses the parameter-server mode (采用的是parameter server模式).",
    correction: "DataParallel scatters the batch, replicates the module from the first GPU in every forward, runs the replicas in threads and sums their gradients back into the original module; no server holds parameters for workers to push to and pull from. What it shares with a parameter server is a hub: the first GPU carries the extra traffic and memory.",
    source: "PyTorch torch.nn.DataParallel docs and torch/nn/parallel/data_parallel.py (scatter, replicate, parallel_apply, gather); Li et al. 2014 (parameter server)",
  },
  {
    id: "ddp-all-reduce-during-backward", chapter: "data-parallel", title: "DDP all-reduces during backward",
    claim: "In DDP the gradients are ring all-reduced after forward, every GPU receives the other GPUs' gradients, and then does backward and the update on its own (完成前向传播后，梯度在各个 GPUs 间进行 Ring All-Reduce…).",
    correction: "Gradients are the result of backward: DDP all-reduces each bucket during backward, as soon as its gradients exist, and only the optimizer step follows the last all-reduce. No GPU receives the others' gradients: a ring all-reduce passes partial sums of 1/P-sized chunks, and each GPU ends with the averaged gradient only. NCCL also chooses between ring and tree algorithms.",
    source: "PyTorch DistributedDataParallel docs; Li et al. 2020, VLDB, §3.2; NCCL docs (NCCL_ALGO)",
  },
  {
    id: "ddp-overlap-per-bucket", chapter: "data-parallel", title: "what makes the overlap possible",
    claim: "Each layer's gradient does not depend on the previous layer, so the all-reduce runs at the same time as backward (每一层的梯度不依赖于前一层…).",
    correction: "Backward is a chain: layer i's gradients need the gradient from layer i+1. Overlap is possible because a finished layer's parameter gradients are not needed by the rest of backward, so they can be all-reduced while it continues; DDP does this per bucket, not per layer, to pay the latency α fewer times.",
    source: "Li et al. 2020, VLDB, §3.2.3 (gradient bucketing, overlapping computation with communication)",
  },
  {
    id: "ring-all-reduce-latency", chapter: "data-parallel", title: "the ring lowers the bandwidth load, not the latency",
    claim: "The ring all-reduce passes gradients around a ring to reduce latency (减小时延).",
    correction: "The ring minimises the bytes each rank sends, 2(P−1)/P·S against (P−1)·S for one server. Its per-message latency is the worst of ring, server and tree (2(P−1) steps, each paying α); in total time it wins only for large buffers.",
    source: "Patarasuk & Yuan 2009, JPDC 69(2), §2–3; Thakur, Rabenseifner & Gropp 2005, IJHPCA 19(1)",
  },
  {
    id: "dp-sums-gradients", chapter: "data-parallel", title: "DataParallel sums the gradients, and DDP broadcasts more than once",
    claim: "DP sums the GPUs' gradients and averages them, updates on the main GPU, then broadcasts the parameters (DP将各个GPU上梯度汇总后求平均…); in DDP processes only pass gradients (进程（GPU）之间只传递梯度).",
    correction: "DataParallel sums the replicas' gradients (the loss over the gathered batch already carries the 1/B), divides nothing by P, and its 'broadcast' is the replicate of the next forward. DDP also broadcasts rank 0's parameters at construction and, with broadcast_buffers=True (the default), module buffers at every forward.",
    source: "PyTorch torch.nn.DataParallel docs (\"summed into the original module\"); DistributedDataParallel docs (broadcast_buffers)",
  },
];

// ── tensor-parallel, pipeline-parallel ─────────────────────
const parallelism: Correction[] = [
  {
    id: "tp-1d-activations",
    chapter: "tensor-parallel",
    title: "1D tensor parallelism and activation memory",
    claim: "With 1D tensor parallelism every processor still stores the whole intermediate activations (仍需要存储整个中间激活).",
    correction: "The sentence follows Colossal-AI's documentation, which speaks of each 1D layer's input and output: those are whole on every rank. Only the activations at the regions' boundaries are replicated, 10·sbh of a layer's 34·sbh + 5·as²b bytes: the two LayerNorm inputs (4·sbh), their outputs that enter the QKV and first MLP linear layers (4·sbh) and the two 1-byte dropout masks (2·sbh). Everything inside the regions is split by T, and sequence parallelism splits the rest along the sequence, giving (34·sbh + 5·as²b)/T.",
    source: "Korthikanti et al. 2022, §4.1–4.2 and Table 2; Colossal-AI docs/source/en/features/2D_tensor_parallel.md (commit 4f9953be)",
  },
  {
    id: "pipeline-sends-gradients", chapter: "pipeline-parallel", title: "what travels between stages",
    claim: "Pipeline stages exchange only output tensors, 而不是梯度信息 (not gradient information), which is why communication is small.",
    correction: "Backward sends the gradient of each boundary activation to the previous stage, a tensor the size of the activation. Weight gradients mostly stay on their stage (all-reduced among data-parallel replicas), except the tied embedding, whose two copies on the first and last stage are all-reduced, and the global gradient norm (clipping) and fp16 inf/NaN check, one small all-reduce over all stages. The volume is small because it is one activation per boundary, not because no gradients travel.",
    source: "Narayanan et al. 2021 (Megatron-LM), §2.2 and §3; Megatron-LM megatron/core/distributed/finalize_model_grads.py `_allreduce_word_embedding_grads` (commit d98e8a6)",
  },
  {
    id: "naive-pipeline-idle", chapter: "pipeline-parallel", title: "a naive pipeline is not parallel",
    claim: "朴素流水线并行 (naive pipeline parallelism) is listed as a form of pipeline parallelism, with no word on its cost.",
    correction: "With one batch flowing through p stages only one device works at a time: each idles (p − 1)/p of the step, so p devices train no faster than one. Only micro-batches (GPipe) make stages overlap.",
    source: "Huang et al. 2019 (GPipe), §2.2 and Fig. 2",
  },
  {
    id: "micro-batch-memory", chapter: "pipeline-parallel", title: "micro-batches do not bound activation memory by themselves",
    claim: "Cutting the model across devices lowers each device's memory (降低单个计算设备的显存消耗).",
    correction: "True for weights, gradients and optimizer states; activation memory depends on the schedule: GPipe keeps all m micro-batches per stage (and m is what shrinks the bubble), 1F1B caps stage s at p − s micro-batches, and GPipe relied on re-computation to fit.",
    source: "Narayanan et al. 2021, §2.2.1; Huang et al. 2019, §2.3",
  },
];

// ── zero ───────────────────────────────────────────────────
const zero: Correction[] = [
  {
    id: "zero2-buckets-not-layers", chapter: "zero", title: "stage 2 reduces per bucket, not per layer",
    claim: "Stage 2 starts a reduce-scatter after every layer of backward to gather the gradients onto one node (将梯度整合到一个节点), and deletes the previous layer's gradients once the next layer's are computed.",
    correction: "This paraphrases the paper's §5.2 fairly: each layer's gradients are reduced onto the process that owns them and then freed. DeepSpeed works per bucket of reduce_bucket_size elements, which can span several layers or part of one, and issues each bucket as per-owner reduce calls or, by default since v0.12.4, as one all-reduce (use_multi_rank_bucket_allreduce); under gradient accumulation it does so after every micro-batch.",
    source: "Rajbhandari et al. 2020 (ZeRO), §5.2; DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py and runtime/engine.py at commit edaa722",
  },
  {
    id: "zero-stages-same-update", chapter: "zero", title: "ZeRO stages do not change the loss",
    claim: "The benchmark prints ZeRO-2 and ZeRO-3 side by side as a small slowdown (略有下降), with final train_loss 7.67 and 9.52, without comment.",
    correction: "Partitioning changes where states live, not the update: with the same data, seed and reduction order every stage computes DDP's weights (bit for bit in the course's simulation). The note's metrics show other differences: ZeRO-3 ran at train_steps_per_second 0.01 against 0.04 at nearly the same samples/s, about 4× fewer optimizer updates, and the DDP baseline ran torch.amp with fp32 weights while DeepSpeed keeps an fp16 model with an fp32 master.",
    source: "Rajbhandari et al. 2020 (ZeRO), §5 and §7; note 004's train metrics; transformers trainer.py (speed_metrics over max_steps); the zero chapter's training comparison (lib/zero trainZero)",
  },
];

// ── offload ────────────────────────────────────────────────
const offload: Correction[] = [
  {
    id: "offload-is-not-partitioning", chapter: "offload", title: "offload is not partitioning",
    claim: "ZeRO-Offload moves unused data to the CPU and back, and 'a concrete implementation of this idea is ZeRO, which partitions parameters, gradients and optimizer states across all available hardware' (分割到所有可用的硬件上).",
    correction: "ZeRO partitions model states across the data-parallel GPUs; offload moves them from a GPU to its host's CPU memory or NVMe, and works on a single GPU where there is nothing to partition. The two combine: offload_optimizer is an option of ZeRO stages 1–3, offload_param of stage 3 only.",
    source: "Ren et al. 2021 (ZeRO-Offload), abstract and §4; DeepSpeed configuration docs (offload_optimizer, offload_param)",
  },
  {
    id: "offload-moves-gradients-not-parameters", chapter: "offload", title: "ZeRO-Offload moves gradients down and parameters up, once per step",
    claim: "Under ZeRO-Offload, parameters move dynamically from GPU to CPU and from CPU to GPU (参数动态地从 GPU -> CPU, CPU -> GPU 进行转移).",
    correction: "With optimizer offload the fp16 parameters stay on the GPU; the fp16 gradients go down (2Ψ bytes) and the updated fp16 parameters come up once per step (2Ψ). Parameters move per layer, before forward and again before backward (4Ψ up per step), only with ZeRO-3's offload_param.",
    source: "Ren et al. 2021 (ZeRO-Offload), §4.1; DeepSpeed configuration docs (offload_param)",
  },
  {
    id: "gemini-dynamic-can-still-oom", chapter: "offload", title: "DeepSpeed's offload is not only static, and Gemini can still run out of memory",
    claim: "DeepSpeed's ZeRO-Offload splits model data statically between CPU and GPU, so the system crashes when the GPU cannot hold its share even if the CPU has memory, while Gemini completes training by swapping data to the CPU (note 004).",
    correction: "ZeRO-3 with offload_param streams each layer's parameters to the GPU for forward and backward and keeps only a few layers there; and Gemini's auto policy places chunks from warm-up statistics, so it runs out of memory when non-model memory grows after the warm-up. The robust Gemini setting is static with shard_param_frac = offload_optim_frac = 1.0 and a large offload_param_frac (formerly the cpu policy), at the cost of more traffic; the default static offloads nothing.",
    source: "DeepSpeed configuration docs (offload_param); Colossal-AI colossalai/zero/gemini/placement_policy.py (StaticPlacementPolicy, AutoPlacementPolicy.evict_tensors), commit 4f9953b",
  },
  {
    id: "gemini-run-no-offload", chapter: "offload", title: "the notes' Gemini run offloaded nothing",
    claim: "Note 004's Gemini run (--plugin gemini_cuda) shows the algorithm using GPU and CPU memory dynamically (可以清楚看到该算法在二者间动态使用的过程), citing 'Booster init max CPU memory: 6737.21 MB', and credits Gemini with +50.7% (+8.1% without FlashAttention) over DDP.",
    correction: "In Colossal-AI's LLaMA example, gemini_cuda is GeminiPlugin(placement_policy='cuda'), a policy that never moves a chunk to the CPU; the 'max CPU memory' is the process's peak resident memory (ru_maxrss) at initialisation. The run is chunked ZeRO-3-style sharding on the GPUs with --batch_size 28 and no accumulation flag, and says nothing about offloading.",
    source: "Colossal-AI commits 4daf928 and 955091e (examples/language/llama/pretrain.py); colossalai/zero/gemini/placement_policy.py at 26b7aac and 4daf928 (CUDAPlacementPolicy) and 4f9953b (StaticPlacementPolicy defaults)",
  },
  {
    id: "gemini-component-names", chapter: "offload", title: "Gemini's components today",
    claim: "Gemini's memory manager consists of MemStatsCollector (MSC) and StatefulTensorMgr (STM) (note 004).",
    correction: "StatefulTensorMgr belongs to the first, tensor-based Gemini and now lives under colossalai/legacy/zero/gemini/. Today's Gemini (GeminiDDP, GeminiManager) manages parameters in chunks (ChunkManager), records the warm-up with ChunkMemStatsCollector (a MemStatsCollector) and moves chunks through a static or auto placement policy.",
    source: "Colossal-AI source at commit 4f9953b, colossalai/zero/gemini/ and colossalai/legacy/zero/gemini/stateful_tensor_mgr.py",
  },
];

// ── flash-attention ────────────────────────────────────────
const flashAttention: Correction[] = [
  {
    id: "flash-ddp-baseline-not-printed",
    chapter: "flash-attention",
    title: "the DDP baseline is never printed",
    claim: "Each run is reported as a percentage over the DDP baseline (原版 DDP), whose throughput the note never prints.",
    correction: "The baseline follows from each run's samples/s and percentage: about 27.1 samples/s, the same from all four runs; every percentage is relative to it, not to the previous row.",
    source: "Note 004's train metrics (samples/s and the stated gains); the arithmetic is on the page",
  },
  {
    id: "flash-runs-differ-in-batch",
    chapter: "flash-attention",
    title: "the runs differ in more than the technique",
    claim: "Each gain over DDP is credited to the run's technique (其中主要的性能提升来源于 FlashAttention).",
    correction: "The ColossalAI Gemini runs use --batch_size 28 with no accumulation flag (8 per device × 8 accumulation steps elsewhere), and the ZeRO-3 runs take about 4× fewer optimizer steps per second at nearly the same samples/s, so the percentages mix the technique with different batch configurations.",
    source: "Note 004's commands and train metrics (train_steps_per_second 0.01 for ZeRO-3, 0.04 for ZeRO-2)",
  },
  {
    id: "flash-enabling-changes-causal-mask",
    chapter: "flash-attention",
    title: "enabling FlashAttention is more than a switch",
    claim: "One line enables FlashAttention (只需要增加一句使能即可).",
    correction: "With a causal mask and unequal query and key lengths, flash-attn ≥ 2.1 aligns the mask bottom-right while PyTorch's is_causal=True aligns it top-left, so outputs differ; training with equal lengths is unaffected.",
    source: "flash-attention README, \"2.1: Change behavior of causal flag\"; PyTorch torch.nn.attention.bias.CausalVariant docs",
  },
];

// ── sophia, plan ───────────────────────────────────────────
const later: Correction[] = [
  {
    id: "sophia-steps-not-compute",
    chapter: "sophia",
    title: "half the steps is not half the compute",
    claim: "Sophia reaches Adam's validation loss on GPT-2 with 50% fewer steps (减少了 50% step 数量), which amounts to 50% less total compute (总计算量) and 50% less wall-clock time.",
    correction: "The notes repeat the paper's own abstract faithfully; the error is treating it as settled. Each SophiaG step costs an AdamW step plus, every k steps, an extra forward and backward pass on sampled labels (10% more passes at k = 10), so half the steps is less than half the compute. The repository's AdamW baseline uses other betas, weight decay and final learning rate than its SophiaG runs; re-runs with a tuned, symmetric AdamW (issue #31) and peer-reviewed re-evaluations (Kaddour et al. 2023, Zhao et al. 2025) found the gains vanish or shrink to about the noise.",
    source: "Liu et al. 2023 (arXiv:2305.14342), abstract and §3; Liuhong99/Sophia a7e1572 train_sophiag.py, config/*, issues #31, #46; bitsandbytes #499; Kaddour et al., NeurIPS 2023; Zhao et al., ICLR 2025 (arXiv:2407.07972); Wen et al. 2025 (arXiv:2509.02046); Schlotthauer et al. 2025 (arXiv:2507.08472)",
  },
];

/**
 * Every correction of the notes, in chapter order.
 * @example CORRECTIONS.filter((c) => c.chapter === "memory").length // the memory page's correction boxes
 * @see src/notes.md.ts
 */
export const CORRECTIONS: readonly Correction[] = [
  ...precision, ...memory, ...accumulationCheckpointing, ...amp, ...dataParallel, ...parallelism, ...zero, ...offload, ...flashAttention, ...later,
];

/**
 * The corrections a chapter's page carries.
 * @param slug a chapter slug, e.g. "memory"
 * @returns the entries of {@link CORRECTIONS} whose `chapter` is `slug`, in order
 * @example correctionsOf("memory").map((c) => c.id)
 * @see src/notes.md.ts
 */
export function correctionsOf(slug: string): Correction[] {
  return CORRECTIONS.filter((c) => c.chapter === slug);
}
