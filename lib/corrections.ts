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
];

// ── accumulation-checkpointing ─────────────────────────────
const accumulationCheckpointing: Correction[] = [
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
];

// ── sophia, plan ───────────────────────────────────────────
const later: Correction[] = [
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
