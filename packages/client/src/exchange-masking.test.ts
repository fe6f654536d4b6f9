import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type ErpClient } from './client.js';
import { CURL_ENV, toCurl } from './curl.js';
import type { Exchange } from './exchange.js';
import { HarRecorder, toHar } from './har.js';
import { httpResponse, jsonResponse, type RawServer, startRawServer, xmlResponse } from './testing/raw-server.js';

const run = promisify(execFile);

const PASSWORD = 'Wonder-Land-42';
const SESSION = 'SESSION-abcdef123456';
const BEARER = 'bearer-token-XYZ987';
const CLIENT_SECRET = 'client-secret-777';
const ACCESS_TOKEN = 'access-tok-555';
const REFRESH_TOKEN = 'refresh-tok-444';
const FORM_PASSWORD = 'hunter2-xyz';
const JSON_PASSWORD = 'json-secret-99';
const SECRETS = [
  PASSWORD,
  SESSION,
  BEARER,
  CLIENT_SECRET,
  ACCESS_TOKEN,
  REFRESH_TOKEN,
  FORM_PASSWORD,
  JSON_PASSWORD,
  Buffer.from(`alice:${PASSWORD}`).toString('base64'),
  Buffer.from(`cid:${CLIENT_SECRET}`).toString('base64'),
];

const ENVELOPE = '<data register="UserVc" sequence="1" systemversion="1"></data>';

let server: RawServer | undefined;
const clients: ErpClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.close();
  server = undefined;
});

async function exerciseAllAuthModes(): Promise<Exchange[]> {
  server = await startRawServer((req) => {
    if (req.target === '/oauth-token')
      return jsonResponse({
        access_token: ACCESS_TOKEN,
        refresh_token: REFRESH_TOKEN,
        token_type: 'Bearer',
        expires_in: 600,
      });
    if (req.target === '/api/1/')
      return httpResponse({ headers: { 'Set-Cookie': `HSESSION=${SESSION}; Path=/; HttpOnly` }, body: '' });
    return xmlResponse(`${ENVELOPE}<!-- echo ${req.headers.authorization ?? ''} -->`);
  });
  const recorder = new HarRecorder();
  const session = createClient({
    baseUrl: server.url,
    auth: { user: 'alice', password: PASSWORD },
    useSession: true,
    onExchange: recorder.observe,
  });
  const bearer = createClient({ baseUrl: server.url, auth: { bearer: BEARER }, onExchange: recorder.observe });
  const oauth = createClient({
    baseUrl: server.url,
    auth: { oauth: { authUrl: server.url, clientId: 'cid', clientSecret: CLIENT_SECRET } },
    onExchange: recorder.observe,
  });
  clients.push(session, bearer, oauth);
  await session.rest.root();
  await session.rest.list('UserVc', { 'filter.Name': PASSWORD });
  await session.rest.createForm('UserVc', { Code: 'U1', Password: FORM_PASSWORD });
  await session.rest.createJson('UserVc', [{ Code: 'U2', Password: JSON_PASSWORD }]);
  await bearer.rest.list('UserVc');
  await oauth.rest.list('UserVc');
  await session.request({ method: 'GET', path: '/api/1/UserVc', query: [['password', PASSWORD]] });
  return recorder.exchanges;
}

describe('no secret survives in exchanges, curl lines or HAR', () => {
  it('masks every credential of every auth mode', async () => {
    const exchanges = await exerciseAllAuthModes();
    expect(exchanges.map((e) => `${e.api} ${e.operation}`)).toEqual([
      'rest root',
      'rest list',
      'rest createForm',
      'rest createJson',
      'rest list',
      'oauth oauth-token',
      'rest list',
      'rest request',
    ]);
    const texts = {
      exchanges: JSON.stringify(exchanges),
      curl: exchanges.map(toCurl).join('\n'),
      har: JSON.stringify(toHar(exchanges)),
    };
    for (const [where, text] of Object.entries(texts))
      for (const secret of SECRETS) expect(text.includes(secret), `${secret} in ${where}`).toBe(false);
    // and the masks are where the secrets were
    expect(texts.exchanges).toContain('HSESSION=***');
    expect(texts.exchanges).toContain('"value":"Basic ***"');
    expect(texts.exchanges).toContain('"value":"Bearer ***"');
    expect(texts.exchanges).toContain('set_field.Password=***');
    expect(texts.exchanges).toContain('\\"Password\\":\\"***\\"');
    expect(texts.exchanges).toContain('client_credentials');
  });

  it('writes curl lines that read credentials from the environment', async () => {
    const exchanges = await exerciseAllAuthModes();
    const [root, list] = exchanges;
    expect(toCurl(root!)).toContain(`-u "$${CURL_ENV.user}:$${CURL_ENV.password}"`);
    expect(toCurl(list!)).toContain(`'Cookie: HSESSION='"$${CURL_ENV.session}"''`);
    expect(toCurl(exchanges[4]!)).toContain(`"Authorization: Bearer $${CURL_ENV.token}"`);
  });

  it('replays: the curl line, with credentials put back, sends the same request', async () => {
    const exchanges = await exerciseAllAuthModes();
    const form = exchanges[2]!;
    const seen = server!.requests.length;
    await run('sh', ['-c', toCurl(form)], {
      env: { ...process.env, [CURL_ENV.session]: SESSION, [CURL_ENV.user]: 'alice', [CURL_ENV.password]: PASSWORD },
    });
    const original = server!.requests[2]!;
    const replay = server!.requests[seen]!;
    expect(replay.method).toBe('POST');
    expect(replay.target).toBe(original.target);
    expect(replay.headers.cookie).toBe(`HSESSION=${SESSION}`);
    expect(replay.headers['content-type']).toBe(original.headers['content-type']);
    // the masked form field comes back masked: the user puts the value back by hand
    expect(replay.body.toString()).toBe('set_field.Code=U1&set_field.Password=***');
  });

  it('builds a HAR 1.2 document with one entry per exchange', async () => {
    const exchanges = await exerciseAllAuthModes();
    const recorder = new HarRecorder();
    for (const e of exchanges) recorder.observe(e);
    const har = recorder.toHar();
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(exchanges.length);
    const post = har.log.entries[2]!;
    expect(post.request.method).toBe('POST');
    expect(post.request.postData).toEqual({
      mimeType: 'application/x-www-form-urlencoded',
      text: 'set_field.Code=U1&set_field.Password=***',
    });
    expect(post.response.status).toBe(200);
    expect(har.log.entries[1]!.request.queryString).toEqual([{ name: 'filter.Name', value: '***' }]);
  });
});
