/** Readable, exact renderings of values for failure messages. */

const MAX_ITEMS = 8;

/** Formats a value exactly enough to debug with: shortest round-trip numbers, -0, NaN, typed arrays (first items). */
export function formatValue(v: unknown, depth = 0): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "string") return JSON.stringify(v);
  if (v === undefined) return "undefined";
  if (v === null) return "null";
  if (typeof v === "function") return `[function ${v.name || "anonymous"}]`;
  if (typeof v !== "object") return String(v);
  if (depth > 3) return "…";
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    const arr = Array.from(v as unknown as ArrayLike<number | bigint>);
    const head = arr.slice(0, MAX_ITEMS).map((x) => formatValue(x));
    const more = arr.length > MAX_ITEMS ? `, … (${arr.length} items)` : "";
    return `${v.constructor.name}[${head.join(", ")}${more}]`;
  }
  if (Array.isArray(v)) {
    const head = v.slice(0, MAX_ITEMS).map((x) => formatValue(x, depth + 1));
    const more = v.length > MAX_ITEMS ? `, … (${v.length} items)` : "";
    return `[${head.join(", ")}${more}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>);
  const head = entries.slice(0, MAX_ITEMS).map(([k, x]) => `${k}: ${formatValue(x, depth + 1)}`);
  const more = entries.length > MAX_ITEMS ? `, … (${entries.length} keys)` : "";
  return `{${head.join(", ")}${more}}`;
}

/** Describes the JavaScript type of a value for "wrong type" messages. */
export function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (ArrayBuffer.isView(v)) return v.constructor.name;
  return typeof v;
}

/** Formats a call such as `roundToBf16(1.01171875)`. */
export function formatCall(name: string, args: readonly unknown[]): string {
  return `${name}(${args.map((a) => formatValue(a)).join(", ")})`;
}
