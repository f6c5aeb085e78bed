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
