import { isCalendarDate } from '@erpcert/contract';
import { formatQuantity } from '../../values/decimal.js';

/**
 * Times of an activity (ActVc): TransDate + StartTime is the start, EndDate + EndTime the end, CostTime the
 * duration in hours (a decimal with at most 2 places, like the demo data's `1`). The docs state only that
 * TransDate "calculates EndDate and CostTime" and ActResult "sets EndTime and CostTime" (portal-action-api.md
 * §2 "Field-trigger catalogue", ActVc); README "Field triggers" has the rules.
 */

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** True when the text is a time HH:MM (00:00 to 23:59). */
export function isTime(text: string): boolean {
  return TIME.test(text);
}

function minutes(date: string, time: string): number | undefined {
  if (!isCalendarDate(date) || !isTime(time)) return undefined;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return Date.UTC(y, m - 1, d) / 60_000 + hh * 60 + mm;
}

/** The end date of an activity: EndDate, unless it is empty or before TransDate (then TransDate). */
export function endDateFor(transDate: string, endDate: string): string {
  if (!isCalendarDate(transDate)) return endDate;
  return isCalendarDate(endDate) && endDate >= transDate ? endDate : transDate;
}

/** Hours from start to end (2 decimals, never negative), or undefined when a date or time is missing. */
export function costTime(transDate: string, startTime: string, endDate: string, endTime: string): string | undefined {
  const from = minutes(transDate, startTime);
  const to = minutes(endDate, endTime);
  if (from === undefined || to === undefined) return undefined;
  return formatQuantity(Math.max(0, to - from) / 60, 2);
}
