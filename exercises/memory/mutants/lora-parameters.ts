import type { LlamaShape, loraParameters, Target } from "../lora-parameters.js";

function count(s: LlamaShape, r: number, targets: Target[], m: { gqa?: boolean; product?: boolean; perModel?: boolean; dedupe?: boolean } = {}): number {
  const h = s.hidden_size;
  const d = h / s.num_attention_heads;
  const kv = (m.gqa === false ? s.num_attention_heads : (s.num_key_value_heads ?? s.num_attention_heads)) * d;
  const I = s.intermediate_size;
  const shape: Record<Target, [number, number]> = { q_proj: [h, h], k_proj: [h, kv], v_proj: [h, kv], o_proj: [h, h], gate_proj: [h, I], up_proj: [h, I], down_proj: [I, h] };
  const list = m.dedupe === false ? targets : [...new Set(targets)];
  const perLayer = list.reduce((acc, t) => acc + (m.product ? r * shape[t][0] * shape[t][1] : r * (shape[t][0] + shape[t][1])), 0);
  return m.perModel ? perLayer : s.num_hidden_layers * perLayer;
}

export const mutants: Record<string, typeof loraParameters> = {
  "ignores grouped-query attention (k_proj, v_proj as h → h)": (s, r, t) => count(s, r, t, { gqa: false }),
  "counts r·in·out instead of r·(in + out)": (s, r, t) => count(s, r, t, { product: true }),
  "counts one block instead of every layer": (s, r, t) => count(s, r, t, { perModel: true }),
  "counts a repeated target twice": (s, r, t) => count(s, r, t, { dedupe: false }),
};
