/**
 * The course's errata of the study notes: every place where a chapter corrects
 * the notes, as data. One source for two places: each chapter page has a box
 * `<div class="warning" id="correction-<id>" label="Correction: <title>">` with
 * the full argument, and the notes page (src/notes.md) lists every entry in one
 * table. A test keeps the two in step, so a correction cannot exist in one place only.
 */

/**
 * One correction of the notes.
 * @see src/notes.md (the errata table) and each chapter's "Corrections to the notes"
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

// ── tensor-parallel, pipeline-parallel, zero, offload ──────
const parallelism: Correction[] = [
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
    correction: "The ColossalAI Gemini runs use --batch_size 28 without accumulation (8 per device × 8 accumulation steps elsewhere), and the ZeRO-3 runs take about 4× fewer optimizer steps per second at nearly the same samples/s, so the percentages mix the technique with different batch configurations.",
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
    correction: "Each SophiaG step costs an AdamW step plus, every k steps, an extra forward and backward pass on sampled labels (10% more passes at k = 10), so half the steps is less than half the compute; independent re-runs with tuned AdamW did not reproduce the halving.",
    source: "Liu et al. 2023 (arXiv:2305.14342), §3; Liuhong99/Sophia train_sophiag.py and issues #31, #46; Schlotthauer et al. 2025 (arXiv:2507.08472)",
  },
];

/**
 * Every correction of the notes, in chapter order.
 * @example CORRECTIONS.filter((c) => c.chapter === "memory").length // the memory page's correction boxes
 * @see src/notes.md
 */
export const CORRECTIONS: readonly Correction[] = [
  ...precision, ...memory, ...accumulationCheckpointing, ...amp, ...dataParallel, ...parallelism, ...flashAttention, ...later,
];

/**
 * The corrections a chapter's page carries.
 * @param slug a chapter slug, e.g. "memory"
 * @returns the entries of {@link CORRECTIONS} whose `chapter` is `slug`, in order
 * @example correctionsOf("memory").map((c) => c.id)
 * @see src/notes.md
 */
export function correctionsOf(slug: string): Correction[] {
  return CORRECTIONS.filter((c) => c.chapter === slug);
}
