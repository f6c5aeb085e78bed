/**
 * Typed reads of a config.json's fields, each error naming the field, the
 * rule and the value found. Hand-written rather than a schema library: the
 * page loads nothing for them (issue 9: zod was 446 KiB in the browser).
 */

/** A short rendering of a value for an error message. */
export function show(v: unknown): string {
  if (v === undefined) return "nothing";
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

const isCount = (v: unknown, min: number): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= min;

/**
 * Reads the fields of one config.json for one family. Every method throws a
 * TypeError naming the field: missing (when required), or of the wrong type.
 * @see Hugging Face `PretrainedConfig` (the fields are the config classes' constructor arguments)
 */
export class ConfigFields {
  /**
   * @param raw the parsed config.json
   * @param family the family named in the "missing" message, e.g. `"qwen2" (Llama-style)`
   */
  constructor(private readonly raw: Record<string, unknown>, private readonly family: string) {}

  /** Whether the file sets the field (to anything but null). */
  has(field: string): boolean {
    return this.raw[field] !== undefined && this.raw[field] !== null;
  }

  /**
   * A positive integer field; `fallback` (the config class's default) when absent, required when no fallback.
   * @throws TypeError `config.json: field "hidden_size" is missing (needed for a … model; it must be a positive integer)`;
   *   `config.json: field "hidden_size" must be a positive integer, got "5120"`
   */
  int(field: string, fallback?: number): number {
    return this.count(field, 1, fallback);
  }

  /** A non-negative integer field (0 allowed), e.g. `first_k_dense_replace`. */
  nonNegative(field: string, fallback?: number): number {
    return this.count(field, 0, fallback);
  }

  /** A positive integer field that may be null or absent (then null), e.g. `sliding_window`, `head_dim`. */
  intOrNull(field: string): number | null {
    const v = this.raw[field];
    if (v === undefined || v === null) return null;
    if (!isCount(v, 1)) throw new TypeError(`config.json: field "${field}" must be a positive integer or null, got ${show(v)}`);
    return v;
  }

  /** A boolean field, `fallback` when absent. */
  bool(field: string, fallback: boolean): boolean {
    const v = this.raw[field];
    if (v === undefined) return fallback;
    if (typeof v !== "boolean") throw new TypeError(`config.json: field "${field}" must be a boolean, got ${show(v)}`);
    return v;
  }

  /** A list of non-negative integers (layer indices), `[]` when absent. */
  intList(field: string): number[] {
    const v = this.raw[field];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || !v.every((x) => isCount(x, 0))) throw new TypeError(`config.json: field "${field}" must be a list of layer indices (integers >= 0), got ${show(v)}`);
    return v as number[];
  }

  private count(field: string, min: number, fallback: number | undefined): number {
    const v = this.raw[field];
    const want = min === 1 ? "a positive integer" : "an integer >= 0";
    if (v === undefined) {
      if (fallback === undefined) throw new TypeError(`config.json: field "${field}" is missing (needed for a ${this.family} model; it must be ${want})`);
      return fallback;
    }
    if (!isCount(v, min)) throw new TypeError(`config.json: field "${field}" must be ${want}, got ${show(v)}`);
    return v;
  }
}
