import { describe, expect, it } from 'vitest';
import { portalSuccessKind } from './portal-success-kind.js';

describe('portalSuccessKind', () => {
  it.each([
    ['action=login', 'portal-login'],
    ['action=delete&register=IVVc', 'portal-result'],
    ['action=pastespecial&register=INVc', 'portal-lookup'],
    ['action=action&register=checkapprovalstatus', 'portal-approval'],
    ['action=action&register=createslinvoicefromorder', 'portal-conversion-result'],
    ['register=IVVc&page=1', 'portal-list'],
    ['register=ARVc', 'portal-arap-list'],
    ['action=activeeditfields', undefined],
    ['action=action&register=getactivitydata', undefined],
  ])('%s -> %s', (query, kind) => {
    expect(portalSuccessKind(new URLSearchParams(query))).toBe(kind);
  });
});
