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
];

// ── tensor-parallel, pipeline-parallel, zero, offload ──────
const parallelism: Correction[] = [
  {
    id: "pipeline-sends-gradients", chapter: "pipeline-parallel", title: "what travels between stages",
    claim: "Pipeline stages exchange only output tensors, 而不是梯度信息 (not gradient information), which is why communication is small.",
    correction: "Backward sends the gradient of each boundary activation to the previous stage, a tensor the size of the activation; only weight gradients stay on their stage (all-reduced among data-parallel replicas). The volume is small because it is one activation per boundary, not because no gradients travel.",
    source: "Narayanan et al. 2021 (Megatron-LM), §2.2 and §3",
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
