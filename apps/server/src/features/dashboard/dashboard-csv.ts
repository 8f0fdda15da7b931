import { DASHBOARD_CSV_COLUMNS, type DashboardDay } from '@herald/contracts';
import { rate } from './dashboard-service';

/** The export's CSV: a header line and one line per local day; rates empty when there is nothing to divide by. */
export function dashboardCsv(days: DashboardDay[]): string {
  const lines = days.map((d) => {
    const row: Record<(typeof DASHBOARD_CSV_COLUMNS)[number], string | number | null> = {
      date: d.date,
      sent: d.sent,
      delivered: d.delivered,
      read: d.read,
      failed: d.failed,
      replied: d.replied,
      engaged: d.engaged,
      delivery_rate: rate(d.delivered, d.sent),
      read_rate: rate(d.read, d.delivered),
      response_rate: d.response_rate,
      engagement_rate: d.engagement_rate,
      avg_response_seconds: d.avg_response_seconds,
      clicked: d.clicked ?? 0,
    };
    return DASHBOARD_CSV_COLUMNS.map((c) => row[c] ?? '').join(',');
  });
  return `${[DASHBOARD_CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}
