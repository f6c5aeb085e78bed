/**
 * A character-level vocabulary: one token per distinct character.
 */

/** Maps characters to token ids and back. */
export interface Vocab {
  /** The characters, sorted by code point; the id of a character is its index. */
  chars: string[];
  size: number;
  encode(text: string): Int32Array;
  decode(ids: ArrayLike<number>): string;
}

/**
 * The vocabulary of the distinct characters of `text`, sorted by code point.
 *
 * @param text the training text
 * @returns encode/decode and the size V
 * @throws {RangeError} `text must not be empty`; encode throws `character "<c>" is not in the vocabulary`
 * @example
 * const v = buildVocab("abca"); v.size; // 3
 * v.encode("cab"); // Int32Array [2, 0, 1]
 * @see Karpathy, char-rnn / nanoGPT `data/shakespeare_char/prepare.py`
 */
export function buildVocab(text: string): Vocab {
  if (text.length === 0) throw new RangeError("text must not be empty");
  const chars = [...new Set(text)].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!);
  const stoi = new Map(chars.map((c, i) => [c, i]));
  return {
    chars,
    size: chars.length,
    encode(s) {
      return Int32Array.from([...s], (c) => {
        const id = stoi.get(c);
        if (id === undefined) throw new RangeError(`character "${c}" is not in the vocabulary`);
        return id;
      });
    },
    decode(ids) {
      return Array.from(ids, (i) => chars[i] ?? "?").join("");
    },
  };
}
