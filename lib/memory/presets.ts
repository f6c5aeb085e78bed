/**
 * Names of the model configs shipped in `lib/memory/configs/<name>.json`
 * (Hugging Face `config.json` files, see configs/SOURCES.txt), in the order
 * the page and the CLI list them: dense models, then mixtures of experts.
 * Browser-safe: the files are read by `loadPreset` (Node) or by the page's FileAttachment.
 *
 * @example PRESET_NAMES.includes("llama-2-13b") // true
 * @see https://huggingface.co/meta-llama/Llama-2-13b-hf/blob/main/config.json and configs/SOURCES.txt
 */
export const PRESET_NAMES = [
  "gpt2", "pythia-70m", "llama-2-7b", "mistral-7b", "llama-2-13b", "llama-2-70b",
  "qwen2.5-7b", "gemma-7b", "gemma-2-9b", "phi-3-mini-4k",
  "mixtral-8x7b", "qwen1.5-moe-a2.7b", "deepseek-v3",
] as const;

/**
 * The presets that are mixtures of experts (the planner of chapter 12 searches them with expert parallelism).
 * @example MOE_PRESET_NAMES.includes("mixtral-8x7b") // true
 * @see configs/SOURCES.txt (Mixtral-8x7B, Qwen1.5-MoE-A2.7B, DeepSeek-V3)
 */
export const MOE_PRESET_NAMES: readonly PresetName[] = ["mixtral-8x7b", "qwen1.5-moe-a2.7b", "deepseek-v3"];

/**
 * The presets the planner offers: every one (it models mixtures of experts with expert parallelism, chapter 14).
 * @example PLANNER_PRESET_NAMES.includes("deepseek-v3") // true
 * @see {@link MOE_PRESET_NAMES}
 */
export const PLANNER_PRESET_NAMES: readonly PresetName[] = PRESET_NAMES;

/**
 * One of {@link PRESET_NAMES}.
 * @see the sources of {@link PRESET_NAMES}: https://huggingface.co/meta-llama/Llama-2-13b-hf/blob/main/config.json
 */
export type PresetName = (typeof PRESET_NAMES)[number];

/**
 * Whether `name` is a shipped preset.
 * @param name e.g. "llama-2-13b"
 * @returns true for a name in {@link PRESET_NAMES}
 * @example isPresetName("gpt2") // true
 * @see lib/memory/configs/SOURCES.txt (the shipped Hugging Face config.json files)
 */
export function isPresetName(name: string): name is PresetName {
  return (PRESET_NAMES as readonly string[]).includes(name);
}
