/** Spec §2: the dashboard shows hard-coded placeholder data only. */

export type Metric = { label: string; value: string; change: string; positive: boolean };

export const METRICS: readonly Metric[] = [
  { label: 'Total Messages', value: '12,458', change: '+12.5%', positive: true },
  { label: 'Delivery Rate', value: '98.2%', change: '+0.8%', positive: true },
  { label: 'Read Rate', value: '86.4%', change: '+3.1%', positive: true },
  { label: 'Response Rate', value: '42.7%', change: '-1.2%', positive: false },
  { label: 'Avg. Response Time', value: '4m 32s', change: '-18s', positive: true },
  { label: 'Failed Messages', value: '224', change: '-5.4%', positive: true },
  { label: 'Engagement Rate', value: '64.9%', change: '+2.3%', positive: true },
  { label: 'Active Contacts', value: '3,842', change: '+148', positive: true },
];

export type Activity = { broadcast: string; date: string; recipients: string; status: string };

export const RECENT_ACTIVITY: readonly Activity[] = [
  { broadcast: 'Summer Sale Announcement', date: 'Jun 12, 2025', recipients: '2,450', status: 'Completed' },
  { broadcast: 'Order Shipping Updates', date: 'Jun 10, 2025', recipients: '1,128', status: 'Completed' },
  { broadcast: 'New Arrivals Newsletter', date: 'Jun 08, 2025', recipients: '3,015', status: 'Scheduled' },
];

export const DATE_RANGE_LABEL = 'Jun 1, 2025 – Jun 30, 2025';
