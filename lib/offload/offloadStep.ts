/**
 * The CPU side of one ZeRO-Offload step: fp16 gradients in, AdamW on the
 * fp32 master, fp16 parameters out; with the delayed update (DPU), the
 * parameters sent back are those of the update before this one.
 */
import { optimizerStep, roundArray, type AdamWOptions } from "../nn/index.js";

/** What the CPU keeps between steps: the fp32 master and AdamW's moments, and the steps taken. */
export interface OffloadState {
  /** Steps taken (AdamW's t before this step). */
  t: number;
  /** fp32 master parameters, one array per parameter. */
  master: Float32Array[];
  /** First moments, same shapes. */
  m: Float32Array[];
  /** Second moments, same shapes. */
  v: Float32Array[];
}

/** AdamW's hyperparameters and the delayed update. */
export interface OffloadStepConfig extends AdamWOptions {
  /** Send back the parameters of the previous update instead of this one's (default false). */
  dpu?: boolean;
  /** Steps without delay before DPU starts: the step with t ≥ dpuWarmupSteps is delayed (default 0). */
  dpuWarmupSteps?: number;
}

/**
 * One CPU step of ZeRO-Offload.
 *
 * master' = AdamW(master, g16) (lib/nn's float32 AdamW, step t + 1);
 * params16 = fp16(master') — or, when delayed (dpu and t ≥ dpuWarmupSteps),
 * fp16(master), the parameters of the previous update, because this update
 * is still running while the GPU starts the next step.
 *
 * @param state t, master, m, v (not modified)
 * @param grads16 fp16 gradients (values exactly representable in fp16), one per parameter
 * @param config lr, betas, eps, weightDecay (PyTorch defaults), dpu, dpuWarmupSteps
 * @returns the new state (t + 1, new arrays) and the fp16 parameters to copy to the GPU (new arrays)
 * @throws RangeError `grads16 must have one tensor per parameter (2), got 1`; `dpuWarmupSteps must be an integer >= 0, got -1`;
 *   lib/nn's AdamW messages (`lr must be a positive finite number, got 0`)
 * @example offloadStep({ t: 0, master: [Float32Array.of(1)], m: [new Float32Array(1)], v: [new Float32Array(1)] }, [Float32Array.of(0.5)], { lr: 0.1, weightDecay: 0 }).params16 // [Float32Array [0.89990234375]] (0.9 in fp16)
 * @see Ren et al. 2021, *ZeRO-Offload*, §4.1 (fp16 gradients to the CPU, fp32 update, fp16 parameters back) and §5.2 (DPU)
 */
export function offloadStep(state: OffloadState, grads16: readonly Float32Array[], config: OffloadStepConfig = {}): { state: OffloadState; params16: Float32Array[] } {
  const { dpu = false, dpuWarmupSteps = 0, ...adam } = config;
  if (!Number.isSafeInteger(dpuWarmupSteps) || dpuWarmupSteps < 0) throw new RangeError(`dpuWarmupSteps must be an integer >= 0, got ${dpuWarmupSteps}`);
  if (grads16.length !== state.master.length) throw new RangeError(`grads16 must have one tensor per parameter (${state.master.length}), got ${grads16.length}`);
  const r = optimizerStep(state.master, grads16, { t: state.t, m: state.m, v: state.v }, { kind: "adamw", lr: 1e-3, ...adam });
  const delayed = dpu && state.t >= dpuWarmupSteps;
  const send = delayed ? state.master : r.params;
  return { state: { t: r.state.t, master: r.params, m: r.state.m, v: r.state.v }, params16: send.map((p) => roundArray("fp16", p.slice())) }; // roundArray rounds in place
}
