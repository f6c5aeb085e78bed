/**
 * The data types shared by the layers of `lib/nn`.
 */
import type { Format, Precision, Quantize } from "./precision.js";
import type { MatmulShape } from "./matmul.js";
import type { MoeSaved } from "./moeLayer.js";

/** A trainable tensor: its values and the gradient accumulated into it by `backward`. */
export interface Param {
  /** e.g. "blocks.0.W1". */
  name: string;
  /** e.g. [in, out]; data is row-major. */
  shape: number[];
  data: Float32Array;
  /** Same length as data; `backward` adds into it (as PyTorch's `.grad`), `zeroGrad` clears it. */
  grad: Float32Array;
}

/** A 2-D activation: `rows` examples (tokens) of `cols` features, row-major. */
export interface Activation {
  data: Float32Array;
  rows: number;
  cols: number;
}

/** A matrix product, as {@link matmul} (CPU) or a gpu.js kernel. */
export type MatmulFn = (a: Float32Array, b: Float32Array, shape: MatmulShape, accumulate: Format) => Float32Array;

/** How ops run: the simulated precision, and which matmul to use (default: the CPU one). */
export interface Ops {
  precision: Precision;
  matmul: MatmulFn;
  /**
   * Optional: the rounding of op outputs (activations, gradients) and of the
   * embedding's rows to `precision.compute` when it is fp16 or bf16. Default:
   * lib/precision's rounding (`roundArray`). Matmul partial sums are rounded by
   * the matmul (to `precision.accumulate`), not by this hook.
   */
  quantize?: Quantize;
}

/** What a layer's forward keeps for its backward. */
export interface Saved {
  /** The layer's input (needed by every layer here to compute weight gradients). */
  x: Activation;
  /** Other tensors kept, e.g. tanh outputs. */
  extra: Float32Array[];
  /** Memory these tensors occupy in the compute format (token ids: 4 bytes each). */
  bytes: number;
  /** An MoE block's routing, expert activations and router statistics (moeLayer only). */
  moe?: MoeSaved;
}

/**
 * A layer with a hand-written forward and backward.
 *
 * `backward` ADDS the parameter gradients of (dy · ∂y/∂θ) into `param.grad`
 * and returns dx (null when the input is not differentiable, e.g. token ids).
 */
export interface Layer {
  name: string;
  kind: "embedding" | "linear" | "residual-mlp" | "self-attention" | "moe";
  params: Param[];
  /** Input features per row. */
  inFeatures: number;
  /** Output features per row. */
  outFeatures: number;
  forward(x: Activation, ops: Ops): { y: Activation; saved: Saved };
  backward(saved: Saved, dy: Activation, ops: Ops): Activation | null;
  /** Forward FLOPs for `rows` rows (2·M·K·N per matmul, 1 per elementwise op). */
  flops(rows: number): number;
  /** Bytes `forward` saves for `rows` rows in `format` (what {@link Saved.bytes} will be). */
  savedBytes(rows: number, format: Format): number;
}
