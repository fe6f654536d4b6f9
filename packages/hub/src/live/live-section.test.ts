import { readFileSync } from 'node:fs';
import { type OpenApiDocument, validateJsonBody } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createHubApp } from '../api/hub-app.js';
import { HUB_OPENAPI } from '../api/openapi-document.js';
import { LIVE_SCRIPT_PATH, type LiveRunView, liveRunSection } from '../pages/live-run.js';
import { HubStore } from '../store/hub-store.js';

const view = (over: Partial<LiveRunView> = {}): LiveRunView => ({
  id: 4,
  targetId: 1,
  organisationId: 1,
  kind: 'conformance',
  settings: { kind: 'conformance', profile: 'gate', only: [] },
  state: 'running',
  parentRunId: 9,
  runId: null,
  worker: 'w',
  heartbeatAt: null,
  cancelRequested: false,
  exitCode: null,
  message: null,
  createdAt: 'x',
  startedAt: null,
  finishedAt: null,
  judged: { 'REST.VERSION.PATH': 'PASS', 'REST.A.<b>': 'FAIL' },
  ...over,
});

describe('the live section of a run page', () => {
  it('shows the state at load time, the judged rules escaped, a refresh link and the external script', () => {
    const html = liveRunSection(view(), { refreshHref: '/live-runs/4' }).text;
    expect(html).toContain('rerun of <a href="/runs/9">#9</a>');
    expect(html).toContain('<strong data-live-state="">running</strong>');
    expect(html).toContain('1 PASS, 1 FAIL');
    expect(html).toContain('<code>REST.A.&lt;b&gt;</code>');
    expect(html).toContain('<a href="/live-runs/4">Refresh</a>');
    expect(html).toContain(`<script src="${LIVE_SCRIPT_PATH}" defer></script>`);
    expect(html).toContain('data-events="/api/v1/live-runs/4/events"');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
  });

  it('an ended run needs neither refresh nor script, and links its stored run', () => {
    const html = liveRunSection(view({ state: 'interrupted', message: 'interrupted: hub restarted', runId: 12 })).text;
    expect(html).toContain('interrupted: hub restarted');
    expect(html).toContain('<a href="/runs/12">run #12</a>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('Refresh');
  });

  it('serves its script as JavaScript that follows the events with EventSource', async () => {
    const store = await HubStore.open(':memory:');
    try {
      const res = await createHubApp({ store }).request(LIVE_SCRIPT_PATH);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/javascript');
      const js = await res.text();
      expect(js).toContain('new EventSource(');
      expect(js).not.toContain('innerHTML');
      expect(() => new Function(js)).not.toThrow(); // it parses
    } finally {
      await store.close();
    }
  });
});

describe('live-run answers match hub.openapi.yaml', () => {
  const doc = parse(readFileSync(HUB_OPENAPI, 'utf8')) as OpenApiDocument;
  it.each([
    ['#/components/schemas/LiveRun', view()],
    [
      '#/components/schemas/SavedTarget',
      {
        id: 1,
        name: 'n',
        url: 'https://e',
        authKind: 'basic',
        user: null,
        password: 'set',
        compcode: 1,
        otherCompcode: null,
        usercode: null,
        unokUsercode: null,
        limitedUsercode: null,
        portalcc: null,
        portalPath: null,
        companyIn: null,
        savedAt: 'x',
      },
    ],
  ])('%s', (pointer, body) => {
    expect(validateJsonBody(doc, pointer, body).errors).toEqual([]);
    expect(validateJsonBody(doc, pointer, { ...body, id: 'not a number' }).errors).not.toEqual([]);
  });
});
