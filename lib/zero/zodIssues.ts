/**
 * Shared helpers of the config readers: the JSON object guard, and zod's
 * issues turned into one line per problem, each naming its key.
 */
import type { z } from "zod";

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

/**
 * Whether a parsed JSON value is an object (not null, not an array).
 * @param v any parsed JSON value
 * @returns true for `{…}`
 * @example isObj([]) // false
 * @see https://www.json.org (object vs array)
 */
export const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * zod issues as lines `path: message`, unknown keys as `path: unknown key "x"`.
 * @param issues a failed safeParse's `error.issues`
 * @param prefix the block's name, prepended to each path (e.g. "bf16")
 * @param why appended to an unknown-key line (e.g. "(DeepSpeedZeroConfig forbids extra fields)")
 * @returns the lines joined by newlines
 * @example issuesMessage(z.strictObject({}).safeParse({a: 1}).error.issues, "bf16") // 'bf16: unknown key "a"'
 * @see zod v4 docs, "Error handling" (issue codes)
 */
export function issuesMessage(issues: readonly z.core.$ZodIssue[], prefix = "", why = "(DeepSpeed's pydantic model forbids extra fields)"): string {
  return issues.map((i) => {
    const at = [prefix, ...i.path.map(String)].filter(Boolean).join(".");
    if (i.code === "unrecognized_keys") return `${at || "the config"}: unknown key${i.keys.length > 1 ? "s" : ""} ${i.keys.map((k) => JSON.stringify(k)).join(", ")} ${why}`;
    return `${at}: ${i.message}`;
  }).join("\n");
}
