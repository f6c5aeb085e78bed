import { notImplemented } from "../harness/index.js";

/** What the CPU keeps between steps (every array fp32, one per parameter). */
export interface CpuState {
  /** Steps taken so far (AdamW's t before this step). */
  t: number;
  /** fp32 master parameters. */
  master: Float32Array[];
  /** AdamW's first moments. */
  m: Float32Array[];
  /** AdamW's second moments. */
  v: Float32Array[];
}

/** AdamW's hyperparameters (PyTorch names and defaults: lr 1e-3, betas [0.9, 0.999], eps 1e-8, weightDecay 1e-2) and the delayed update. */
export interface CpuStepConfig {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weightDecay?: number;
  /** ZeRO-Offload's one-step delayed parameter update (default false). */
  dpu?: boolean;
  /** Steps run without delay first: a step whose state.t is ≥ dpuWarmupSteps is delayed (default 0). */
  dpuWarmupSteps?: number;
}

/**
 * Exercise 9.2 (build it) — the CPU side of one ZeRO-Offload step.
 *
 * The GPU has run forward and backward on its 16-bit parameters and sent the gradients (fp16 values)
 * to the CPU. Return the CPU's new state after one AdamW step of the master (step number t + 1, the
 * arithmetic of lib/nn's AdamW: you may call `optimizerStep` from `lib/nn`), and the fp16 parameters
 * to copy back to the GPU for its next step (values rounded to fp16, round to nearest even; lib/nn's
 * `roundArray("fp16", a)` does it, but IN PLACE on `a`). With the delayed update, the parameters sent
 * back are those of the update before this one (Ren et al. 2021, §5.2). Do not modify the inputs;
 * return new arrays.
 *
 * The grader plugs your step into the course's machinery: lib/nn's character model computing in fp16
 * on the "GPU", your step on the "CPU", 30 steps with and without DPU, and compares the losses and the
 * master with the reference run.
 *
 * Errors (RangeError): `grads16 must have one tensor per parameter (2), got 1`;
 * `dpuWarmupSteps must be an integer >= 0, got -1`.
 * Read: the chapter's section "Build it: the CPU step".
 *
 * @param state t, master, m, v
 * @param grads16 fp16 gradients, one array per parameter
 * @param config AdamW's hyperparameters, dpu, dpuWarmupSteps
 * @returns `{state, params16}`: t + 1 and the new master and moments; the fp16 parameters for the GPU
 * @example offloadStep({ t: 0, master: [Float32Array.of(1)], m: [Float32Array.of(0)], v: [Float32Array.of(0)] }, [Float32Array.of(0.5)], { lr: 0.1, weightDecay: 0 })
 * // { state: { t: 1, master: [[≈0.9]], m: [[0.05]], v: [[0.00025]] }, params16: [[0.89990234375]] }
 */
export function offloadStep(state: CpuState, grads16: Float32Array[], config: CpuStepConfig): { state: CpuState; params16: Float32Array[] } {
  return notImplemented("9.2");
}
