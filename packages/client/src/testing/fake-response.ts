import type { RawResponse } from '../http-core.js';

/** A RawResponse without a network, for decoder tests. */
export function fakeResponse(
  body: string | Buffer,
  init: { status?: number; contentType?: string; headers?: Record<string, string> } = {},
): RawResponse {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const contentType = init.contentType ?? 'text/xml; charset=utf-8';
  const headers: Record<string, string> = { 'content-type': contentType, ...init.headers };
  return {
    status: init.status ?? 200,
    statusText: '',
    httpVersion: 'HTTP/1.1',
    headers,
    rawHeaders: Object.entries(headers).map(([name, value]) => ({ name, value })),
    bytes,
    text: bytes.toString('utf8'),
    charset: 'utf-8',
    mimeType: contentType.split(';')[0]!.trim(),
    exchange: {
      id: 1,
      api: 'portal',
      operation: 'test',
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 0,
      request: { method: 'GET', url: 'http://127.0.0.1/WebErpAPI.hal', headers: [] },
    },
    header: (name: string) => headers[name.toLowerCase()],
  };
}
