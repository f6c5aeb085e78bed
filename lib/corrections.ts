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
    id: "tp-1d-activations",
    chapter: "tensor-parallel",
    title: "1D tensor parallelism and activation memory",
    claim: "With 1D tensor parallelism every processor still stores the whole intermediate activations (仍需要存储整个中间激活).",
    correction: "Only the activations between the tensor-parallel regions (LayerNorm and dropout inputs, dropout masks: 10·sbh of a layer's 34·sbh + 5·as²b bytes) are replicated; everything inside the regions is split by T, and sequence parallelism splits the rest along the sequence, giving (34·sbh + 5·as²b)/T.",
    source: "Korthikanti et al. 2022, §4.2 and Table 2",
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
