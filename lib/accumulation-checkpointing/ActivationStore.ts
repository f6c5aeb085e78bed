/**
 * A ledger of the activations a training step keeps for backward, so that the
 * peak of stored activations can be measured from what the code really keeps
 * (the chapter's "build it" exercise is graded on it).
 */
import type { Activation, Format, Layer, Model, Saved } from "../nn/index.js";
import { inputBytes } from "./layerCosts.js";

/**
 * The activations a step keeps alive for backward, and their peak.
 *
 * Two kinds of entries, as in PyTorch: what a layer's forward saved for its
 * backward ({@link ActivationStore.save}, autograd's saved tensors), and the
 * input of a checkpointed segment ({@link ActivationStore.saveInput},
 * what `torch.utils.checkpoint` keeps). A tensor is counted once: while a
 * kept input is also the `x` of a stored Saved (the first recomputed layer of
 * its segment), only the Saved counts, because both are the same storage.
 * Sizes follow the chapter's convention: `Saved.bytes` as lib/nn reports it,
 * and `inputBytes(layer, rows, format)` for a kept input (token ids: 4 bytes each).
 *
 * @example
 * const store = new ActivationStore("fp32");
 * const { saved } = layer.forward(x, ops); store.save(saved); // liveBytes = saved.bytes
 * layer.backward(saved, dy, ops); store.free(saved);          // liveBytes = 0, peakBytes = saved.bytes
 * @see PyTorch, "Autograd mechanics: saved tensors" and `torch.utils.checkpoint` docs; Chen et al. 2016, §4
 */
export class ActivationStore {
  /** The compute format that sizes kept inputs. */
  readonly format: Format;
  private readonly saved = new Set<Saved>();
  private readonly inputs = new Map<Activation, number>();
  private peak = 0;

  /**
   * @param format compute format of the activations (default "fp32")
   * @throws {RangeError} `format must be fp32, fp16 or bf16, got "fp8"`
   */
  constructor(format: Format = "fp32") {
    if (!["fp32", "fp16", "bf16"].includes(format)) throw new RangeError(`format must be fp32, fp16 or bf16, got "${String(format)}"`);
    this.format = format;
  }

  /**
   * Keeps what a layer's forward saved for its backward.
   * @param s the `saved` of `layer.forward(x, ops)`
   * @returns `s`
   * @throws {RangeError} `this Saved is already in the store` when saved twice
   */
  save(s: Saved): Saved {
    if (this.saved.has(s)) throw new RangeError("this Saved is already in the store");
    this.saved.add(s);
    this.update();
    return s;
  }

  /**
   * Keeps the input of a checkpointed segment whose first layer is `layer`.
   * @param x the segment's input, (N, layer.inFeatures)
   * @param layer the segment's first layer (sizes the entry: token ids take 4 bytes)
   * @returns `x`
   * @throws {RangeError} `this input is already in the store`
   */
  saveInput(x: Activation, layer: Layer): Activation {
    if (this.inputs.has(x)) throw new RangeError("this input is already in the store");
    this.inputs.set(x, inputBytes(layer, x.rows, this.format));
    this.update();
    return x;
  }

  /**
   * Frees a stored Saved or a kept input.
   * @param t what {@link save} or {@link saveInput} was given
   * @throws {RangeError} `free: not in the store (freed twice, or never saved)`
   */
  free(t: Saved | Activation): void {
    if (!this.saved.delete(t as Saved) && !this.inputs.delete(t as Activation)) throw new RangeError("free: not in the store (freed twice, or never saved)");
    this.update();
  }

  /** True while `t` is stored. */
  has(t: Saved | Activation): boolean {
    return this.saved.has(t as Saved) || this.inputs.has(t as Activation);
  }

  /** Bytes stored now. */
  get liveBytes(): number {
    const shared = new Set<Activation>();
    let bytes = 0;
    for (const s of this.saved) { bytes += s.bytes; shared.add(s.x); }
    for (const [x, b] of this.inputs) if (!shared.has(x)) bytes += b;
    return bytes;
  }

  /** The largest {@link liveBytes} since construction or the last {@link resetPeak}. */
  get peakBytes(): number {
    return this.peak;
  }

  /** Entries stored now (Saved and kept inputs). */
  get size(): number {
    return this.saved.size + this.inputs.size;
  }

  /** Starts a new peak measurement from the bytes stored now. */
  resetPeak(): void {
    this.peak = this.liveBytes;
  }

  private update(): void {
    this.peak = Math.max(this.peak, this.liveBytes);
  }
}

/**
 * The same model, whose layers refuse to run backward on tensors that are not
 * in `store`: as PyTorch refuses to backpropagate through a graph whose saved
 * tensors were freed. Parameters and config are shared with `model`.
 *
 * @param model a lib/nn model
 * @param store the step's store
 * @returns a Model whose layers' `backward(saved, …)` throws unless `store.has(saved)`
 * @throws {Error} (from a layer's backward) `layer blocks.0: backward needs the tensors its forward saved, still in the store (store.save(saved) after forward, store.free(saved) only after backward)`
 * @example
 * const m = guardBackward(model, store);
 * m.layers[1].backward(saved, dy, ops); // throws unless store.save(saved) ran before
 * @see PyTorch, "Autograd mechanics: saved tensors" (backward through freed saved tensors raises)
 */
export function guardBackward(model: Model, store: ActivationStore): Model {
  const layers: Layer[] = model.layers.map((l) => ({
    name: l.name, kind: l.kind, params: l.params, inFeatures: l.inFeatures, outFeatures: l.outFeatures,
    forward: (x, ops) => l.forward(x, ops),
    backward: (saved, dy, ops) => {
      if (!store.has(saved)) throw new Error(`layer ${l.name}: backward needs the tensors its forward saved, still in the store (store.save(saved) after forward, store.free(saved) only after backward)`);
      return l.backward(saved, dy, ops);
    },
    flops: (rows) => l.flops(rows),
    savedBytes: (rows, format) => l.savedBytes(rows, format),
  }));
  return { config: model.config, layers, params: model.params };
}
