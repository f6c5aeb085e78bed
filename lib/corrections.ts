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
