/**
 * Public holidays of the two payroll countries (portalcc est and lat), for getemptimeplan (README "Employee
 * portal"). Fixed dates plus the Easter-based ones; moved holidays (a Latvian holiday on a weekend moves to
 * Monday) are not modelled.
 */

/** Easter Sunday of a year (anonymous Gregorian algorithm, Meeus/Jones/Butcher) as YYYY-MM-DD. */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const shift = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const FIXED: Readonly<Record<'est' | 'lat', readonly string[]>> = {
  est: ['01-01', '02-24', '05-01', '06-23', '06-24', '08-20', '12-24', '12-25', '12-26'],
  lat: ['01-01', '05-01', '05-04', '06-23', '06-24', '11-18', '12-24', '12-25', '12-26', '12-31'],
};

/** The public holidays of a country in a year, sorted. */
export function publicHolidays(country: 'est' | 'lat', year: number): string[] {
  const easter = easterSunday(year);
  const moving =
    country === 'est'
      ? [shift(easter, -2), easter, shift(easter, 49)] // Good Friday, Easter Sunday, Pentecost
      : [shift(easter, -2), easter, shift(easter, 1)]; // Good Friday, Easter Sunday, Easter Monday
  return [...FIXED[country].map((md) => `${year}-${md}`), ...moving].sort();
}
