// Data loader (Node, build time): the flash-attention page's results that
// depend on no reader input, or on a few fixed choices, computed by the same
// lib functions the page would call, so that nothing heavy runs on page open.
// - ioVsM: Algorithm 1's HBM traffic counted by running its loops
//   (flashAttentionForward with countOnly) for every SRAM size M of the plot,
//   every head dimension d and sequence length N the page offers (about 0.5 s
//   per (d, N) in a browser, so it is done here once);
// - flops: the share of a Llama-2-13B-shaped layer's matmul FLOPs spent in QKᵀ and PV.
import { attentionFlopShare, flashAttentionForward, referenceAttention } from "../../lib/flash-attention/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";

const IO_DS = [16, 32, 64, 128, 256];
const IO_NS = [1024, 2048, 4096];

const ioVsM = [];
for (const d of IO_DS) for (const N of IO_NS) {
  const shape = { B: 1, H: 1, Nq: N, Nk: N, d };
  const q = new Float32Array(N * d);
  const standardElements = referenceAttention(q, q, q, shape, { countOnly: true }).io.totalElements;
  const points = [];
  for (let e = 4; e <= 36; e++) {
    const M = Math.round(2 ** (e / 2)) * d;
    if (M > N * d) break;
    points.push({ M, flashElements: flashAttentionForward(q, q, q, shape, { M, countOnly: true }).io.totalElements });
  }
  ioVsM.push({ d, N, standardElements, points });
}

const cfg = JSON.parse(loadPresetText("llama-2-13b"));
const seqLens = [512, 1024, 2048, 4096, 8192];
const flops = {
  model: cfg._name_or_path,
  hidden: cfg.hidden_size, intermediate: cfg.intermediate_size, heads: cfg.num_attention_heads, kvHeads: cfg.num_key_value_heads,
  bySeqLen: seqLens.map((seqLen) => ({ seqLen, ...attentionFlopShare({ hidden: cfg.hidden_size, intermediate: cfg.intermediate_size, heads: cfg.num_attention_heads, kvHeads: cfg.num_key_value_heads, seqLen }) })),
};

process.stdout.write(JSON.stringify({ ioVsM, flops }));
