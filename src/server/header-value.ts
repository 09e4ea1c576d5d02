/**
 * JSON for an HTTP header value. Node refuses a header character above U+00FF (an emoji in a warning
 * turned every proxied answer into a 500, the good answer lost), and bytes above ASCII mean different
 * things to different clients; so every character outside printable ASCII is written as a JSON
 * `\uXXXX` escape. The value stays valid JSON and a client's `JSON.parse` gets the text back unchanged.
 */
export function headerJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\x20-\x7e]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
