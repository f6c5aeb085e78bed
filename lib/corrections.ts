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
