/** Days of each month in a common year. */
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** True when `year` is a leap year of the proleptic Gregorian calendar. */
function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * Is `text` a real calendar day written `YYYY-MM-DD` (RFC 3339 `full-date`: a four-digit year 0000 to 9999,
 * month 01 to 12, a day the month has in that year, the proleptic Gregorian calendar)? Computed from the digits,
 * not through `Date`, which reads years 0 to 99 as 1900 to 1999 in `Date.UTC`.
 */
export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const last = month === 2 && isLeapYear(year) ? 29 : DAYS[month - 1]!;
  return day <= last;
}
