import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './errors.js';

/** Reads and parses a JSON body, refusing bodies over `limit` bytes before buffering them. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    throw new HttpError({
      status: 413,
      message: `the request body is over ${limit} bytes`,
      errorCode: 'body_too_large',
    });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit)
      throw new HttpError({
        status: 413,
        message: `the request body is over ${limit} bytes`,
        errorCode: 'body_too_large',
      });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError({
      status: 400,
      message: 'the request body is not valid JSON',
      errorCode: 'invalid_json',
    });
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: HttpError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, error.status, error.toJSON(), error.headers);
}
