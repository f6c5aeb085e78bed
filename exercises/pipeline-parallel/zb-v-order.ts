import { notImplemented } from "../harness/index.js";

/** One pass in a device's order. Chunk 0 of device r is the model's chunk r (the V's way down), chunk 1 is chunk 2p − 1 − r (the way up). */
export interface VPass { kind: "F" | "B" | "W"; microBatch: number; chunk: 0 | 1 }

/**
 * Exercise 7.5 — a zero-bubble schedule on a V.
 *
 * p devices hold the model as 2p chunks placed in a V (Qi et al. §6): micro-batch j runs forward
 * through chunk 0 on devices 0, 1, …, p − 1, then through chunk 1 on devices p − 1, …, 0; its
 * backward B (the input gradient) returns the same way in reverse, from chunk 1 of device 0 to
 * chunk 0 of device 0; the W (weight gradient) of a (chunk, micro-batch) may run any time after its
 * B, on the same device. Sending a tensor to the next device takes no time.
 *
 * Return, for each device, the order in which it runs its 6m passes (F, B and W of every
 * micro-batch on each of its two chunks). The course times your orders with F = B = W (a pass
 * covers half a device's layers and takes half a unit): each pass starts as soon as its device is
 * free and its inputs have arrived. Graded on random p up to 12 and m up to 32:
 * - every pass exactly once, and the orders never wait for an input that never comes;
 * - m ≥ 2p − 1: no device is ever idle between its first pass and its last (zero bubble);
 * - memory: a (micro-batch, chunk) pass holds half a micro-batch of activations on its device from
 *   the start of its F to the end of its W; no device may hold more than p at any time (the first
 *   device of 1F1B holds p);
 * - m < 2p − 1: no more idle time on the busiest device than the course's own ZB-V.
 * Errors (RangeError): `p must be an integer >= 1, got 0`; `m must be an integer >= 1, got 1.5`.
 * Read: the chapter's "ZB-H1 and what came after" section and its grids (the V, and why a
 * micro-batch's backward can start on the device where its forward ended). Do not read
 * lib/pipeline-parallel/zbV.ts before you have solved it.
 *
 * @param p devices (integer ≥ 1); @param m micro-batches (integer ≥ 1)
 * @returns p arrays, device r's passes in the order it runs them (new arrays)
 * @example zbVOrders(1, 1) // [[{kind: "F", microBatch: 0, chunk: 0}, {kind: "F", microBatch: 0, chunk: 1}, {kind: "B", microBatch: 0, chunk: 1}, {kind: "W", microBatch: 0, chunk: 1}, {kind: "B", microBatch: 0, chunk: 0}, {kind: "W", microBatch: 0, chunk: 0}]] (one device; its two Ws may also come last)
 */
export function zbVOrders(p: number, m: number): VPass[][] {
  return notImplemented("7.5");
}
