/**
 * Text from a file or a model, made safe for a terminal. A run file's `item.title` or a model's message
 * may hold escape sequences (`ESC ] 0 ; title BEL` renames the window, `ESC [ 2 J` clears the screen,
 * OSC 8 disguises a link, a C1 `CSI` byte or a carriage return overwrites what was printed); written raw,
 * the terminal obeys them.
 *
 * Bidirectional embeddings, overrides and isolates (U+202A to U+202E, U+2066 to U+2069) do not move the
 * cursor but reorder what is shown after them: a title holding U+202E prints `$99 not $5` as something
 * else ("Trojan Source", CVE-2021-42574).
 *
 * haggle's choice: every C0 control character but newline and tab, DEL, every C1 control character
 * (U+0080 to U+009F) and those bidirectional formatting characters become a visible `\u001b`-style
 * escape. The marks U+200E and U+200F stay: right-to-left text uses them, and they reorder nothing
 * beyond their neighbours. The form is JSON's own escape, so text
 * that is already JSON (`--json`) reads back as the exact same strings after this, and text that is not
 * shows a reader what was there, rather than dropping it.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is matched
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with its control characters (all but `\n` and `\t`) written as `\uXXXX` escapes. */
export function terminalText(text: string): string {
  return text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
