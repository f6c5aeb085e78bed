import type { LlamaShape, loraParameters, Target } from "../lora-parameters.js";
import type { Mutant } from "../../harness/index.js";

function count(s: LlamaShape, r: number, targets: Target[], m: { gqa?: boolean; product?: boolean; perModel?: boolean; dedupe?: boolean; missingKvIsOne?: boolean; noCheck?: boolean } = {}): number {
  if (!m.noCheck && (!Number.isSafeInteger(r) || r < 1)) throw new RangeError(`rank must be an integer >= 1, got ${r}`);
  const h = s.hidden_size;
  const d = h / s.num_attention_heads;
  const kv = (m.gqa === false ? s.num_attention_heads : (s.num_key_value_heads ?? (m.missingKvIsOne ? 1 : s.num_attention_heads))) * d;
  const I = s.intermediate_size;
  const shape: Record<Target, [number, number]> = { q_proj: [h, h], k_proj: [h, kv], v_proj: [h, kv], o_proj: [h, h], gate_proj: [h, I], up_proj: [h, I], down_proj: [I, h] };
  const list = m.dedupe === false ? targets : [...new Set(targets)];
  for (const t of list) if (!m.noCheck && !(t in shape)) throw new RangeError(`unknown LoRA target ${JSON.stringify(t)}; targets: ${Object.keys(shape).join(", ")}`);
  const perLayer = list.reduce((acc, t) => acc + (!shape[t] ? 0 : m.product ? r * shape[t][0] * shape[t][1] : r * (shape[t][0] + shape[t][1])), 0);
  return m.perModel ? perLayer : s.num_hidden_layers * perLayer;
}

export const mutants: Record<string, Mutant<typeof loraParameters>> = {
  "ignores grouped-query attention (k_proj, v_proj as h → h)": { impl: (s, r, t) => count(s, r, t, { gqa: false }), caughtBy: "grouped-query attention narrows k_proj and v_proj" },
  "counts r·in·out instead of r·(in + out)": { impl: (s, r, t) => count(s, r, t, { product: true }), caughtBy: "Llama-2-7B, r = 8, q_proj + v_proj (PEFT: 4,194,304)" },
  "counts one block instead of every layer": { impl: (s, r, t) => count(s, r, t, { perModel: true }), caughtBy: "Llama-2-7B, r = 8, q_proj + v_proj (PEFT: 4,194,304)" },
  "counts a repeated target twice": { impl: (s, r, t) => count(s, r, t, { dedupe: false }), caughtBy: "a target listed twice counts once" },
  "reads a missing num_key_value_heads as 1 (multi-query)": { impl: (s, r, t) => count(s, r, t, { missingKvIsOne: true }), caughtBy: "a missing num_key_value_heads means no grouped-query attention" },
  "accepts a bad rank or an unknown target": { impl: (s, r, t) => count(s, r, t, { noCheck: true }), caughtBy: "bad rank or target: RangeError naming it" },
};
