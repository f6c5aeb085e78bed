/**
 * Shapes, options and input validation shared by every attention function of
 * this chapter. Tensors are flat row-major `Float32Array`s in the layout
 * (B, H, N, d) used by PyTorch's `scaled_dot_product_attention`.
 */
import { isCausalAllowed, type CausalAlignment } from "./isCausalAllowed.js";

/**
 * Sizes of one attention call: batch B, heads H, query length Nq, key/value length Nk, head dimension d.
 * @see the sources of {@link resolveAttention}: https://pytorch.org/docs/stable/generated/torch.nn.functional.scaled_dot_product_attention.html
 */
export interface AttentionShape {
  B: number;
  H: number;
  Nq: number;
  Nk: number;
  d: number;
}

/**
 * Masking and scaling options shared by the reference, FlashAttention and the kernels.
 * @see the sources of {@link resolveAttention}: https://pytorch.org/docs/stable/generated/torch.nn.functional.scaled_dot_product_attention.html
 */
export interface AttentionOptions {
  /** Causal mask and its alignment when Nq ≠ Nk (absent: no causal mask). */
  causal?: CausalAlignment;
  /** Softmax scale applied to QKᵀ; default 1/√d. */
  scale?: number;
  /** Optional key mask of shape (Nq, Nk), 1 = keep, 0 = masked; shared by every (b, h). */
  mask?: Uint8Array;
}

/**
 * Options after validation: the scale and a keep(i, j) predicate combining `causal` and `mask`.
 * @see the sources of {@link resolveAttention}: https://pytorch.org/docs/stable/generated/torch.nn.functional.scaled_dot_product_attention.html
 */
export interface ResolvedAttention {
  scale: number;
  keep: (i: number, j: number) => boolean;
}

function checkInt(name: string, v: number, min: number): void {
  if (!Number.isInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${v}`);
}

/**
 * Validates a shape and the lengths of the tensors that go with it, and
 * resolves the options.
 * @param shape sizes; B, H, Nq, Nk, d integers >= 1
 * @param tensors named tensors with their expected sizes, e.g. `{q: [q, Nq·d·B·H]}`
 * @param o masking and scale options
 * @returns the scale (default 1/√d) and the keep(i, j) predicate
 * @throws RangeError `B must be an integer >= 1, got 0` (and likewise for H, Nq, Nk, d),
 *   `q must have length 8 (B·H·Nq·d), got 7`, `mask must have length 6 (Nq·Nk), got 5`,
 *   `scale must be a finite number > 0, got NaN`, `causal must be "bottom-right" or "top-left", got "x"`
 * @example resolveAttention({B: 1, H: 1, Nq: 2, Nk: 2, d: 4}, {}, {}).scale // 0.5
 * @see https://pytorch.org/docs/stable/generated/torch.nn.functional.scaled_dot_product_attention.html
 */
export function resolveAttention(shape: AttentionShape, tensors: Record<string, [ArrayLike<number>, number, string]>, o: AttentionOptions = {}): ResolvedAttention {
  for (const k of ["B", "H", "Nq", "Nk", "d"] as const) checkInt(k, shape[k], 1);
  for (const [name, [t, n, formula]] of Object.entries(tensors)) {
    if (!t || typeof t.length !== "number") throw new TypeError(`${name} must be a Float32Array, got ${typeof t}`);
    if (t.length !== n) throw new RangeError(`${name} must have length ${n} (${formula}), got ${t.length}`);
  }
  const scale = o.scale ?? 1 / Math.sqrt(shape.d);
  if (!Number.isFinite(scale) || scale <= 0) throw new RangeError(`scale must be a finite number > 0, got ${scale}`);
  if (o.causal !== undefined && o.causal !== "bottom-right" && o.causal !== "top-left") {
    throw new RangeError(`causal must be "bottom-right" or "top-left", got "${String(o.causal)}"`);
  }
  const { Nq, Nk } = shape;
  const mask = o.mask;
  if (mask !== undefined && mask.length !== Nq * Nk) throw new RangeError(`mask must have length ${Nq * Nk} (Nq·Nk), got ${mask.length}`);
  const causal = o.causal;
  const keep = (i: number, j: number): boolean =>
    (mask === undefined || mask[i * Nk + j] !== 0) && (causal === undefined || isCausalAllowed(i, j, Nq, Nk, causal));
  return { scale, keep };
}

/**
 * Validates Q (B,H,Nq,d), K and V (B,H,Nk,d) against the shape and resolves the options (see {@link resolveAttention}).
 * @param q (B, H, Nq, d) queries, flat row-major
 * @param k (B, H, Nk, d) keys
 * @param v (B, H, Nk, d) values
 * @param shape B, H, Nq, Nk, d (integers >= 1)
 * @param o masking and scale options
 * @returns the scale (default 1/√d) and the keep(i, j) predicate
 * @throws RangeError as {@link resolveAttention}, e.g. `q must have length 8 (B·H·Nq·d), got 7`; TypeError `k must be a Float32Array, got undefined`
 * @example resolveQKV(new Float32Array(8), new Float32Array(8), new Float32Array(8), { B: 1, H: 1, Nq: 2, Nk: 2, d: 4 }).scale // 0.5
 * @see https://pytorch.org/docs/stable/generated/torch.nn.functional.scaled_dot_product_attention.html (the (B, H, N, d) layout and the default scale 1/√d)
 */
export function resolveQKV(q: Float32Array, k: Float32Array, v: Float32Array, shape: AttentionShape, o: AttentionOptions = {}): ResolvedAttention {
  const { B, H, Nq, Nk, d } = shape;
  return resolveAttention(shape, {
    q: [q, B * H * Nq * d, "B·H·Nq·d"],
    k: [k, B * H * Nk * d, "B·H·Nk·d"],
    v: [v, B * H * Nk * d, "B·H·Nk·d"],
  }, o);
}
