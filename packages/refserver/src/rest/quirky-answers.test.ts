import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../app-types.js';
import { loadFixture } from '../testing/fixtures.js';
import { call, testApp } from '../testing/test-client.js';

// issue 10 part 4: what --quirks reproduces of the JSON answers and form bodies of live servers
let app: App;
beforeEach(() => {
  app = testApp({ quirks: true });
  loadFixture(app.store);
});
afterEach(() => app.close());

const JSON_UTF8 = { accept: 'application/json; charset=UTF-8' };
const formUtf8 = (body: string) => ({
  body,
  headers: { ...JSON_UTF8, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
});

describe('form bodies', () => {
  it('store a + as a plus sign; %20 is a space', async () => {
    await call(app, 'PATCH', '/api/1/CUVc/C1', formUtf8('set_field.Name=A+B%20C'));
    expect(app.store.get('CUVc', 1, ['C1'])!.fields.Name).toBe('A+B C');
  });

  it('without --quirks a + is a space', async () => {
    const plain = testApp();
    loadFixture(plain.store);
    await call(plain, 'PATCH', '/api/1/CUVc/C1', formUtf8('set_field.Name=A+B%20C'));
    expect(plain.store.get('CUVc', 1, ['C1'])!.fields.Name).toBe('A B C');
    plain.close();
  });
});

describe('JSON PATCH answers: as is, an unkeyed object literal, cut before the last brace, in turn', () => {
  it('write every time, whatever the answer', async () => {
    const texts: string[] = [];
    for (const name of ['N0', 'N1', 'N2', 'N3']) {
      const res = await call(app, 'PATCH', '/api/1/CUVc/C1', formUtf8(`set_field.Name=${name}`));
      expect(res.status).toBe(200);
      texts.push(res.text);
      expect(app.store.get('CUVc', 1, ['C1'])!.fields.Name).toBe(name);
    }
    expect(JSON.parse(texts[0]!).data.CUVc[0].Name).toBe('N0');
    expect(() => JSON.parse(texts[1]!)).toThrow();
    expect(texts[1]).toMatch(/"@systemversion":"[^"]*",\{"@register":"CUVc"/);
    expect(texts[1]).not.toContain('"CUVc":[');
    expect(() => JSON.parse(texts[2]!)).toThrow();
    expect(JSON.parse(`${texts[2]}}`).data.CUVc[0].Name).toBe('N2');
    expect(JSON.parse(texts[3]!).data.CUVc[0].Name).toBe('N3');
  });

  it('XML PATCH answers stay well-formed', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await call(app, 'PATCH', '/api/1/CUVc/C1', { form: [['set_field.Name', `X${i}`]] });
      expect(res.text).toMatch(/<\/data>\n$/);
    }
  });
});

describe('JSON PATCH errors nested inside data, every other one cut short', () => {
  it('{"data": {"messages": [...], "error": {"@code", "@field"}}}', async () => {
    const bodies: string[] = [];
    for (let i = 0; i < 2; i++)
      bodies.push((await call(app, 'PATCH', '/api/1/CUVc/C1', formUtf8('set_field.NoSuch=1'))).text);
    expect(JSON.parse(bodies[0]!)).toEqual({
      data: {
        messages: ['unknown field in CUVc: NoSuch; CUVc has no rows'],
        error: { '@code': '2001', '@field': 'NoSuch' },
      },
    });
    expect(bodies[1]).toBe(
      '{"data":{"messages":["unknown field in CUVc: NoSuch; CUVc has no rows"],"error":{"@code":"2001",',
    );
  });
});

describe('JSON errors with HTTP 200 carry a top-level messages array', () => {
  it('on a create', async () => {
    const res = await call(app, 'POST', '/api/1/IVVc', formUtf8('set_field.CustCode=NOPE'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({
      error: { '@code': '2006', '@description': 'CustCode NOPE: no such contact', '@row': '-1', '@field': 'CustCode' },
      messages: ['CustCode NOPE: no such contact'],
    });
  });
});
