import { parseTargetGuard, type Resolver } from '@erpcert/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type ErpClient } from './client.js';
import { TransportError } from './errors.js';
import { type RawServer, startRawServer } from './testing/raw-server.js';

let server: RawServer | undefined;
let client: ErpClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  server = client = undefined;
});

const ROOT = '<data register="" sequence="1" systemversion="1.0"/>';
const ok = `HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: ${ROOT.length}\r\n\r\n${ROOT}`;

/** A resolver that records each question and answers in turn from `answers` (the last one repeats). */
function resolverOf(answers: string[], asked: string[]): Resolver {
  return async (host) => {
    asked.push(host);
    const address = answers[Math.min(asked.length - 1, answers.length - 1)]!;
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
}

async function refusal(c: ErpClient): Promise<TransportError> {
  const err = await c.rest.root().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TransportError);
  return err as TransportError;
}

describe('the client with a connect guard (the hub SSRF guard at connect time)', () => {
  it('connects through the guard: a name resolving to an allowed address is reached', async () => {
    server = await startRawServer(() => ok);
    const asked: string[] = [];
    const guard = parseTargetGuard('127.0.0.1/32', resolverOf(['127.0.0.1'], asked));
    client = createClient({ baseUrl: server.url.replace('127.0.0.1', 'erp.example'), connectGuard: guard });
    await client.rest.root();
    expect(server.requests).toHaveLength(1);
    expect(asked).toEqual(['erp.example']);
  });

  it('rebinding: a name checked public before the run and private at connect time is refused, nothing sent', async () => {
    server = await startRawServer(() => ok);
    const asked: string[] = [];
    const guard = parseTargetGuard(undefined, resolverOf(['93.184.215.14', '127.0.0.1'], asked));
    await expect(guard.checkHost('erp.example')).resolves.toEqual(['93.184.215.14']);
    client = createClient({ baseUrl: server.url.replace('127.0.0.1', 'erp.example'), connectGuard: guard });
    const err = await refusal(client);
    expect(err.code).toBe('ETARGETREFUSED');
    expect(err.message).toMatch(/refused: erp\.example resolves to 127\.0\.0\.1 is loopback/);
    expect(server.connections()).toBe(0);
  });

  it.each([
    ['169.254.169.254', /169\.254\.169\.254 is link-local/],
    ['[::ffff:169.254.169.254]', /carries 169\.254\.169\.254 is link-local/],
    ['127.0.0.1', /127\.0\.0\.1 is loopback/],
  ])('an address literal %s is judged without a lookup', async (host, message) => {
    server = await startRawServer(() => ok);
    const port = new URL(server.url).port;
    client = createClient({ baseUrl: `http://${host}:${port}`, connectGuard: parseTargetGuard(undefined) });
    const err = await refusal(client);
    expect(err.code).toBe('ETARGETREFUSED');
    expect(err.message).toMatch(message);
    expect(server.connections()).toBe(0);
  });

  it('a redirect to the metadata address is an answer, never followed: no lookup or connection beyond the target', async () => {
    server = await startRawServer(
      () => 'HTTP/1.1 302 Found\r\nLocation: http://169.254.169.254/latest/meta-data/\r\nContent-Length: 0\r\n\r\n',
    );
    const asked: string[] = [];
    const guard = parseTargetGuard('127.0.0.1/32', resolverOf(['127.0.0.1'], asked));
    const judged: string[] = [];
    client = createClient({
      baseUrl: server.url.replace('127.0.0.1', 'erp.example'),
      connectGuard: {
        lookup: guard.lookup,
        refusal: (a) => {
          judged.push(a);
          return guard.refusal(a);
        },
      },
    });
    const status = await client.rest.root().then(
      (r) => r.status,
      (e: { status?: number }) => e.status,
    );
    // whatever the client makes of a 302, it went nowhere else: one question, one connection, one request
    expect(asked).toEqual(['erp.example']);
    expect(judged).toEqual([]);
    expect(server.requests.map((r) => r.target)).toEqual(['/api/1/']);
    expect(status).toBe(302);
  });
});
