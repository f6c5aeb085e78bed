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
 * @see src/notes.md.ts
 */
export const CORRECTIONS: readonly Correction[] = [
  ...precision, ...memory, ...accumulationCheckpointing, ...amp, ...dataParallel, ...parallelism, ...flashAttention, ...later,
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
