/**
 * Per-layer activation and compute costs of the course model.
 */
import { bytesPerElement, type Format, type Layer } from "../nn/index.js";
import type { LayerCost } from "./simulateCheckpointing.js";

/**
 * Bytes of a layer's input for `rows` rows: token ids are int32 (4 bytes), activations use `format`.
 *
 * @param layer a layer of lib/nn
 * @param rows N
 * @param format compute format
 * @returns bytes
 * @example
 * inputBytes(model.layers[0], 128, "fp16"); // 128 · C · 4 (ids)
 * @see Chen et al. 2016, *Training Deep Nets with Sublinear Memory Cost*, §4 (a checkpoint keeps a segment's input);
 *   `torch.utils.checkpoint` docs (the inputs of a checkpointed segment are saved)
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
 * layerCosts(model.layers, 128, "fp32").length; // model.layers.length: one {inputBytes, savedBytes, flops} per layer
 * @see Chen et al. 2016, §4; lib/nn (savedBytes and flops of each layer); the page's section "Activation checkpointing" (src/accumulation-checkpointing.md)
 */
export function layerCosts(layers: readonly Layer[], rows: number, format: Format = "fp32"): LayerCost[] {
  if (!Number.isInteger(rows) || rows < 1) throw new RangeError(`rows must be an integer >= 1, got ${rows}`);
  return layers.map((l) => ({ inputBytes: inputBytes(l, rows, format), savedBytes: l.savedBytes(rows, format), flops: l.flops(rows) }));
}
