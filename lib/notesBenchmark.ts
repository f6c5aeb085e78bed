/**
 * The benchmark of the course's third study note (note 004): one node of 8
 * GPUs pre-training a Llama-style model from scratch with `torchrun` and the
 * Hugging Face Trainer (per-device batch 8, gradient accumulation 8, sequence
 * length 2048, fp16, gradient checkpointing) and with ColossalAI's
 * `pretrain_colossalai.py` (`--batch_size 28`). Its metrics are typed in as the
 * note prints them; the DDP baseline, which the note never prints, is derived.
 * Used by the memory page (FLOP check), the FlashAttention page (the runs in
 * context) and, later, the plan chapter.
 */

/**
 * One run of note 004, as printed.
 * @see the course's notes page (src/notes.md), note 004
 */
export interface NotesRun {
  /** Short name of the run. */
  run: string;
  /** How it was launched: "hf-trainer" (torchrun + HF Trainer, batch 8 × accumulation 8) or "colossalai" (--batch_size 28). */
  script: "hf-trainer" | "colossalai";
  /** `train_samples_per_second` as printed. */
  samplesPerSecond: number;
  /** `train_steps_per_second` as printed (the ColossalAI runs print none). */
  stepsPerSecond: number | null;
  /** `train_runtime` as printed, in seconds. */
  runtimeSeconds: number;
  /** The gain over DDP that the note states (e.g. 15.4 for "约 15.4%"), or null when it states none. */
  gainPercent: number | null;
}

const hms = (h: number, m: number, s: number) => h * 3600 + m * 60 + s;

/**
 * Every run of note 004 that prints metrics, in the note's order. The note's
 * plain DDP and FSDP runs print none.
 * @example NOTES_RUNS.find((r) => r.run === "FlashAttention (DDP)")!.samplesPerSecond // 41.413
 * @see note 004 (its "train metrics" blocks and the sentences before them)
 */
export const NOTES_RUNS: readonly NotesRun[] = [
  { run: "DeepSpeed ZeRO-2", script: "hf-trainer", samplesPerSecond: 31.297, stepsPerSecond: 0.04, runtimeSeconds: hms(0, 16, 35.35), gainPercent: 15.4 },
  { run: "DeepSpeed ZeRO-3", script: "hf-trainer", samplesPerSecond: 30.667, stepsPerSecond: 0.01, runtimeSeconds: hms(0, 16, 55.82), gainPercent: null },
  { run: "DeepSpeed ZeRO-3 + offload", script: "hf-trainer", samplesPerSecond: 29.919, stepsPerSecond: 0.01, runtimeSeconds: hms(0, 17, 21.2), gainPercent: null },
  { run: "FlashAttention (DDP)", script: "hf-trainer", samplesPerSecond: 41.413, stepsPerSecond: 0.04, runtimeSeconds: hms(0, 12, 32.22), gainPercent: 52.7 },
  { run: "FlashAttention + FSDP", script: "hf-trainer", samplesPerSecond: 40.191, stepsPerSecond: 0.039, runtimeSeconds: hms(0, 12, 55.09), gainPercent: null },
  { run: "FlashAttention + DeepSpeed", script: "hf-trainer", samplesPerSecond: 42.237, stepsPerSecond: 0.041, runtimeSeconds: hms(0, 12, 17.55), gainPercent: null },
  { run: "ColossalAI Gemini + FlashAttention", script: "colossalai", samplesPerSecond: 40.882, stepsPerSecond: null, runtimeSeconds: hms(0, 12, 42.53), gainPercent: 50.7 },
  { run: "ColossalAI Gemini, no FlashAttention", script: "colossalai", samplesPerSecond: 29.333, stepsPerSecond: null, runtimeSeconds: hms(0, 17, 42.36), gainPercent: 8.1 },
];

/**
 * The DDP throughput each run's stated gain implies: samples/s ÷ (1 + gain/100).
 * @param run a run with a stated gain
 * @returns samples per second of the DDP baseline that the run's percentage is relative to
 * @throws RangeError `run "<name>" states no gain over DDP` when `gainPercent` is null
 * @example impliedDdpBaseline(NOTES_RUNS[0]) // 31.297 / 1.154 ≈ 27.12
 * @see note 004 ("与原版 DDP 相比性能提升约 …%")
 */
export function impliedDdpBaseline(run: NotesRun): number {
  if (run.gainPercent === null) throw new RangeError(`run "${run.run}" states no gain over DDP`);
  return run.samplesPerSecond / (1 + run.gainPercent / 100);
}

/**
 * The DDP baseline of note 004 in samples per second: the mean of the
 * baselines implied by the four runs that state a gain (they agree within 0.1).
 * @returns samples per second, about 27.1
 * @example ddpBaseline().toFixed(1) // "27.1"
 * @see note 004; {@link impliedDdpBaseline}
 */
export function ddpBaseline(): number {
  const implied = NOTES_RUNS.filter((r) => r.gainPercent !== null).map(impliedDdpBaseline);
  return implied.reduce((s, x) => s + x, 0) / implied.length;
}
