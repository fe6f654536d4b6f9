/**
 * The one calendar-date check's cases: those of every former copy (refserver portal/params.ts isIsoDate, cli
 * known-deviations-file.ts isDay, refserver triggers/validators.ts birth dates of personal codes).
 */
import { describe, expect, it } from 'vitest';
import { isCalendarDate } from './calendar-date.js';

describe('isCalendarDate', () => {
  it.each<[string, boolean]>([
    ['2027-01-31', true],
    ['2028-02-29', true],
    ['2000-02-29', true],
    ['2024-12-31', true],
    ['1899-03-01', true],
    ['0050-06-15', true],
    ['0000-01-01', true],
    ['9999-12-31', true],
    ['2027-02-29', false],
    ['1900-02-29', false],
    ['2027-04-31', false],
    ['2027-13-01', false],
    ['2027-00-10', false],
    ['2027-01-00', false],
    ['2027-01-32', false],
    ['27-01-01', false],
    ['2027-1-1', false],
    ['2027-01-01T00:00:00Z', false],
    [' 2027-01-01', false],
    ['2027/01/01', false],
    ['', false],
    ['２０２７-01-01', false],
  ])('%j -> %s', (given, want) => {
    expect(isCalendarDate(given)).toBe(want);
  });

  it('agrees with the calendar of Date for every day of four years around a leap year', () => {
    const start = Date.UTC(2023, 0, 1);
    for (let day = 0; day < 4 * 366; day++) {
      const text = new Date(start + day * 86_400_000).toISOString().slice(0, 10);
      expect(isCalendarDate(text)).toBe(true);
    }
  });
});
