import { describe, expect, it } from 'vitest';
import { UsageError } from '../options.js';
import { loadSettings, parseBatchSizes, parseScenarios } from './load-settings.js';

const now = new Date('2026-01-02T03:04:05Z');

describe('loadSettings', () => {
  it('defaults: all scenarios, 10 s, embedded server with 10,000 journal entries, reads paced at 1 s', () => {
    const s = loadSettings({}, '/work', now);
    expect(s.scenarios).toEqual(['invoices', 'transactions', 'read-raw', 'read-fields', 'sync', 'portal-mix']);
    expect(s).toMatchObject({ durationSeconds: 10, seedSize: 10_000, pauseMs: 1000, batchSizes: [1000, 5000] });
    expect(s.outDir).toBe('/work/reports/load/2026-01-02T03-04-05Z');
    expect(s.engine).toBeUndefined();
    expect(s.saturation).toBeUndefined();
    // saturation steps: no fixed multiple of the documented rate, a high top the target or generator stops first
    expect(s).toMatchObject({ maxRate: 100_000, saturationStages: 20, saturationStageSeconds: 2 });
  });

  it('--max-rate sets the top of the saturation steps, 1 to 1,000,000', () => {
    expect(loadSettings({ 'max-rate': 40 }, '/w', now).maxRate).toBe(40);
    expect(() => loadSettings({ 'max-rate': 0 }, '/w', now)).toThrow('--max-rate must be 1 to 1000000, got 0');
  });

  it('reads the flags', () => {
    const s = loadSettings(
      {
        target: 'https://erp.example.com/',
        scenario: 'invoices,sync',
        duration: 3,
        rate: 7,
        'no-x': 1,
        saturation: false,
      },
      '/w',
      now,
    );
    expect(s).toMatchObject({
      target: 'https://erp.example.com',
      scenarios: ['invoices', 'sync'],
      durationSeconds: 3,
      rate: 7,
    });
    expect(s.saturation).toBe(false);
  });

  it.each([
    [{ target: 'erp.example.com' }, '--target must be a URL'],
    [{ target: 'https://u:p@erp.example.com' }, 'not in the --target URL'],
    [{ scenario: 'invoice' }, '--scenario must be all or one of'],
    [{ duration: 0 }, '--duration must be 1 to 3600'],
    [{ duration: 7200 }, '--duration must be 1 to 3600'],
    [{ target: 'http://x', 'seed-size': 5 }, 'does not apply with --target'],
    [{ batch: '500' }, '--batch must be batch sizes of 1000 to 5000'],
    [{ 'read-pause': -1 }, '--read-pause'],
    [
      { target: 'http://x', 'target-guard': '169.254.0.0/16' },
      '--target-guard entry "169.254.0.0/16" overlaps 169.254.0.0/16, link-local',
    ],
    [{ target: 'http://x', 'target-guard': '10.0.0.0/40' }, '--target-guard entry "10.0.0.0/40" is not an address'],
  ])('refuses %j', (values, message) => {
    expect(() => loadSettings(values, '/w', now)).toThrow(UsageError);
    expect(() => loadSettings(values, '/w', now)).toThrow(message);
  });

  it("--target-guard (the hub's SSRF allow-list) is parsed with --target; the embedded server needs none", () => {
    const s = loadSettings({ target: 'http://erp.example.com', 'target-guard': '10.0.0.0/8' }, '/w', now);
    expect(s.targetGuard?.spec).toBe('10.0.0.0/8');
    expect(s.targetGuard?.guard.refusal('10.1.2.3')).toBeUndefined();
    expect(s.targetGuard?.guard.refusal('127.0.0.1')).toMatch(/loopback/);
    expect(loadSettings({ 'target-guard': 'none' }, '/w', now).targetGuard).toBeUndefined();
  });

  it('parses scenario lists and batch sizes', () => {
    expect(parseScenarios('read-raw, read-fields,read-raw')).toEqual(['read-raw', 'read-fields']);
    expect(parseBatchSizes('1000,2500,5000')).toEqual([1000, 2500, 5000]);
  });
});
