import type { Socket } from 'node:net';
import type { AppResponse } from '../http/types.js';

/**
 * Writes a response the way rough real servers do (DESIGN.md "What real deployments do"), straight
 * to the socket: a status line without a reason phrase (`HTTP/1.1 200`), both `Content-Length` and
 * `Transfer-Encoding: chunked` (the body is chunked; Content-Length is its byte length), and
 * `Connection: close` (the socket closes after each response). Bodies without content (HEAD, 204,
 * 304) get neither header.
 */
export function quirkyResponseBytes(res: AppResponse, head: boolean): Buffer {
  let out = `HTTP/1.1 ${res.status}\r\n`;
  for (const [name, value] of Object.entries(res.headers)) {
    if (name.toLowerCase() === 'content-length' || name.toLowerCase() === 'connection') continue;
    for (const v of Array.isArray(value) ? value : [value]) out += `${name}: ${v}\r\n`;
  }
  const bodyless = head || res.status === 204 || res.status === 304 || res.status < 200;
  if (bodyless) return Buffer.from(`${out}Connection: close\r\n\r\n`, 'latin1');
  out += `Content-Length: ${res.body.length}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
  const parts: Buffer[] = [Buffer.from(out, 'latin1')];
  if (res.body.length > 0)
    parts.push(Buffer.from(`${res.body.length.toString(16)}\r\n`), res.body, Buffer.from('\r\n'));
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** Sends a quirky response and closes the connection. */
export function writeQuirky(socket: Socket, res: AppResponse, head: boolean): void {
  socket.end(quirkyResponseBytes(res, head));
}
