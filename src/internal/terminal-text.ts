/**
 * Text from a file or a model, made safe for a terminal. A run file's `item.title` or a model's message
 * may hold escape sequences (`ESC ] 0 ; title BEL` renames the window, `ESC [ 2 J` clears the screen,
 * OSC 8 disguises a link, a C1 `CSI` byte or a carriage return overwrites what was printed); written raw,
 * the terminal obeys them.
 *
 * haggle's choice: every C0 control character but newline and tab, DEL, and every C1 control character
 * (U+0080 to U+009F) becomes a visible `\u001b`-style escape. The form is JSON's own escape, so text
 * that is already JSON (`--json`) reads back as the exact same strings after this, and text that is not
 * shows a reader what was there, rather than dropping it.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is matched
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with its control characters (all but `\n` and `\t`) written as `\u00XX` escapes. */
export function terminalText(text: string): string {
  return text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
