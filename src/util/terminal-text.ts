// Text from input (names, paths, error messages that quote a manifest) shown on a terminal:
// control characters, DEL, C1 controls and bidirectional overrides become visible escapes, so
// no manifest or runtime label can move the cursor, clear the screen, plant a hyperlink or
// reorder what a person reads. JSON output needs none of this (JSON escapes by itself); a
// container's own log bytes are passed through raw, as kubectl does. Pure.

// C0 (tab and newline included), DEL, C1, and the Unicode bidi / direction marks.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

const NAMED: Readonly<Record<string, string>> = {'\n': '\\n', '\r': '\\r', '\t': '\\t'}

/** `text` with every unsafe character written as `\n`, `\xNN` or `\uNNNN`. */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    if (Object.hasOwn(NAMED, ch)) return NAMED[ch]!
    const code = ch.charCodeAt(0)
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
}

// What JSON.stringify leaves raw of UNSAFE: DEL, C1 and the bidi marks.
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/**
 * `\uNNNN` for each unsafe character that JSON.stringify leaves raw. Only for text where such a
 * character can stand only inside a string that `\u` escapes (JSON output, YAML double-quoted
 * scalars): the value read back is unchanged.
 */
export function escapeRawInQuotes(text: string): string {
  return text.replace(RAW_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** True when `text` holds something escapeControls would change. */
export function hasControls(text: string): boolean {
  UNSAFE.lastIndex = 0
  const found = UNSAFE.test(text)
  UNSAFE.lastIndex = 0
  return found
}
