import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isPresetName, PRESET_NAMES } from "./presets.js";

/**
 * The text of a shipped config.json (Node only: reads `lib/memory/configs/<name>.json`).
 *
 * @param name one of PRESET_NAMES
 * @returns the file's text
 * @throws RangeError `unknown model preset "x"; presets: gpt2, …`
 * @example JSON.parse(loadPresetText("gpt2")).n_layer // 12
 * @see lib/memory/configs/SOURCES.txt (where each Hugging Face config.json comes from); Hugging Face Transformers `PretrainedConfig` docs
 */
export function loadPresetText(name: string): string {
  if (!isPresetName(name)) throw new RangeError(`unknown model preset ${JSON.stringify(name)}; presets: ${PRESET_NAMES.join(", ")}`);
  return readFileSync(fileURLToPath(new URL(`./configs/${name}.json`, import.meta.url)), "utf8");
}
