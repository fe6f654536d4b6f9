import { type Exchange, encryptTriggerText } from '@erpcert/client';
import { PASSABLE_BEHAVIOURS } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import { ExchangeRecorder } from './recorder.js';
import { behavioursOf, THROUGH_BEHAVIOURS } from './through.js';

type Req = Pick<Exchange, 'request' | 'response'>;
const FORM = [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }];
const JSON_TYPE = [{ name: 'Content-Type', value: 'application/json' }];
const exchange = (method: string, url: string, body?: string, status = 200, headers = FORM): Req => ({
  request: {
    method,
    url,
    headers,
    ...(body !== undefined ? { body: { text: body, encoding: 'utf8', size: body.length } } : {}),
  } as Exchange['request'],
  response: { status, headers: [], body: { text: '', encoding: 'utf8', size: 0 } } as unknown as Exchange['response'],
});

describe('behavioursOf: what a request passed data through', () => {
  it('recognises exactly the behaviours the catalogue lets rules rely on', () => {
    expect(Object.values(THROUGH_BEHAVIOURS).sort()).toEqual([...PASSABLE_BEHAVIOURS].sort());
  });

  it.each<[string, Req, string[]]>([
    [
      'a form POST with rows',
      exchange('POST', 'http://t/api/1/IVVc?compcode=1', 'set_field.CustCode=C1&set_row_field.0.ArtCode=A'),
      ['REST.WRITE.FORM_ROW_INDEX'],
    ],
    [
      'a form POST without rows',
      exchange('POST', 'http://t/api/1/CUVc?compcode=1', 'set_field.Code=C1&set_field.Name=N'),
      [],
    ],
    [
      'a confirmed form POST with rows',
      exchange('POST', 'http://t/api/1/IVVc', 'set_field.OKFlag=1&set_row_field.0.ArtCode=A'),
      ['REST.WRITE.FORM_ROW_INDEX', 'REST.STATE.OKFLAG_CONFIRM_ON_POST'],
    ],
    [
      'a PATCH of a row',
      exchange('PATCH', 'http://t/api/1/IVVc/12', 'set_row_field.1.Quant=2'),
      ['REST.WRITE.FORM_ROW_INDEX'],
    ],
    [
      'a JSON POST (rows are no set_row_field)',
      exchange('POST', 'http://t/api/1/IVVc', '{"set_row_field.0.x":1}', 200, [
        { name: 'Content-Type', value: 'application/json' },
      ]),
      [],
    ],
    [
      'a read by filter',
      exchange('GET', 'http://t/api/1/IVVc?filter.SerNr=12&compcode=1'),
      ['REST.QUERY.FILTER_EXACT'],
    ],
    ['a read without filter', exchange('GET', 'http://t/api/1/IVVc?limit=5'), []],
    [
      'a range read on the sort field',
      exchange('GET', 'http://t/api/1/IVVc?sort=SerNr&range=10:20&compcode=1'),
      ['REST.QUERY.SORT_ASCENDING'],
    ],
    ['a sorted read without range', exchange('GET', 'http://t/api/1/IVVc?sort=SerNr'), []],
    [
      'an unokrecord the target accepted',
      exchange('GET', 'http://t/WebErpAPI.hal?action=action&register=unokrecord&regname=IVVc&id=1'),
      ['PORTAL.UNOK.TO_DRAFT'],
    ],
    [
      'an unokrecord refused with HTTP 400',
      exchange('GET', 'http://t/WebErpAPI.hal?action=action&register=unokrecord&regname=IVVc&id=1', undefined, 400),
      [],
    ],
    [
      'a row field trigger (rowindex 0)',
      exchange(
        'POST',
        'http://t/WebErpAPI.hal?action=windowactions',
        '{"vcname":"IVVc","fieldname":"Quant","rowindex":0}',
        200,
        JSON_TYPE,
      ),
      ['PORTAL.TRIGGER.ROWINDEX'],
    ],
    [
      'an encrypted row field trigger',
      exchange(
        'POST',
        'http://t/WebErpAPI.hal?action=windowactions&encrypted=true',
        encryptTriggerText('{"vcname":"IVVc","fieldname":"Quant","rowindex":2}'),
        200,
        [{ name: 'Content-Type', value: 'text/plain' }],
      ),
      ['PORTAL.TRIGGER.ROWINDEX'],
    ],
    [
      'a header field trigger (rowindex -1)',
      exchange(
        'POST',
        'http://t/WebErpAPI.hal?action=windowactions',
        '{"vcname":"IVVc","fieldname":"CustCode","rowindex":-1}',
        200,
        JSON_TYPE,
      ),
      [],
    ],
    [
      'a trigger without rowindex (the default, -1)',
      exchange(
        'POST',
        'http://t/WebErpAPI.hal?action=windowactions',
        '{"vcname":"IVVc","fieldname":"__new"}',
        200,
        JSON_TYPE,
      ),
      [],
    ],
    ['another portal action', exchange('GET', 'http://t/WebErpAPI.hal?action=deleterow&register=IVVc&id=1:1'), []],
  ])('%s', (_what, e, want) => {
    expect(behavioursOf(e).sort()).toEqual(want.sort());
  });

  it('the recorder keeps them per test and per run', () => {
    const rec = new ExchangeRecorder();
    rec.beginTest();
    rec.observe({ ...exchange('GET', 'http://t/api/1/IVVc?filter.SerNr=1'), api: 'rest' } as unknown as Exchange);
    rec.beginRun();
    rec.observe({
      ...exchange('POST', 'http://t/api/1/IVVc', 'set_row_field.0.Spec=x'),
      api: 'rest',
    } as unknown as Exchange);
    expect(rec.runThrough()).toEqual(['REST.WRITE.FORM_ROW_INDEX']);
    expect(rec.testThrough()).toEqual(['REST.QUERY.FILTER_EXACT', 'REST.WRITE.FORM_ROW_INDEX']);
    rec.beginTest();
    expect(rec.testThrough()).toEqual([]);
  });
});
