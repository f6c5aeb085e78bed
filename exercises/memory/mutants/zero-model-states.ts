import type { zeroModelStateBytes } from "../zero-model-states.js";

const split = (bytes: number, n: number, on: boolean) => (on ? Math.ceil(bytes / n) : bytes);

export const mutants: Record<string, typeof zeroModelStateBytes> = {
  "forgets the fp32 master copy (K = 8)": (p, n, s) => ({ parameters: split(2 * p, n, s >= 3), gradients: split(2 * p, n, s >= 2), optimizerStates: split(8 * p, n, s >= 1) }),
  "stage 2 partitions the parameters instead of the gradients": (p, n, s) => ({ parameters: split(2 * p, n, s === 2 || s >= 3), gradients: split(2 * p, n, s >= 3), optimizerStates: split(12 * p, n, s >= 1) }),
  "stage 1 already partitions the gradients": (p, n, s) => ({ parameters: split(2 * p, n, s >= 3), gradients: split(2 * p, n, s >= 1), optimizerStates: split(12 * p, n, s >= 1) }),
  "rounds partitions to the nearest byte instead of up": (p, n, s) => ({ parameters: s >= 3 ? Math.round((2 * p) / n) : 2 * p, gradients: s >= 2 ? Math.round((2 * p) / n) : 2 * p, optimizerStates: s >= 1 ? Math.round((12 * p) / n) : 12 * p }),
  "returns fractional bytes (no rounding up)": (p, n, s) => ({ parameters: s >= 3 ? (2 * p) / n : 2 * p, gradients: s >= 2 ? (2 * p) / n : 2 * p, optimizerStates: s >= 1 ? (12 * p) / n : 12 * p }),
};
