/**
 * Where a micro-batch goes: the route of (device, chunk) pairs it visits, for the three layouts of
 * model chunks on devices that the chapter's schedules use.
 */

/**
 * How the model's chunks sit on the devices.
 * - "loop" (Megatron's interleaving; v = 1 is the plain pipeline): virtual stage k = chunk·p + device,
 *   so every micro-batch goes around the devices v times, 0 → p−1 each time.
 * - "v" (ZB-V, DualPipeV; Qi et al. §6): chunk c runs 0 → p−1 when c is even and p−1 → 0 when it is
 *   odd, so with v = 2 device 0 holds the first and the last chunk (a "V").
 * - "dualpipe" (DeepSeek-V3 §3.2.1): v = 2 and two directions. Micro-batches 0 … m/2 − 1 enter at
 *   device 0 and run chunk 0 on devices 0 → p−1; micro-batches m/2 … m − 1 enter at device p − 1 and
 *   run chunk 1 on devices p−1 → 0. Chunk 0 of device d is model stage d and chunk 1 is model stage
 *   p − 1 − d: each device holds two stages' parameters, and each micro-batch visits p chunks.
 */
export type Placement = "loop" | "v" | "dualpipe";

/** The shape a route depends on. */
export interface Layout { p: number; m: number; v: number; placement?: Placement }

/**
 * Number of chunks a micro-batch visits: p·v, or p for "dualpipe" (each of its chunks is a whole model stage).
 * @example routeLength({ p: 4, m: 8, v: 2, placement: "dualpipe" }) // 4
 */
export function routeLength(l: Layout): number {
  return l.placement === "dualpipe" ? l.p : l.p * l.v;
}

/**
 * The share of a device's layers one chunk pass covers, p / routeLength: 1/v, or 1 for "dualpipe".
 * Pass times and in-flight counts scale by it (times are given for one micro-batch through one
 * device's share of the model, the model's 1/p).
 * @example passShare({ p: 4, m: 8, v: 2, placement: "v" }) // 0.5
 */
export function passShare(l: Layout): number {
  return l.p / routeLength(l);
}

/** The direction of micro-batch j under "dualpipe": 0 for the first ⌈m/2⌉, entering at device 0; 1 for the rest. */
export function direction(l: Layout, microBatch: number): 0 | 1 {
  return l.placement === "dualpipe" && microBatch >= Math.ceil(l.m / 2) ? 1 : 0;
}

/**
 * The k-th (device, chunk) of micro-batch j's route, 0 ≤ k < routeLength.
 * @example routeStep({ p: 4, m: 8, v: 2, placement: "v" }, 5, 0) // { stage: 2, chunk: 1 }
 */
export function routeStep(l: Layout, k: number, microBatch: number): { stage: number; chunk: number } {
  const { p } = l;
  if (l.placement === "dualpipe") return direction(l, microBatch) === 0 ? { stage: k, chunk: 0 } : { stage: p - 1 - k, chunk: 1 };
  const chunk = Math.floor(k / p), i = k % p;
  return { stage: l.placement === "v" && chunk % 2 === 1 ? p - 1 - i : i, chunk };
}

/**
 * The position of (device, chunk) on micro-batch j's route, or −1 when the route never visits it
 * (out of range, or the wrong direction's chunk under "dualpipe").
 * @example routePosition({ p: 4, m: 8, v: 2, placement: "v" }, 0, 1, 3) // 7: device 0 holds the last chunk
 */
export function routePosition(l: Layout, stage: number, chunk: number, microBatch: number): number {
  const { p, v } = l;
  if (!(stage >= 0 && stage < p && chunk >= 0 && microBatch >= 0 && microBatch < l.m)) return -1;
  if (l.placement === "dualpipe") {
    const d = direction(l, microBatch);
    return chunk !== d ? -1 : d === 0 ? stage : p - 1 - stage;
  }
  if (chunk >= v) return -1;
  return chunk * p + (l.placement === "v" && chunk % 2 === 1 ? p - 1 - stage : stage);
}

/**
 * Checks a placement name and the shape it needs.
 * @throws {RangeError} `placement must be one of loop, v, dualpipe, got "x"`; `placement "dualpipe" needs v = 2 (two stages per device), got v = 1`
 */
export function checkPlacement(l: Layout): void {
  const pl = l.placement ?? "loop";
  if (pl !== "loop" && pl !== "v" && pl !== "dualpipe") throw new RangeError(`placement must be one of loop, v, dualpipe, got ${JSON.stringify(pl)}`);
  if (pl === "dualpipe" && l.v !== 2) throw new RangeError(`placement "dualpipe" needs v = 2 (two stages per device), got v = ${l.v}`);
}
