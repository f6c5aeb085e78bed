/**
 * Names of the model configs shipped in `lib/memory/configs/<name>.json`
 * (real Hugging Face `config.json` files, see configs/SOURCES.txt), in the order
 * the page and the CLI list them. Browser-safe: the files are read by
 * `loadPreset` (Node) or by the page's FileAttachment.
 *
 * @example PRESET_NAMES.includes("llama-2-13b") // true
 * @see https://huggingface.co/meta-llama/Llama-2-13b-hf/blob/main/config.json
 */
export const PRESET_NAMES = ["gpt2", "pythia-70m", "llama-2-7b", "mistral-7b", "llama-2-13b", "llama-2-70b"] as const;

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
