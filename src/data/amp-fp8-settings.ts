// The settings of the amp page's FP8 experiments, one source for the data loaders
// (amp-fp8-runs.json.ts, amp-fp8-outlier.json.ts) and for the page's live run,
// which must reproduce the build's run step for step at these settings.
import type { OutlierChannel } from "../../lib/amp/fp8/index.js";

/** The loss curves: lib/nn's DEFAULT_MODEL, 4 × 16-token batches, AdamW lr 1e-2 (trainFp8's defaults). */
export const RUNS = { steps: 300 } as const;

/** The spiky outlier channel: blocks.0.W1's input channel 5 (of the 32-wide residual stream) × 2^14 every 10th step. */
export const OUTLIER = {
  steps: 150,
  outlier: { weight: "blocks.0.W1", channel: 5, log2Factor: 14, period: 10 } satisfies OutlierChannel,
  /** The delayed-scaling settings the page's controls start from: a history shorter than the spikes' period. */
  live: { amaxHistoryLen: 4, amaxComputeAlgo: "max", margin: 0 },
} as const;
