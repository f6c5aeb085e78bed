/**
 * The α-β (latency-bandwidth, "Hockney") cost model of a link: sending a
 * message of n bytes takes α + n/B seconds, where α is the per-message
 * latency and B the link's bandwidth (β = 1/B seconds per byte).
 */

/**
 * Latency and bandwidth of every rank's link (full duplex: a rank can send and receive at once).
 * @see the sources of {@link DEFAULT_COST_MODEL}: NVIDIA A100 Tensor Core GPU Architecture whitepaper (third-generation NVLink: 25 GB/s per link per direction);
 *   PCI Express Base Specification 4.0 (16 GT/s per lane, about 31.5 GB/s per direction for ×16)
 */
export interface CostModel {
  /** α: per-message latency in seconds (≥ 0), e.g. 5e-6 for 5 µs. */
  alphaS: number;
  /** B = 1/β: bandwidth of one rank's link in bytes per second (> 0), e.g. 25e9 for 25 GB/s. */
  bandwidthBytesPerS: number;
  /**
   * Bandwidth of the parameter server's link in bytes per second (> 0);
   * defaults to `bandwidthBytesPerS`. Only `parameterServerAllReduce` uses it.
   */
  serverBandwidthBytesPerS?: number;
}

/**
 * A link of 5 µs latency and 25 GB/s per direction: one third-generation NVLink
 * link of an A100 (600 GB/s total over 12 links, half per direction), which is
 * also a 200 Gb/s (HDR InfiniBand) network port. It is below PCIe 4.0 ×16
 * (≈ 31.5 GB/s per direction) and 12× below what an A100 has in an NVSwitch
 * node (300 GB/s per direction). The latency is an assumption, not a
 * published figure. Named alternatives: {@link LINK_PRESETS} in linkPresets.ts.
 * @example messageTimeS(25e6, DEFAULT_COST_MODEL) // 0.001005 s: 5 µs + 25 MB / 25 GB/s
 * @see NVIDIA A100 Tensor Core GPU Architecture whitepaper (third-generation NVLink: 25 GB/s per link per direction);
 *   PCI Express Base Specification 4.0 (16 GT/s per lane, about 31.5 GB/s per direction for ×16)
 */
export const DEFAULT_COST_MODEL: Readonly<CostModel> = Object.freeze({ alphaS: 5e-6, bandwidthBytesPerS: 25e9 });

/**
 * Checks a cost model and returns it with defaults filled in.
 * @param cost the model to check
 * @returns a complete cost model (`serverBandwidthBytesPerS` filled in)
 * @throws TypeError `cost must be an object {alphaS, bandwidthBytesPerS}, got null`;
 *   RangeError `alphaS must be a finite number >= 0, got -1`,
 *   `bandwidthBytesPerS must be a finite number > 0, got -5` (same for `serverBandwidthBytesPerS`)
 * @example validateCostModel({ alphaS: 0, bandwidthBytesPerS: 1 }).serverBandwidthBytesPerS // 1
 * @see Hockney 1994, "The communication challenge for MPP", Parallel Computing 20(3) (the α-β model)
 */
export function validateCostModel(cost: CostModel): Required<CostModel> {
  if (cost === null || typeof cost !== "object") throw new TypeError(`cost must be an object {alphaS, bandwidthBytesPerS}, got ${String(cost)}`);
  const { alphaS, bandwidthBytesPerS } = cost;
  if (typeof alphaS !== "number" || !Number.isFinite(alphaS) || alphaS < 0) {
    throw new RangeError(`alphaS must be a finite number >= 0, got ${String(alphaS)}`);
  }
  const positive = (name: string, v: unknown) => {
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) throw new RangeError(`${name} must be a finite number > 0, got ${String(v)}`);
  };
  positive("bandwidthBytesPerS", bandwidthBytesPerS);
  const server = cost.serverBandwidthBytesPerS ?? bandwidthBytesPerS;
  positive("serverBandwidthBytesPerS", server);
  return { alphaS, bandwidthBytesPerS, serverBandwidthBytesPerS: server };
}

/**
 * Time of one message under the α-β model: α + bytes / B.
 * @param bytes message size in bytes (≥ 0)
 * @param cost the link's cost model
 * @param bandwidthBytesPerS overrides the link bandwidth (e.g. a server link)
 * @returns seconds
 * @throws RangeError `bytes must be a finite number >= 0, got -3`
 * @example messageTimeS(1e6, { alphaS: 1e-5, bandwidthBytesPerS: 1e9 }) // 0.00101
 * @see Hockney 1994, "The communication challenge for MPP", Parallel Computing 20(3)
 */
export function messageTimeS(bytes: number, cost: CostModel, bandwidthBytesPerS = cost.bandwidthBytesPerS): number {
  if (!Number.isFinite(bytes) || bytes < 0) throw new RangeError(`bytes must be a finite number >= 0, got ${bytes}`);
  return cost.alphaS + bytes / bandwidthBytesPerS;
}

/**
 * Checks a rank count.
 * @throws RangeError `numRanks must be an integer >= 1, got 0`
 * @example checkNumRanks(4) // 4
 * @param numRanks P
 * @param name the field named in the message (default "numRanks")
 * @returns numRanks, unchanged
 * @see the house rule on bad input (shared design.md: a RangeError naming the field and the allowed range)
 */
export function checkNumRanks(numRanks: number, name = "numRanks"): number {
  if (!Number.isInteger(numRanks) || numRanks < 1) throw new RangeError(`${name} must be an integer >= 1, got ${numRanks}`);
  return numRanks;
}

/**
 * Checks an element count (a buffer length).
 * @throws RangeError `numElements must be an integer >= 0, got -1`
 * @example checkNumElements(0) // 0
 * @param n the element count
 * @param name the field named in the message (default "numElements")
 * @returns n, unchanged
 * @see the house rule on bad input (shared design.md)
 */
export function checkNumElements(n: number, name = "numElements"): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`${name} must be an integer >= 0, got ${n}`);
  return n;
}

/**
 * Checks bytes per element.
 * @throws RangeError `bytesPerElement must be a number > 0, got 0`
 * @example checkBytesPerElement(4) // 4
 * @param b bytes of one element (4 for float32, 2 for fp16/bf16)
 * @returns b, unchanged
 * @see the house rule on bad input (shared design.md)
 */
export function checkBytesPerElement(b: number): number {
  if (typeof b !== "number" || !Number.isFinite(b) || b <= 0) throw new RangeError(`bytesPerElement must be a number > 0, got ${b}`);
  return b;
}
