/** The browser's time zone, which every time New broadcast shows and schedules is in ('Europe/London'). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The local offset from UTC at `at` as 'UTC+01:00' / 'UTC-05:30' (summer time moves it, so it is per date). */
export function utcOffsetLabel(at: Date): string {
  const minutes = -at.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `UTC${sign}${hh}:${mm}`;
}

/** 'Europe/London (UTC+00:00)': the zone and its offset at `at`. */
export function timeZoneLabel(at: Date): string {
  return `${localTimeZone()} (${utcOffsetLabel(at)})`;
}
