import type { loraConfigsFor, LlamaShape, LoraConfig, Target } from "../lora-configs.js";
import type { Mutant } from "../../harness/index.js";

type F = typeof loraConfigsFor;
const ALL: Target[] = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"];

interface Options { noGqa?: boolean; ignoreHeadDim?: boolean; maxRank?: number; powersOfTwo?: boolean; sortBySize?: boolean; alphabetical?: boolean; noCheck?: boolean; perBlock?: boolean }

const make = (o: Options = {}): F => (shape, trainable) => {
  if (!o.noCheck && (!Number.isSafeInteger(trainable) || trainable < 0)) throw new RangeError(`trainable must be a safe integer >= 0, got ${trainable}`);
  const h = shape.hidden_size, a = shape.num_attention_heads;
  const d = o.ignoreHeadDim ? h / a : shape.head_dim ?? h / a;
  const kv = (o.noGqa ? a : shape.num_key_value_heads ?? a) * d, q = a * d, I = shape.intermediate_size;
  const w: Record<Target, number> = { q_proj: h + q, k_proj: h + kv, v_proj: h + kv, o_proj: q + h, gate_proj: h + I, up_proj: h + I, down_proj: I + h };
  const out: LoraConfig[] = [];
  for (let m = 1; m < 128; m++) {
    const targets = ALL.filter((_, i) => (m >> i) & 1);
    const per = (o.perBlock ? 1 : shape.num_hidden_layers) * targets.reduce((s, t) => s + w[t], 0);
    const r = trainable / per;
    if (trainable > 0 && Number.isInteger(r) && r <= (o.maxRank ?? 256) && (!o.powersOfTwo || (r & (r - 1)) === 0)) out.push({ rank: r, targets });
  }
  const idx = (t: Target) => ALL.indexOf(t);
  return out.sort((x, y) => {
    if (x.rank !== y.rank) return x.rank - y.rank;
    if (o.sortBySize && x.targets.length !== y.targets.length) return x.targets.length - y.targets.length;
    if (o.alphabetical) return x.targets.join(",") < y.targets.join(",") ? -1 : 1;
    for (let i = 0; i < Math.min(x.targets.length, y.targets.length); i++) if (x.targets[i] !== y.targets[i]) return idx(x.targets[i]!) - idx(y.targets[i]!);
    return x.targets.length - y.targets.length;
  });
};

export const mutants: Record<string, Mutant<F>> = {
  "ignores grouped-query attention (k_proj and v_proj as wide as q_proj)": { impl: make({ noGqa: true }), caughtBy: "grouped-query attention narrows k_proj and v_proj (Mistral-7B)" },
  "head_dim taken as hidden_size / heads": { impl: make({ ignoreHeadDim: true }), caughtBy: "head_dim apart from the width; a missing num_key_value_heads" },
  "only powers of two for the rank": { impl: make({ powersOfTwo: true }), caughtBy: ["grouped-query attention narrows k_proj and v_proj (Mistral-7B)", "random shapes and configurations"] },
  "ranks up to 255 (an off-by-one at the top)": { impl: make({ maxRank: 255 }), caughtBy: "counts no configuration gives: 0, off by one, above rank 256" },
  "fewer targets first within a rank": { impl: make({ sortBySize: true }), caughtBy: "the order of the list" },
  "targets sorted by name, not in block order": { impl: make({ alphabetical: true }), caughtBy: ["the stub's example: PEFT's 4,194,304 on Llama-2-7B", "the order of the list"] },
  "one block's count, not every block's": { impl: make({ perBlock: true }), caughtBy: ["the stub's example: PEFT's 4,194,304 on Llama-2-7B", "random shapes and configurations"] },
  "no check of trainable": { impl: make({ noCheck: true }), caughtBy: "bad input: a RangeError naming trainable" },
};
