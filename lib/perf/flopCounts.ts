import { parameterCount, type ModelArch } from "../memory/index.js";

function positive(name: string, v: number): number {
  if (!Number.isFinite(v) || v <= 0) throw new RangeError(`${name} must be a finite number > 0, got ${v}`);
  return v;
}

/**
 * FLOPs of one training iteration of a GPT model as Narayanan et al. count them
 * for their Table 1 (their Eq. 3): the GEMMs of the transformer layers and the
 * logit layer, with activation recomputation (four passes of the layers, three of the logits):
 *
 *   F = 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h))
 *
 * It includes attention's s² products (the s/6h term) and assumes a 4h MLP and full attention (a/a heads).
 * @param o B sequences per iteration, s tokens each, l layers, width h, vocabulary V (all > 0)
 * @returns FLOPs per iteration
 * @throws RangeError `seqLen must be a finite number > 0, got 0` (likewise batch, numLayers, hiddenSize, vocabSize)
 * @example megatronIterationFlops({ batch: 512, seqLen: 2048, numLayers: 24, hiddenSize: 2304, vocabSize: 51200 }) // ≈ 4.58e16 (Table 1's 1.7B row)
 * @see Narayanan et al. 2021, *Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM*, §5.1, Eq. 3, and Appendix
 */
export function megatronIterationFlops(o: { batch: number; seqLen: number; numLayers: number; hiddenSize: number; vocabSize: number }): number {
  const B = positive("batch", o.batch), s = positive("seqLen", o.seqLen), l = positive("numLayers", o.numLayers);
  const h = positive("hiddenSize", o.hiddenSize), V = positive("vocabSize", o.vocabSize);
  return 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
}

/**
 * Parameters that take part in a token's matrix products, N of PaLM's count: every parameter
 * a token goes through but the learned position table and an untied input embedding (a table
 * lookup is not a product); a tied embedding counts once, as the output layer. This is what
 * nanoGPT's `get_num_params()` returns for its tied GPT-2. With experts, a token goes through k
 * of the E routed experts of each MoE layer: N counts the active parameters (lib/memory's
 * `activeParameters`), as MoE reports count their "activated" parameters (DeepSeek-V3: 37B of 671B).
 * @param arch the model
 * @returns N
 * @throws the errors of lib/memory's `parameterCount`
 * @example matmulParams(gpt2) // 124,439,808 − 786,432 = 123,653,376 (the 1024 × 768 position table left out)
 * @example matmulParams(mixtral_8x7b) // 12,879,925,248 active − 131,072,000 input embedding = 12,748,853,248
 * @see karpathy/nanoGPT `model.py` (`get_num_params`, `estimate_mfu`); Chowdhery et al. 2022, *PaLM*, Appendix B;
 *   DeepSeek-AI 2024, *DeepSeek-V3 Technical Report*, §1 (671B total, 37B activated per token)
 */
export function matmulParams(arch: ModelArch): number {
  const p = parameterCount(arch);
  return p.activeParameters - p.positions - (arch.tiedEmbeddings ? 0 : p.embedding);
}

/**
 * Model FLOPs per token as PaLM defines them for MFU: 6N for the weight products
 * (forward 2N, backward 4N) plus 12·L·H·Q·T for attention's two s² products
 * (L layers, H heads of dimension Q, sequence T), forward and backward, no
 * recomputation and no causal halving. nanoGPT's `estimate_mfu` implements exactly this.
 * @param arch the model (N from {@link matmulParams}, L, H, Q)
 * @param seqLen T, tokens per sequence
 * @returns FLOPs per token
 * @throws RangeError `seqLen must be a finite number > 0, got 0`
 * @example palmFlopsPerToken(llama2_7b, 4096) // 6·6.74e9 + 12·32·32·128·4096 ≈ 4.69e10
 * @see Chowdhery et al. 2022, *PaLM: Scaling Language Modeling with Pathways*, Appendix B; karpathy/nanoGPT `model.py` `estimate_mfu`
 */
export function palmFlopsPerToken(arch: ModelArch, seqLen: number): number {
  const T = positive("seqLen", seqLen);
  return 6 * matmulParams(arch) + 12 * arch.numLayers * arch.numHeads * arch.headDim * T;
}
