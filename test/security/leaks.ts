/**
 * Whether `text` still holds `secret` in a form a reader could recover it from: in any letter case,
 * with whitespace inside, percent-encoded or `\u`-escaped, as hex, or inside any base64/base64url run
 * at any alignment. Written independently of src/internal/redact.ts: it decodes what it finds
 * instead of encoding the secret the way the redactor does, so the two cannot share a blind spot.
 */
export function leaks(text: string, secret: string): string | undefined {
  const wanted = secret.toLowerCase();
  const views: [string, string][] = [
    ['as is, any case', text],
    ['whitespace removed', text.replace(/\s+/g, '')],
    ['percent-decoded', percentDecode(text)],
    ['percent-decoded, whitespace removed', percentDecode(text).replace(/\s+/g, '')],
    [
      '\\u-unescaped',
      text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    ],
  ];
  for (const [name, view] of views) if (view.toLowerCase().includes(wanted)) return name;
  const hex = [...new TextEncoder().encode(secret)]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('');
  if (text.toLowerCase().includes(hex)) return 'hex';
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (let shift = 0; shift < 4; shift++) {
      if (base64Decode(run.slice(shift)).includes(secret)) return `base64 (shift ${shift})`;
    }
  }
  return undefined;
}

/** Decodes each `%XX` run that is valid UTF-8; leaves the rest. */
function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

function base64Decode(run: string): string {
  const standard = run.replaceAll('-', '+').replaceAll('_', '/');
  const whole = standard.slice(0, standard.length - (standard.length % 4));
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(whole), (char) => char.charCodeAt(0)));
  } catch {
    return '';
  }
}
