import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, portalOutcome } from './cleanup.js';
import type { TargetConnection } from './target-http.js';

/** A fake target: portal delete and REST list/PATCH answers chosen per record key. */
const seen: string[] = [];
const unconfirmed = new Set<string>();
let server: Server;
let conn: TargetConnection;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push(
        `${req.method} ${url.pathname}${url.search}${body ? ` ${body}` : ''} ${req.headers.authorization ?? ''}`,
      );
      if (url.pathname === '/WebErpAPI.hal' && url.searchParams.get('register') === 'unokrecord') {
        const id = url.searchParams.get('id');
        if (id === '4') unconfirmed.add(id);
        res.end(`<data><res errstr="${id === '4' ? '' : 'no un-confirm permission'}"/></data>`);
        return;
      }
      if (url.pathname === '/WebErpAPI.hal') {
        const id = url.searchParams.get('id');
        if (id === '4') {
          res.end(`<data><res errstr="${unconfirmed.has(id) ? '' : 'Record is locked'}"/></data>`);
          return;
        }
        const errstr = id === '1' ? '' : id === '2' ? 'Record is locked' : 'no such record';
        res.end(`<?xml version="1.0"?><data><res errstr="${errstr}"/></data>`);
        return;
      }
      if (req.method === 'PATCH') {
        res.end(url.pathname.endsWith('/EC1') ? '<data/>' : '<error code="1" description="Closed is read-only"/>');
        return;
      }
      // list read with filter.<key>: records 2, EC2 and EC3 still exist
      const key = [...url.searchParams].find(([k]) => k.startsWith('filter.'))?.[1];
      const register = url.pathname.split('/')[3]!;
      const records = ['2', 'EC2', 'EC3'].includes(key ?? '') ? [{ '@register': register }] : [];
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: { '@register': register, [register]: records } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  conn = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    user: 'erpcert',
    password: 'pw',
    compcode: 1,
    companyIn: 'query',
    portalPath: '/WebErpAPI.hal',
    timeoutMs: 5000,
  };
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

describe('portalOutcome (portal-action-api.md §7)', () => {
  it.each([
    [200, '<data><res errstr=""/></data>', { ok: true }],
    [200, '<data><res errstr="Record is locked"/></data>', { ok: false, why: 'Record is locked' }],
    [200, '<error code="5" description="a &amp; b"/><data/>', { ok: false, why: 'a & b' }],
    [500, '<data><res errstr=""/></data>', { ok: false, why: 'HTTP 500' }],
    [200, 'plain text', { ok: false, why: 'HTTP 200 without a <res> result' }],
  ])('%i %s', (status, body, want) => {
    expect(portalOutcome(status, body)).toEqual(want);
  });
});

describe('cleanUp', () => {
  it('deletes, closes, counts what is gone, and lists the residue, newest first', async () => {
    seen.length = 0;
    const lines: string[] = [];
    const report = await cleanUp(
      conn,
      [
        { register: 'IVVc', key: '1' },
        { register: 'IVVc', key: '2', company: 2 },
        { register: 'ORVc', key: '3' },
        { register: 'INVc', key: 'EC1' },
        { register: 'PDVc', key: 'EC2' },
        { register: 'UserVc', key: 'EC3' },
      ],
      { log: (l) => lines.push(l) },
    );
    expect(report).toEqual({
      ledgerEntries: 6,
      deleted: 1,
      alreadyGone: 1,
      residue: [
        { register: 'IVVc', key: '2', company: 2, status: 'left', reason: 'portal delete: Record is locked' },
        { register: 'INVc', key: 'EC1', status: 'closed', reason: 'no documented delete; closed with Terminated=1' },
        {
          register: 'PDVc',
          key: 'EC2',
          status: 'left',
          reason: 'no documented delete for PDVc and no field that closes it',
        },
        { register: 'UserVc', key: 'EC3', status: 'left', reason: 'close with Closed=1: Closed is read-only' },
      ],
    });
    const auth = `Basic ${Buffer.from('erpcert:pw').toString('base64')}`;
    expect(seen[0]).toBe(`PATCH /api/1/UserVc/EC3?compcode=1 set_field.Closed=1 ${auth}`);
    expect(seen).toContain(`GET /WebErpAPI.hal?action=delete&register=IVVc&id=2&compno=2 ${auth}`);
    expect(seen).toContain(`GET /api/1/IVVc?compcode=2&filter.SerNr=2 ${auth}`);
    expect(lines.at(-1)).toBe('deleted IVVc 1');
  });

  it('with an un-confirm user code: a locked IVVc goes back to draft with unokrecord and is deleted', async () => {
    seen.length = 0;
    const report = await cleanUp(
      conn,
      [
        { register: 'IVVc', key: '4' },
        { register: 'IVVc', key: '2' },
      ],
      { unokUsercode: 'ACC' },
    );
    expect(report.deleted).toBe(1);
    expect(report.residue).toEqual([
      {
        register: 'IVVc',
        key: '2',
        status: 'left',
        reason: 'portal delete: Record is locked; unokrecord: no un-confirm permission',
      },
    ]);
    expect(seen.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual([
      'GET /WebErpAPI.hal?action=delete&register=IVVc&id=2&compno=1',
      'GET /WebErpAPI.hal?action=action&register=unokrecord&regname=IVVc&id=2&usercode=ACC&compno=1',
      'GET /api/1/IVVc?compcode=1&filter.SerNr=2',
      'GET /WebErpAPI.hal?action=delete&register=IVVc&id=4&compno=1',
      'GET /WebErpAPI.hal?action=action&register=unokrecord&regname=IVVc&id=4&usercode=ACC&compno=1',
      'GET /WebErpAPI.hal?action=delete&register=IVVc&id=4&compno=1',
    ]);
  });

  it('a permanent entry is residue with its reason, and no request is sent for it', async () => {
    seen.length = 0;
    const why = 'the documented API cannot remove a callback registration';
    const report = await cleanUp(conn, [
      { register: 'IVVc', key: '1' },
      { register: 'registerapi', key: 'c0ffee', permanent: why },
    ]);
    expect(report).toMatchObject({ ledgerEntries: 2, deleted: 1, alreadyGone: 0 });
    expect(report.residue).toEqual([
      { register: 'registerapi', key: 'c0ffee', permanent: why, status: 'left', reason: why },
    ]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain('id=1');
  });

  it('places the company in the path when asked', async () => {
    seen.length = 0;
    await cleanUp({ ...conn, companyIn: 'path' }, [{ register: 'INVc', key: 'EC1', company: 3 }]);
    expect(seen[0]).toMatch(/^PATCH \/api\/3\/INVc\/EC1 set_field.Terminated=1 /);
  });

  it('an unreachable target leaves everything as residue with the reason, without hanging', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r)); // a port nobody listens on
    const dead = { ...conn, url: `http://127.0.0.1:${port}`, timeoutMs: 2000 };
    const report = await cleanUp(dead, [
      { register: 'IVVc', key: '1' },
      { register: 'PDVc', key: 'X' },
    ]);
    expect(report.deleted).toBe(0);
    expect(report.residue.map((r) => [r.key, r.status])).toEqual([
      ['1', 'left'],
      ['X', 'left'],
    ]);
    expect(report.residue[0]!.reason).toMatch(/^cleanup stopped, the target stopped answering: .*ECONNREFUSED/);
  });
});
