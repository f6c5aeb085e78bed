import { validateCostModel, type CostModel } from "./costModel.js";

/**
 * Fraction of a link's line rate that NCCL's ring collectives reach as bus
 * bandwidth on large messages, measured with nccl-tests:
 * - `nvlink` 0.8: NCCL's protocol overhead is about 20 % ("450 GB/s is the line
 *   rate … NCCL can get an effective NVLink bandwidth of 370 GB/s", H100); an
 *   8 × A100 NVSwitch node measures 232.5 GB/s of 300 (0.78);
 * - `network` 0.96: a pair of DGX A100 with 8 × 200 Gb/s measures 192 GB/s of 200.
 * @example NCCL_BUS_EFFICIENCY.nvlink // 0.8
 * @see NVIDIA/nccl-tests issue #212 (S. Jeaugey: 370 of 450 GB/s on H100), #175 (232.54 GB/s in one A100 node);
 *   NVIDIA/nccl issue #1576 (192 GB/s all-reduce busbw on DGX A100 with 8 × 200 Gb/s); nccl-tests `doc/PERFORMANCE.md` (bus bandwidth)
 */
export const NCCL_BUS_EFFICIENCY = Object.freeze({ nvlink: 0.8, network: 0.96 });

/**
 * A link at the bandwidth a ring collective achieves on it: the line rate times an efficiency.
 * @param cost the link at its line rate
 * @param efficiency fraction in (0, 1], e.g. {@link NCCL_BUS_EFFICIENCY}.nvlink
 * @returns a new cost model, same α, bandwidth × efficiency
 * @throws RangeError `efficiency must be in (0, 1], got 0`, and the errors of {@link validateCostModel}
 * @example achievedLink({ alphaS: 5e-6, bandwidthBytesPerS: 300e9 }, 0.8).bandwidthBytesPerS // 240e9
 * @see {@link NCCL_BUS_EFFICIENCY}
 */
export function achievedLink(cost: CostModel, efficiency: number): CostModel {
  const c = validateCostModel(cost);
  if (!Number.isFinite(efficiency) || efficiency <= 0 || efficiency > 1) throw new RangeError(`efficiency must be in (0, 1], got ${efficiency}`);
  return { alphaS: c.alphaS, bandwidthBytesPerS: c.bandwidthBytesPerS * efficiency };
}
