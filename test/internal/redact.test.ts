import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor, redact } from '../../src/internal/redact.js';
import { urlCredentials, urlLabel, urlWithPlaceholders } from '../../src/internal/redact-url.js';
import { leaks } from '../security/leaks.js';

const KEY = 'sk-proj-Ab3/De+Fg=Hi:Jk~Lm_No.Pq';
const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

describe('Redactor: a known secret in the forms a server echoes it in', () => {
  const redactor = new Redactor([KEY]);
  const forms: [string, string][] = [
    ['as sent', KEY],
    ['upper case', KEY.toUpperCase()],
    ['lower case', KEY.toLowerCase()],
    ['spaces inserted', KEY.match(/.{1,3}/g)?.join(' ') ?? ''],
    ['line breaks and tabs inserted', KEY.match(/.{1,5}/g)?.join('\n\t') ?? ''],
    ['percent-encoded', encodeURIComponent(KEY)],
    ['percent-encoded in lower-case hex', encodeURIComponent(KEY).toLowerCase()],
    ['every byte percent-encoded', [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')],
    ['JSON \\u escapes', [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['hex', [...KEY].map((c) => c.charCodeAt(0).toString(16)).join('')],
    ['base64', b64(KEY)],
    ['base64url', b64(KEY).replaceAll('+', '-').replaceAll('/', '_')],
    ['base64 of a Bearer header (shifted by 1)', b64(`Bearer ${KEY}`)],
    ['base64 of JSON around it (shifted by 2)', b64(`{"k":"${KEY}"}`)],
    ['base64 shifted by 0, after other bytes', b64(`abc${KEY}xyz`)],
  ];
  it.each(forms)('%s', (_name, form) => {
    const text = `HTTP 500 Bad key ${form} (check it)`;
    const out = redactor.text(text);
    expect(leaks(out, KEY), out).toBeUndefined();
    expect(out).toContain(REDACTED);
    expect(out).toMatch(/^HTTP 500 Bad key /);
    expect(out).toMatch(/ \(check it\)$/);
  });

  it('leaves ordinary text alone', () => {
    const text =
      'http://127.0.0.1:8000/v1/chat/completions failed after 5 attempt(s): HTTP 503 Service Unavailable: ' +
      '{"error":"busy","max_tokens":512,"tokens":12} ZXhhbXBsZQ==';
    expect(new Redactor([KEY, 'v=1']).text(text)).toBe(text);
  });

  it('replaces short secrets only as written, and ignores ones under 4 characters', () => {
    expect(new Redactor(['abcde']).text('abcde ABCDE')).toBe(`${REDACTED} ABCDE`);
    expect(new Redactor(['abc']).text('abc')).toBe('abc');
  });

  it('redacts a preview before cutting it, so a key at the edge does not leak in part', () => {
    const body = `${'x'.repeat(290)} ${KEY} ${'y'.repeat(20_000)}`;
    const preview = redactor.preview(body);
    expect(preview.length).toBeLessThanOrEqual(301);
    expect(preview).not.toContain(KEY.slice(0, 6));
  });

  it('handles a long base64 run without the key in linear time (finishes)', () => {
    const run = 'QUJD'.repeat(250_000);
    expect(redactor.text(run)).toBe(run);
  });
});

describe('secrets recognised by their shape, with no list', () => {
  it.each([
    ['Bearer sk-someone-elses-key', `Bearer ${REDACTED}`],
    ['authorization: Basic dXNlcjpwYXNz', `authorization: ${REDACTED}`],
    ['"Authorization": "Bearer abc.def"', `"Authorization": "${REDACTED}"`],
    ['see http://alice:pw@10.0.0.5:8000/v1', `see http://${REDACTED}@10.0.0.5:8000/v1`],
    ['https://ghp_tokenAsUser@host/x', `https://${REDACTED}@host/x`],
    ['/v1?api-key=Q1&x=1', `/v1?api-key=${REDACTED}&x=1`],
    [
      '?api_key=Q&key=K&token=T&access_token=A',
      `?api_key=${REDACTED}&key=${REDACTED}&token=${REDACTED}&access_token=${REDACTED}`,
    ],
    [
      'sig=S&signature=S2&password=P&secret=X',
      `sig=${REDACTED}&signature=${REDACTED}&password=${REDACTED}&secret=${REDACTED}`,
    ],
    ['{"api_key": "abc123", "model": "m"}', `{"api_key": "${REDACTED}", "model": "m"}`],
    ['x-api-key: k-123', `x-api-key: ${REDACTED}`],
    ['X-Amz-Signature=abcd', `X-Amz-Signature=${REDACTED}`],
  ])('%s', (text, expected) => {
    expect(redact(text)).toBe(expected);
  });
});

describe('URLs with credentials', () => {
  const url = 'http://alice:p%40ss@10.0.0.5:8000/v1?api-key=Q%2Bx&v=2';
  it('lists their secrets raw and encoded', () => {
    expect(urlCredentials(url)).toEqual(
      expect.arrayContaining(['alice', 'p%40ss', 'p@ss', 'Q+x', 'Q%2Bx', '2']),
    );
    expect(urlCredentials('not a url')).toEqual([]);
  });
  it('labels them without credentials, and prints them back with placeholders', () => {
    expect(urlLabel(url)).toBe('http://10.0.0.5:8000/v1');
    expect(urlWithPlaceholders(url)).toBe(
      'http://USER:PASSWORD@10.0.0.5:8000/v1?api-key=REDACTED&v=REDACTED',
    );
    expect(urlWithPlaceholders('sk-pasted-key')).toBe('URL');
  });
});
