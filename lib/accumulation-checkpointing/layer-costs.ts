/**
 * Per-layer activation and compute costs of the course model.
 */
import { bytesPerElement, type Format, type Layer } from "../nn/index.js";
import type { LayerCost } from "./simulate-checkpointing.js";

/**
 * Bytes of a layer's input for `rows` rows: token ids are int32 (4 bytes), activations use `format`.
 *
 * @param layer a layer of lib/nn
 * @param rows N
 * @param format compute format
 * @returns bytes
 * @example
 * inputBytes(model.layers[0], 128, "fp16"); // 128 · C · 4 (ids)
 */
export function inputBytes(layer: Layer, rows: number, format: Format): number {
  return rows * layer.inFeatures * (layer.kind === "embedding" ? 4 : bytesPerElement(format));
}

/**
 * The {@link LayerCost} of every layer of a stack for `rows` rows.
 *
 * @param layers the model's layers (or any stack)
 * @param rows N, examples in the batch
 * @param format compute format (sets bytes per activation element)
 * @returns one cost per layer
 * @throws {RangeError} `rows must be an integer >= 1, got 0`
 * @example
 * layerCosts(model.layers, 128, "fp32").map((c) => c.savedBytes);
 */
export function layerCosts(layers: readonly Layer[], rows: number, format: Format = "fp32"): LayerCost[] {
  if (!Number.isInteger(rows) || rows < 1) throw new RangeError(`rows must be an integer >= 1, got ${rows}`);
  return layers.map((l) => ({ inputBytes: inputBytes(l, rows, format), savedBytes: l.savedBytes(rows, format), flops: l.flops(rows) }));
}
