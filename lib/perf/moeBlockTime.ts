import { gemmTime, type Roofline } from "./roofline.js";

/**
 * The mixture-of-experts block of a layer (it replaces the dense MLP), as lib/memory's MoeArch gives it.
 * @see {@link moeBlockTime}
 */
export interface MoeBlockShape {
  /** E, routed experts of the layer. */
  numExperts: number;
  /** k, experts per token. */
  topK: number;
  /** I_e, one routed expert's MLP width. */
  expertIntermediateSize: number;
  /** I_s, the shared experts' width together (0 without). */
  sharedIntermediateSize: number;
}

/** One linear's three GEMMs: forward, input gradient, weight gradient, seconds. */
export interface LinearGemms {
  forwardS: number;
  inputGradS: number;
  weightGradS: number;
}

/**
 * Time of an MoE block's GEMMs and what its elementwise kernels move.
 * @see {@link moeBlockTime}
 */
export interface MoeBlockTime {
  /** The router, the experts' first (gate and up) GEMMs and the shared experts' first GEMM, together. */
  fc1: LinearGemms;
  /** The experts' and the shared experts' second (down) GEMMs. */
  fc2: LinearGemms;
  /** Token copies each local expert processes on this GPU (balanced routing). */
  tokensPerExpert: number;
  /** Bytes the block's elementwise kernels read and write, forward: activations, the permutation before dispatch and after combine, the router's softmax. */
  elementwiseBytes: number;
  /** FLOPs of the block's GEMMs, forward. */
  forwardFlops: number;
  /** Elements of the GEMMs' inputs and of their outputs, forward (what an FP8 recipe casts: inputs forward, output gradients backward). */
  operandElements: { inputs: number; outputs: number };
}

function positiveInt(name: string, v: number): number {
  if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1, got ${v}`);
  return v;
}

/**
 * The GEMMs of an MoE block on one GPU, with balanced routing (every expert receives the same number of
 * token copies, as the load-balancing loss aims for, and none is dropped), expert tensor parallelism equal to
 * the tensor-parallel size t (Megatron's default `--expert-tensor-parallel-size`) and `ep` expert-parallel ranks:
 * - each GPU holds E/ep experts, each of which processes m_e = n·k·ep/E token copies (n tokens of the
 *   (data, context)-parallel rank, k copies each, gathered from the ep ranks of its expert-parallel group and
 *   the t ranks of its tensor-parallel group), a grouped GEMM of E/ep products h → (1 or 2)·I_e/t, then I_e/t → h;
 *   so a GPU's expert FLOPs are those of a dense MLP of width k·I_e split over t, whatever ep is, while ep sets
 *   how large each product is (ep = 1: E small GEMMs; ep = E: one large one);
 * - the shared experts as a dense tensor-parallel MLP of width I_s on the n tokens; the router as a GEMM of the
 *   `rows` tokens this rank routes (n/t with sequence parallelism) by E;
 * - elementwise: the experts' activation (gated: read two, write one), the permutation of the `rows` tokens into
 *   k copies before the dispatch and back after the combine (each read and written), the router's fp32 softmax.
 * Backward runs each linear's input- and weight-gradient GEMMs of the same shapes.
 * @param o h, gated, the block, n tokens, rows, t, ep, element bytes e of the GEMMs' operands, and `elementwiseBytesPerElement` (default e)
 * @param r the roofline of the GEMMs (an FP8 one for FP8 GEMMs) and of the elementwise kernels
 * @returns the {@link MoeBlockTime}
 * @throws RangeError `expertParallel (3) must divide numExperts (8)`, `topK must be an integer from 1 to numExperts (8), got 9`,
 *   `tokens must be an integer >= 1, got 0` (likewise rows, tensorParallel, expertParallel), and those of gemmTime
 * @example moeBlockTime({ hiddenSize: 4096, gated: true, moe: { numExperts: 8, topK: 2, expertIntermediateSize: 14336, sharedIntermediateSize: 0 }, tokens: 4096, rows: 4096, tensorParallel: 1, expertParallel: 8, bytesPerElement: 2 }, h100).tokensPerExpert
 *   // 8192: Mixtral's one expert per GPU sees 2 copies of 4096 tokens from each of 8 ranks, on average 1/8 of them
 * @see Jiang et al. 2024, *Mixtral of Experts*, §2; Gale et al. 2023, *MegaBlocks* (grouped GEMMs of the experts); Megatron-LM d98e8a6
 *   `core/transformer/moe/token_dispatcher.py` (`MoEAlltoAllTokenDispatcher`: permute, A2A over EP, AG over expert-TP, sort by local expert) and `experts.py` (`TEGroupedMLP`)
 */
export function moeBlockTime(
  o: { hiddenSize: number; gated: boolean; moe: MoeBlockShape; tokens: number; rows: number; tensorParallel: number; expertParallel: number; bytesPerElement: number; elementwiseBytesPerElement?: number },
  r: Roofline,
): MoeBlockTime {
  const h = positiveInt("hiddenSize", o.hiddenSize);
  const E = positiveInt("numExperts", o.moe.numExperts);
  const k = o.moe.topK;
  if (!Number.isSafeInteger(k) || k < 1 || k > E) throw new RangeError(`topK must be an integer from 1 to numExperts (${E}), got ${k}`);
  const Ie = positiveInt("expertIntermediateSize", o.moe.expertIntermediateSize);
  const Is = o.moe.sharedIntermediateSize;
  const n = positiveInt("tokens", o.tokens), rows = positiveInt("rows", o.rows);
  const t = positiveInt("tensorParallel", o.tensorParallel), ep = positiveInt("expertParallel", o.expertParallel);
  if (E % ep !== 0) throw new RangeError(`expertParallel (${ep}) must divide numExperts (${E})`);
  const e = o.bytesPerElement, ew = o.elementwiseBytesPerElement ?? e;
  const up = o.gated ? 2 : 1, local = E / ep;
  const mE = Math.ceil((n * k * ep) / E); // token copies per local expert
  const width = Math.ceil(Ie / t), sharedWidth = Math.ceil(Is / t);
  const zero: LinearGemms = { forwardS: 0, inputGradS: 0, weightGradS: 0 };
  let forwardFlops = 0;
  const operandElements = { inputs: 0, outputs: 0 };
  // One linear of m rows, kIn → nOut, `batch` products: forward, dX, dW.
  const add = (acc: LinearGemms, m: number, kIn: number, nOut: number, batch = 1): LinearGemms => {
    const fw = gemmTime({ m, n: nOut, k: kIn, batch, bytesPerElement: e }, r);
    forwardFlops += fw.flops;
    operandElements.inputs += batch * m * kIn;
    operandElements.outputs += batch * m * nOut;
    return {
      forwardS: acc.forwardS + fw.timeS,
      inputGradS: acc.inputGradS + gemmTime({ m, n: kIn, k: nOut, batch, bytesPerElement: e }, r).timeS,
      weightGradS: acc.weightGradS + gemmTime({ m: kIn, n: nOut, k: m, batch, bytesPerElement: e }, r).timeS,
    };
  };
  let fc1 = add(zero, rows, h, E); // router
  fc1 = add(fc1, mE, h, up * width, local);
  let fc2 = add(zero, mE, width, h, local);
  if (Is > 0) {
    fc1 = add(fc1, n, h, up * sharedWidth);
    fc2 = add(fc2, n, sharedWidth, h);
  }
  const activation = (o.gated ? 3 : 2) * (local * mE * width + (Is > 0 ? n * sharedWidth : 0)) * ew;
  const permutation = 2 * (1 + k) * rows * h * ew;
  const router = 2 * rows * E * 4;
  return { fc1, fc2, tokensPerExpert: mE, elementwiseBytes: activation + permutation + router, forwardFlops, operandElements };
}
