/**
 * DualPipe (DeepSeek-V3 §3.2.1) and DualPipeV (its "cut-in-half" V form) as event lists.
 */
import { checkShape, type Op, type Schedule, type StageTimes } from "./schedule.js";
import { timeOrders } from "./timeOrders.js";

/**
 * The eight steps of DualPipe on one device, in terms of its two "phases": phase 0 is the direction
 * whose micro-batches enter on this device's side of the pipeline, phase 1 the other. `H` is half
 * the pipeline, `h` the device's distance from the nearer end, `M` the micro-batches per phase;
 * `to(phase, i)` names the i-th micro-batch of a phase. Backward passes are split (B then a later W,
 * first in first out) where DualPipe enables zero bubble, full elsewhere; an F with `with` is an
 * overlapped F&B pair, whose backward is full.
 */
function dualPipeSteps(H: number, h: number, M: number, to: (phase: 0 | 1, i: number) => { microBatch: number; chunk: number }): Op[] {
  const order: Op[] = [];
  const fN = [0, 0], bN = [0, 0];
  const waiting: Op[] = [];
  const F = (ph: 0 | 1): Op => ({ kind: "F", ...to(ph, fN[ph]++) });
  const B = (ph: 0 | 1, split: boolean): Op => {
    const at = to(ph, bN[ph]++);
    if (split) waiting.push({ kind: "W", ...at });
    return split ? { kind: "B", ...at } : { kind: "B", ...at, full: true };
  };
  const W = () => order.push(waiting.shift()!);
  const pair = (f: 0 | 1, b: 0 | 1) => { const x = F(f); order.push({ ...x, with: B(b, false) }); };
  for (let i = 0; i < 2 * (H - h - 1); i++) order.push(F(0)); // 1: nF0
  for (let i = 0; i <= h; i++) order.push(F(0), F(1)); // 2: nF0F1
  for (let i = 0; i < H - h - 1; i++) { order.push(B(1, true)); W(); order.push(F(1)); } // 3: nB1W1F1
  for (let i = 0; i < M - 2 * H + h + 1; i++) { // 4: nF0B1F1B0, the main step
    if (i === 0 && h === H - 1) order.push(F(0), B(1, false)); // the middle devices do not overlap the first pair
    else pair(0, 1);
    pair(1, 0);
  }
  for (let i = 0; i < H - h - 1; i++) { order.push(B(1, false)); pair(1, 0); } // 5: nB1F1B0
  let split = false; // 6: nB1B0, the second half zero-bubble
  for (let i = 0; i <= h; i++) {
    if (i === Math.floor((h + 1) / 2) && h % 2 === 1) split = true;
    order.push(B(1, split));
    if (i === Math.floor((h + 1) / 2) && h % 2 === 0) split = true;
    order.push(B(0, split));
  }
  for (let i = 0; i < H - h - 1; i++) { W(); order.push(B(0, true)); } // 7: nWB0
  while (waiting.length) W(); // 8: nW (h + 1 of them)
  return order;
}

/** Checks DualPipe's shape rules, with DualPipe's own assertions as the reason. */
function checkDual(p: number, m: number, name: string, needEvenP: boolean): void {
  checkShape(p, m);
  if (needEvenP && p % 2 !== 0) throw new RangeError(`p must be even for ${name} (half the devices feed each direction), got p = ${p}`);
  if (needEvenP && m % 2 !== 0) throw new RangeError(`m must be even for ${name} (half the micro-batches go each way), got m = ${m}`);
  if (m < 2 * p) throw new RangeError(`m must be >= 2p = ${2 * p} for ${name} (deepseek-ai/DualPipe asserts num_chunks >= num_ranks * 2), got m = ${m}`);
}

/**
 * DualPipe (DeepSeek-AI 2024, DeepSeek-V3 report §3.2.1): micro-batches 0 … m/2 − 1 enter at
 * device 0 and the others at device p − 1, so each device holds two stages of the model (stage d
 * for the first direction, stage p − 1 − d for the second: parameters 2×) and the two streams fill
 * each other's bubbles. In the steady part each device runs the forward of one direction overlapped
 * with the backward of the other (F&B, `times.overlapped`), which in DeepSeek-V3 hides the experts'
 * all-to-all behind computation; the ramps use the B/W split. The order follows deepseek-ai/DualPipe.
 * @param p devices (even, ≥ 2); @param m micro-batches (even, ≥ 2p)
 * @param times per-device times for one micro-batch through one stage; `overlapped` is F&B (default F + B + W: no overlap gain)
 * @returns the schedule (v = 2, placement "dualpipe", splitBackward: true, some B full, some F&B pairs)
 * @throws {RangeError} `p must be even for DualPipe (half the devices feed each direction), got p = 3`; `m must be >= 2p = 8 for DualPipe (deepseek-ai/DualPipe asserts num_chunks >= num_ranks * 2), got m = 6`
 * @example peakInFlight(dualPipeSchedule(4, 8)) // [5, 5, 5, 5]: PP + 1, as the DualPipe README says
 * @see DeepSeek-AI, DeepSeek-V3 Technical Report, arXiv:2412.19437, §3.2.1 and Figure 5; deepseek-ai/DualPipe dualpipe/dualpipe.py `DualPipe.step` and README at 3da1bbe
 */
export function dualPipeSchedule(p: number, m: number, times: StageTimes = { forward: 1, backward: 1, weight: 1 }): Schedule {
  checkDual(p, m, "DualPipe", true);
  const H = p / 2, M = m / 2;
  const orders = Array.from({ length: p }, (_, r) => {
    const second = r >= H ? 1 : 0;
    return dualPipeSteps(H, Math.min(r, p - 1 - r), M, (ph, i) => { const d = ph ^ second; return { microBatch: d * M + i, chunk: d }; });
  });
  return { name: "dualpipe", p, m, v: 2, placement: "dualpipe", splitBackward: true, events: timeOrders(orders, p, m, 2, times, true, { placement: "dualpipe" }) };
}

/**
 * DualPipeV: DualPipe "cut in half" (Sea AI Lab's procedure, adopted by deepseek-ai/DualPipe): p
 * devices hold the 2p stages in a V, as ZB-V does, and every micro-batch runs chunk 0 down the
 * devices and chunk 1 back up; each device runs DualPipe's eight steps with its chunks as the two
 * phases. Same bubble formula as DualPipe on 2p stages, with half the devices.
 * @param p devices (≥ 1); @param m micro-batches (≥ 2p)
 * @param times per-device times for the device's two chunks together; `overlapped` is F&B
 * @returns the schedule (v = 2, placement "v", splitBackward: true)
 * @throws {RangeError} `m must be >= 2p = 8 for DualPipeV (deepseek-ai/DualPipe asserts num_chunks >= num_ranks * 2), got m = 4`
 * @example dualPipeVSchedule(4, 10).events.length // 160 − 48: F, B (and W where split) of 10 micro-batches × 8 chunks
 * @see deepseek-ai/DualPipe dualpipe/dualpipev.py `DualPipeV.step` and README at 3da1bbe (from the "Cut-in-half" post of Sea AI Lab)
 */
export function dualPipeVSchedule(p: number, m: number, times: StageTimes = { forward: 1, backward: 1, weight: 1 }): Schedule {
  checkDual(p, m, "DualPipeV", false);
  const orders = Array.from({ length: p }, (_, r) => dualPipeSteps(p, r, m, (ph, i) => ({ microBatch: i, chunk: ph })));
  return { name: "dualpipe-v", p, m, v: 2, placement: "v", splitBackward: true, events: timeOrders(orders, p, m, 2, times, true, { placement: "v" }) };
}
