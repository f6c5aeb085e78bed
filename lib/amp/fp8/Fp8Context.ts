/**
 * FP8 GEMMs inside lib/nn's model: an `Ops.matmul` that recognises, for each
 * FP8 linear weight W, its forward GEMM (x·W), its dgrad (dy·Wᵀ) and its
 * wgrad (xᵀ·dy), casts the three tensors of W (input, weight, output
 * gradient) to FP8 with their own scales, and keeps Transformer Engine's
 * per-tensor state (amax history and scale) or DeepSeek-V3's per-tile scales.
 */
import { matmul, type MatmulShape } from "../../nn/matmul.js";
import type { Ops, Param } from "../../nn/types.js";
import type { Fp8FormatName } from "../../precision/fp8Rounder.js";
import { amaxAndScaleUpdate } from "./amaxAndScaleUpdate.js";
import { fp8Max } from "./DelayedScaling.js";
import { fp8Gemm, type Fp8GemmOptions } from "./fp8Gemm.js";
import { resolveFp8Scaling, type Fp8Scaling, type ResolvedFp8Scaling } from "./resolveFp8Scaling.js";
import { outlierFactor, scaleColumn, scaleRow, type OutlierChannel } from "./outlierChannel.js";
import { quantizeFp8 } from "./quantizeFp8.js";
import { quantizeTiles, type Fp8Tiles } from "./quantizeTiles.js";
import { scaleFromAmax } from "./scaleFromAmax.js";
import { perTensorTiles, transposeTiles } from "./transposeTiles.js";

/** What the casts of one FP8 tensor did in one step. */
export interface Fp8TensorStats {
  /** e.g. "blocks.0.W1:input", ":weight" or ":grad_output". */
  tensor: string;
  format: Fp8FormatName;
  /** Elements cast (twice the tensor for block-wise scaling, which casts it once per GEMM orientation). */
  elements: number;
  overflow: number;
  underflow: number;
  amax: number;
  /** The per-tensor scale used (null for block-wise scaling). */
  scale: number | null;
}

/** Options of {@link Fp8Context}. */
export interface Fp8ContextOptions {
  /** The accumulator model of the GEMMs (default: fp32, no promotion; block-wise: promotion every blockSize). */
  gemm?: Fp8GemmOptions;
  /** A controlled outlier channel (see {@link OutlierChannel}). */
  outlier?: OutlierChannel;
  /** Also measure each forward GEMM's relative error against fp32 on the unquantized operands (default false). */
  measureError?: boolean;
}

const amaxOf = (v: Float32Array) => { let m = 0; for (const x of v) if (Math.abs(x) > m) m = Math.abs(x); return m; };

/**
 * The FP8 state of one training run: pass `ctx.ops` to lib/nn's forward and
 * backward, call `beginStep(s)` before and `endStep()` after each step.
 * @example
 * const ctx = new Fp8Context(fp8Weights, { kind: "delayed" });
 * ctx.beginStep(0); const f = forward(work, batch, ctx.ops); backward(work, f, 1 / f.tokenCount, ctx.ops);
 * ctx.endStep(); // [{ tensor: "proj.W:input", overflow: 0, … }, …], and every delayed scale updated
 * @see NVIDIA/TransformerEngine transformer_engine/pytorch/module/linear.py (one quantizer each for input, weight, grad_output) at d0067d0;
 *   DeepSeek-V3 Technical Report §3.3.1 (Fprop, Dgrad and Wgrad GEMMs in FP8, Figure 6)
 */
export class Fp8Context {
  readonly ops: Ops;
  readonly scaling: ResolvedFp8Scaling;
  /** Relative error of every forward GEMM this step (with `measureError`), by weight name. */
  readonly forwardError = new Map<string, number>();
  private readonly byData = new Map<Float32Array, Param>();
  private readonly inputOf = new Map<Float32Array, Param>();
  private readonly cache = new Map<string, Fp8Tiles>();
  private readonly stats = new Map<string, Fp8TensorStats>();
  private readonly delayed = new Map<string, { amaxHistory: number[]; scale: number }>();
  private step = 0;

  /**
   * @param weights the working-copy weights whose GEMMs run in FP8 (their `data` arrays are recognised by identity)
   * @param scaling how to scale: delayed, current or block-wise (see {@link Fp8Scaling})
   * @param options accumulator model, outlier channel, error measurement
   * @throws {RangeError} from {@link resolveFp8Scaling}; `outlier.weight must name an FP8 weight, got "head.W"`
   */
  constructor(weights: readonly Param[], scaling: Fp8Scaling, private readonly options: Fp8ContextOptions = {}) {
    this.scaling = resolveFp8Scaling(scaling);
    for (const w of weights) this.byData.set(w.data, w);
    if (options.outlier && !weights.some((w) => w.name === options.outlier!.weight)) throw new RangeError(`outlier.weight must name an FP8 weight, got ${JSON.stringify(options.outlier.weight)}`);
    outlierFactor(options.outlier, 0); // validates it
    this.ops = { precision: { compute: "bf16", accumulate: "fp32" }, matmul: (a, b, shape, acc) => this.matmul(a, b, shape, acc) };
  }

  /**
   * Starts step `step`: forgets the previous step's casts (each tensor is cast once per step) and statistics.
   * @param step the step number, integer >= 0 (it decides the outlier's factor)
   * @returns nothing
   * @example ctx.beginStep(0)
   * @see TE quantizers: one cast per tensor per step, reused by the backward GEMMs
   */
  beginStep(step: number): void {
    this.step = step;
    this.cache.clear(); this.inputOf.clear(); this.stats.clear(); this.forwardError.clear();
  }

  /**
   * Ends the step: returns what every cast did, then (delayed scaling) rolls each amax history and updates each scale
   * with {@link amaxAndScaleUpdate}.
   * @returns one {@link Fp8TensorStats} per tensor cast this step, in the order of their first cast
   * @example ctx.endStep()[0].tensor // "proj.W:input"
   * @see TE transformer_engine/pytorch/quantization.py `reduce_and_update_fp8_tensors` (after forward and after backward)
   */
  endStep(): Fp8TensorStats[] {
    const out = [...this.stats.values()].map((s) => ({ ...s }));
    if (this.scaling.kind === "delayed") {
      for (const [tensor, st] of this.delayed) {
        const r = amaxAndScaleUpdate(st.amaxHistory, st.scale, fp8Max(this.formatOf(tensor)), this.scaling.recipe!);
        this.delayed.set(tensor, { amaxHistory: r.amaxHistory, scale: r.scale });
      }
    }
    return out;
  }

  /**
   * The current scale and amax history of a tensor under delayed scaling (TE starts at scale 1, history of zeros).
   * @param tensor e.g. "blocks.0.W1:input"
   * @returns the live state (mutated by the casts and by {@link Fp8Context.endStep})
   * @example ctx.delayedState("proj.W:weight").scale // 1 before the first update
   * @see TE quantization.py `DelayedScalingRecipeState` (scale = ones, amax_history = zeros)
   */
  delayedState(tensor: string): { amaxHistory: number[]; scale: number } {
    let st = this.delayed.get(tensor);
    if (!st) this.delayed.set(tensor, (st = { amaxHistory: new Array(this.scaling.recipe!.amaxHistoryLen).fill(0), scale: 1 }));
    return st;
  }

  private formatOf(tensor: string): Fp8FormatName {
    return tensor.endsWith(":grad_output") ? this.scaling.formats.backward : this.scaling.formats.forward;
  }

  private matmul(a: Float32Array, b: Float32Array, shape: MatmulShape, acc: "fp32" | "fp16" | "bf16"): Float32Array {
    const w = this.byData.get(b);
    if (w && !shape.transA && !shape.transB) return this.fprop(w, a, shape);
    if (w && shape.transB && !shape.transA) return this.dgrad(w, a, shape);
    const wi = this.inputOf.get(a);
    if (wi && shape.transA && !shape.transB) return this.wgrad(wi, a, b, shape);
    return matmul(a, b, shape, acc); // not an FP8 GEMM (the head, attention): bf16 operands, fp32 accumulation
  }

  private factor(w: Param): number {
    return this.options.outlier?.weight === w.name ? outlierFactor(this.options.outlier, this.step) : 1;
  }

  /** x·W, (N, I)·(I, O), with the outlier moved from W's row into x's column. */
  private fprop(w: Param, x: Float32Array, s: MatmulShape): Float32Array {
    this.inputOf.set(x, w);
    const qx = this.cast(`${w.name}:input`, this.input(w, x, s.M, s.K), s.M, s.K, "row");
    const y = fp8Gemm(qx, this.weight(w), this.gemmOptions());
    if (this.options.measureError) {
      const ref = matmul(x, w.data, s, "fp32");
      let num = 0, den = 0;
      for (let i = 0; i < y.length; i++) { num += (y[i] - ref[i]) ** 2; den += ref[i] ** 2; }
      this.forwardError.set(w.name, den > 0 ? Math.sqrt(num / den) : 0);
    }
    return y;
  }

  /** dy·Wᵀ, (N, O)·(O, I); the outlier's column of dx multiplied back. */
  private dgrad(w: Param, dy: Float32Array, s: MatmulShape): Float32Array {
    const qdy = this.cast(`${w.name}:grad_output`, dy, s.M, s.K, "row");
    const dx = fp8Gemm(qdy, transposeTiles(this.weight(w)), this.gemmOptions());
    const f = this.factor(w);
    return f === 1 ? dx : scaleColumn(dx, s.M, s.N, this.options.outlier!.channel, f);
  }

  /** xᵀ·dy, (I, N)·(N, O); the outlier's row of dW divided back. */
  private wgrad(w: Param, x: Float32Array, dy: Float32Array, s: MatmulShape): Float32Array {
    const qx = this.cast(`${w.name}:input`, this.input(w, x, s.K, s.M), s.K, s.M, "column");
    const qdy = this.cast(`${w.name}:grad_output`, dy, s.K, s.N, "column");
    const dW = fp8Gemm(transposeTiles(qx), qdy, this.gemmOptions());
    const f = this.factor(w);
    return f === 1 ? dW : scaleRow(dW, s.N, this.options.outlier!.channel, 1 / f);
  }

  private input(w: Param, x: Float32Array, rows: number, cols: number): Float32Array {
    const f = this.factor(w);
    return f === 1 ? x : scaleColumn(x, rows, cols, this.options.outlier!.channel, f);
  }

  private weight(w: Param): Fp8Tiles {
    const [I, O] = w.shape, f = this.factor(w);
    return this.cast(`${w.name}:weight`, f === 1 ? w.data : scaleRow(w.data, O, this.options.outlier!.channel, 1 / f), I, O, "block");
  }

  private gemmOptions(): Fp8GemmOptions {
    return this.scaling.kind === "blockwise" ? { promoteEvery: this.scaling.blockSize, ...this.options.gemm } : { ...this.options.gemm };
  }

  /**
   * Casts a (rows, cols) tensor once per step (and, block-wise, once per tile orientation): "row" tiles run along
   * the columns (1 × B, the GEMM's K), "column" tiles along the rows (B × 1), "block" tiles are B × B.
   */
  private cast(tensor: string, values: Float32Array, rows: number, cols: number, orientation: "row" | "column" | "block"): Fp8Tiles {
    const B = this.scaling.blockSize ?? 0, key = this.scaling.kind === "blockwise" ? `${tensor}|${orientation}` : tensor;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const format = this.formatOf(tensor), max = fp8Max(format);
    let t: Fp8Tiles, amax: number, scale: number | null = null;
    if (this.scaling.kind === "blockwise") {
      const tile = orientation === "row" ? { rows: 1, cols: B } : orientation === "column" ? { rows: B, cols: 1 } : { rows: B, cols: B };
      t = quantizeTiles(values, rows, cols, tile, format, { powerOf2Scales: this.scaling.powerOf2Scales });
      amax = amaxOf(values);
    } else {
      const st = this.scaling.kind === "delayed" ? this.delayedState(tensor) : null;
      scale = st ? st.scale : scaleFromAmax(amaxOf(values), max);
      const q = quantizeFp8(values, scale, format);
      if (st) st.amaxHistory[0] = Math.max(st.amaxHistory[0], q.amax); // TE: the cast's amax into slot 0 of the history
      t = perTensorTiles(q, rows, cols);
      amax = q.amax;
    }
    const s = this.stats.get(tensor) ?? { tensor, format, elements: 0, overflow: 0, underflow: 0, amax: 0, scale };
    this.stats.set(tensor, { ...s, elements: s.elements + values.length, overflow: s.overflow + t.overflow, underflow: s.underflow + t.underflow, amax: Math.max(s.amax, amax) });
    this.cache.set(key, t);
    return t;
  }
}
