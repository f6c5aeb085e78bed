import { notImplemented } from "../harness/index.js";

/** A model and where DeepSpeed puts its states (the names of the DeepSpeed config). */
export interface OffloadPlacement {
  /** L, transformer layers (integer ≥ 1). */
  numLayers: number;
  /** h, hidden size (integer ≥ 1); one layer has 12h² parameters. */
  hiddenSize: number;
  /** `zero_optimization.stage`, 0 … 3 (default 2). */
  stage?: 0 | 1 | 2 | 3;
  /** `offload_optimizer.device` (default "cpu"). */
  offloadOptimizer?: "none" | "cpu" | "nvme";
  /** `offload_param.device` (default "none"). */
  offloadParam?: "none" | "cpu" | "nvme";
}

/**
 * Exercise 9.1 — bytes moved per training step when model states are offloaded.
 *
 * One GPU, one step of forward, backward and the Adam update, mixed precision (16-bit parameters and
 * gradients on the GPU side; fp32 master, momentum and variance wherever the optimizer lives). Count
 * the bytes that cross each link in one step, as the chapter's timeline moves them: host → device
 * (`h2d`), device → host (`d2h`), and NVMe reads and writes. Nothing is cached between uses.
 * Convention (the chapter's simulator, `simulateOffloadStep`), with ψ = 12h² parameters per layer:
 * - optimizer on the CPU or NVMe: each layer's fp16 gradients go to the CPU (2ψ bytes) and its
 *   updated fp16 parameters come back (2ψ), unless the parameters themselves are offloaded;
 * - parameters offloaded (ZeRO-3, `offloadParam` "cpu" or "nvme"): each layer's fp16 parameters are
 *   copied to the GPU before its forward and again before its backward (2 × 2ψ), and the updated
 *   parameters stay on the host;
 * - the NVMe tier: `offloadOptimizer: "nvme"` reads each layer's optimizer states (fp32 master,
 *   momentum and variance, 12ψ bytes) from NVMe before its Adam step and writes them back after it;
 *   `offloadParam: "nvme"` reads a layer's fp16 parameters from NVMe before each copy to the GPU
 *   (twice per step) and writes them once, after the update;
 * - no offload: nothing crosses any link.
 *
 * Errors (RangeError, message as in the chapter's simulator): offloading parameters without ZeRO-3,
 * `offloadParam "cpu" needs stage 3 (zero_optimization.stage), got stage 2`; offloading parameters
 * while the optimizer stays on the GPU, `offloadParam "cpu" needs offloadOptimizer "cpu" or "nvme", got "none"`;
 * `numLayers must be an integer >= 1, got 0` (same for hiddenSize).
 * Read: the chapter's section "The offload timeline".
 *
 * @param p the model and the placement; omitted fields take the defaults above
 * @returns bytes per step on each link (integers)
 * @example offloadBytesPerStep({ numLayers: 1, hiddenSize: 1 }) // { h2d: 24, d2h: 24, nvmeRead: 0, nvmeWrite: 0 }
 */
export function offloadBytesPerStep(p: OffloadPlacement): { h2d: number; d2h: number; nvmeRead: number; nvmeWrite: number } {
  return notImplemented("9.1");
}
