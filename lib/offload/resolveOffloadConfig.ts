/**
 * What one offload run is: a GPT-like model of L identical transformer layers,
 * a micro-batch, the ZeRO stage and where DeepSpeed's `offload_optimizer` and
 * `offload_param` put the model states. Names follow DeepSpeed's config keys.
 */
import { validateHardware, type HardwareOptions, type OffloadHardware } from "./offloadHardware.js";

/** Where a model state lives, as DeepSpeed's `offload_optimizer.device` / `offload_param.device` say it. */
export type OffloadDevice = "none" | "cpu" | "nvme";

/**
 * One offload run, as a caller writes it.
 * @see DeepSpeed configuration docs, `zero_optimization.stage`, `offload_optimizer.device`, `offload_param.device`
 */
export interface OffloadConfig {
  /** L, transformer layers (integer ≥ 1). */
  numLayers: number;
  /** h, hidden size (integer ≥ 1); one layer has 12h² parameters. */
  hiddenSize: number;
  /** s, tokens per sequence (integer ≥ 1; default 1024). */
  seqLen?: number;
  /** b, sequences per step on this GPU (integer ≥ 1; default 8). */
  microBatch?: number;
  /** ZeRO stage, `zero_optimization.stage` (0 … 3; default 2). */
  stage?: 0 | 1 | 2 | 3;
  /** `offload_optimizer.device` (default "cpu"): fp32 master, momentum and variance, and the Adam step. */
  offloadOptimizer?: OffloadDevice;
  /** `offload_param.device` (default "none"): the fp16 parameters; needs stage 3. */
  offloadParam?: OffloadDevice;
  /** ZeRO-Offload's one-step delayed parameter update (default false). */
  dpu?: boolean;
  /** Steps to simulate back to back (integer ≥ 1; default 4). */
  numSteps?: number;
  /** Hardware overrides. */
  hardware?: HardwareOptions;
}

/** A checked config with every default filled in and the per-layer sizes derived. */
export interface ResolvedOffloadConfig {
  numLayers: number;
  hiddenSize: number;
  seqLen: number;
  microBatch: number;
  stage: 0 | 1 | 2 | 3;
  offloadOptimizer: OffloadDevice;
  offloadParam: OffloadDevice;
  dpu: boolean;
  numSteps: number;
  hardware: OffloadHardware;
  /** ψ = 12h², parameters of one layer. */
  paramsPerLayer: number;
  /** Forward FLOPs of one layer: 24bsh² + 4bs²h. */
  forwardFlopsPerLayer: number;
}

function int(name: string, v: unknown, min: number): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${String(v)}`);
  return v;
}

function device(name: string, v: unknown): OffloadDevice {
  if (v !== "none" && v !== "cpu" && v !== "nvme") throw new RangeError(`${name} must be "none", "cpu" or "nvme", got ${JSON.stringify(v)}`);
  return v;
}

/**
 * Checks a config and fills in its defaults.
 *
 * A layer has ψ = 12h² parameters (attention 4h², MLP 8h²; biases and norms
 * left out) and 24bsh² + 4bs²h forward FLOPs; backward costs twice the forward.
 *
 * @param c the run
 * @returns a new resolved config
 * @throws RangeError naming the field: `numLayers must be an integer >= 1, got 0`;
 *   `offloadParam "cpu" needs stage 3 (zero_optimization.stage), got stage 2`;
 *   `offloadParam "cpu" needs offloadOptimizer "cpu" or "nvme", got "none"`;
 *   `dpu needs offloadOptimizer "cpu" or "nvme" and offloadParam "none"`; hardware fields as {@link validateHardware}
 * @example resolveOffloadConfig({ numLayers: 2, hiddenSize: 1024 }).paramsPerLayer // 12582912
 * @see Narayanan et al. 2021, *Efficient Large-Scale Language Model Training on GPU Clusters*, §5.1 (FLOPs per layer);
 *   Ren et al. 2021, *ZeRO-Offload*, §5.2 (DPU); DeepSpeed configuration docs (`offload_param` is a ZeRO-3 option)
 */
export function resolveOffloadConfig(c: OffloadConfig): ResolvedOffloadConfig {
  if (c === null || typeof c !== "object") throw new TypeError(`config must be an object {numLayers, hiddenSize, …}, got ${String(c)}`);
  const numLayers = int("numLayers", c.numLayers, 1);
  const hiddenSize = int("hiddenSize", c.hiddenSize, 1);
  const seqLen = int("seqLen", c.seqLen ?? 1024, 1);
  const microBatch = int("microBatch", c.microBatch ?? 8, 1);
  const stage = c.stage ?? 2;
  if (![0, 1, 2, 3].includes(stage)) throw new RangeError(`stage must be 0, 1, 2 or 3, got ${String(stage)}`);
  const offloadOptimizer = device("offloadOptimizer", c.offloadOptimizer ?? "cpu");
  const offloadParam = device("offloadParam", c.offloadParam ?? "none");
  if (offloadParam !== "none" && stage !== 3) throw new RangeError(`offloadParam "${offloadParam}" needs stage 3 (zero_optimization.stage), got stage ${stage}`);
  if (offloadParam !== "none" && offloadOptimizer === "none") throw new RangeError(`offloadParam "${offloadParam}" needs offloadOptimizer "cpu" or "nvme", got "none"`);
  if (offloadOptimizer !== "none" && stage === 0) throw new RangeError(`offloadOptimizer "${offloadOptimizer}" needs stage 1, 2 or 3 (zero_optimization.stage), got stage 0`);
  const dpu = c.dpu ?? false;
  if (typeof dpu !== "boolean") throw new RangeError(`dpu must be true or false, got ${String(dpu)}`);
  if (dpu && (offloadOptimizer === "none" || offloadParam !== "none")) throw new RangeError(`dpu needs offloadOptimizer "cpu" or "nvme" and offloadParam "none"`);
  const numSteps = int("numSteps", c.numSteps ?? 4, 1);
  const hardware = validateHardware(c.hardware);
  const h = hiddenSize, b = microBatch, s = seqLen;
  return {
    numLayers, hiddenSize, seqLen, microBatch, stage, offloadOptimizer, offloadParam, dpu, numSteps, hardware,
    paramsPerLayer: 12 * h * h,
    forwardFlopsPerLayer: 24 * b * s * h * h + 4 * b * s * s * h,
  };
}
