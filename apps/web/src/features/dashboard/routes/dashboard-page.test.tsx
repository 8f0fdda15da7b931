import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  CLICK_DEFINITIONS,
  DASHBOARD_CARDS,
  EXPIRED_REASON,
  DASHBOARD_CARD_KEYS,
  type DashboardCard,
  type DashboardCardKey,
  type DashboardResponse,
} from '@herald/contracts';
import { renderRoute } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import { withAccount } from '../../broadcasts/test/broadcast-fixtures';
import { DashboardPage } from '../../../test/lazy-pages';
import { addDays, defaultRange, todayIn } from '../date-range';
import { blobText } from '../../../test/bodies';

const VALUES: Record<DashboardCardKey, [number | null, number | null, number | null]> = {
  total_messages: [10, 8, 25],
  delivery_rate: [80, 100, -20],
  read_rate: [62.5, null, null],
  response_rate: [25, 50, -50],
  avg_response_time: [272, 300, -9.3],
  failed_messages: [1, 2, -50],
  engagement_rate: [37.5, 25, 50],
  active_contacts: [12, 0, null],
};

function cards(): DashboardCard[] {
  return DASHBOARD_CARD_KEYS.map((key) => ({
    key,
    ...DASHBOARD_CARDS[key],
    value: VALUES[key][0],
    previous: VALUES[key][1],
    change: VALUES[key][2],
  }));
}

function figures(overrides: Partial<DashboardResponse> = {}): DashboardResponse {
  const day = (date: string, sent: number, delivered: number, read: number, replied: number) => ({
    date,
    sent,
    delivered,
    read,
    failed: sent - delivered,
    replied,
    engaged: replied + 1,
    engagement_rate: delivered ? Math.round(((replied + 1) / delivered) * 1000) / 10 : null,
    response_rate: delivered ? Math.round((replied / delivered) * 1000) / 10 : null,
    avg_response_seconds: replied ? 272 : null,
  });
  return {
    range: { from: '2026-10-26', to: '2026-11-24', tz: 'UTC', days: 30 },
    previous_range: { from: '2026-09-26', to: '2026-10-25' },
    empty: false,
    cards: cards(),
    days: [day('2026-11-23', 6, 5, 3, 1), day('2026-11-24', 4, 3, 2, 1)],
    categories: [
      { category: 'MARKETING', sent: 7 },
      { category: 'UTILITY', sent: 3 },
    ],
    recent_activity: [
      {
        kind: 'broadcast',
        title: 'Summer launch',
        detail: 'Completed',
        at: '2026-11-24T09:00:00.000Z',
        link: '/broadcast/7',
      },
      {
        kind: 'import',
        title: 'Contacts imported',
        detail: '12 created, 0 updated',
        at: '2026-11-23T09:00:00.000Z',
        link: '/customers',
      },
    ],
    expired: { count: 0, previous: 0 },
    ...overrides,
  };
}

const header = { contacts: 12, events: [], unread: 0 };

function stub(dashboard: () => Response) {
  return stubFetch((request) => {
    const path = pathOf(request);
    if (path === '/dashboard/header') return json(header);
    if (path === '/dashboard/') return dashboard();
    return json({ detail: `unexpected ${path}` }, 404);
  });
}

const dashboardRequests = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.requests().filter((request) => pathOf(request) === '/dashboard/');

beforeAll(() => DashboardPage.preload());

describe('Dashboard', () => {
  it('asks for the last 30 days in the user’s time zone and shows the eight cards with changes and definitions', async () => {
    const fetch = stub(() => json(figures()));
    renderRoute('/dashboard', { preloadedState: withAccount });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByText('Monitor your messaging performance and engagement metrics')).toBeTruthy();
    const metrics = await screen.findByRole('list', { name: 'Metrics' });

    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const params = new URL(dashboardRequests(fetch)[0]!.url).searchParams;
    expect(params.get('tz')).toBe(tz);
    expect(params.get('to')).toBe(todayIn(tz));
    expect(params.get('from')).toBe(addDays(todayIn(tz), -29));
    expect(dashboardRequests(fetch)[0]!.headers.get('X-WABA-ID')).toBe('111');

    const items = within(metrics).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('p')?.textContent)).toEqual(
      DASHBOARD_CARD_KEYS.map((key) => DASHBOARD_CARDS[key].title),
    );
    const card = (title: string) => within(metrics).getByRole('listitem', { name: title });
    expect(card('Total Messages').textContent).toContain('10');
    expect(within(card('Total Messages')).getByTestId('metric-change').textContent).toBe(
      '▲ Up 25% vs last period',
    );
    expect(card('Delivery Rate').textContent).toContain('80%');
    expect(within(card('Delivery Rate')).getByTestId('metric-change').textContent).toBe(
      '▼ Down 20% vs last period',
    );
    // A fall in response time is good news: green, not red.
    expect(within(card('Avg. Response Time')).getByTestId('metric-change').className).toContain('emerald');
    expect(card('Avg. Response Time').textContent).toContain('4m 32s');
    // No previous figure: no change at all rather than an invented one.
    expect(within(card('Read Rate')).queryByTestId('metric-change')).toBeNull();
    // The definition describes the card (screen readers) and is its tooltip (mouse).
    const response = card('Response Rate');
    expect(response.getAttribute('title')).toBe(DASHBOARD_CARDS.response_rate.definition);
    expect(document.getElementById(response.getAttribute('aria-describedby')!)?.textContent).toBe(
      DASHBOARD_CARDS.response_rate.definition,
    );
  });

  it('draws the four charts from the same days and lists Recent Activity with links', async () => {
    stub(() => json(figures()));
    renderRoute('/dashboard', { preloadedState: withAccount });
    const summary = async (name: string) =>
      within(await screen.findByRole('figure', { name }, { timeout: 5000 })).getByTestId('chart-summary')
        .textContent;
    expect(await summary('Message Overview')).toBe('10 sent, 8 delivered, 5 read');
    expect(await summary('Message Types')).toBe('Marketing 7, Utility 3');
    expect(await summary('Engagement Rate')).toBe('4 of 8 delivered engaged');
    expect(await summary('Response Time')).toBe('2 replies, 4m 32s on average');
    // recharts drew something (an SVG surface) in each.
    for (const name of ['Message Overview', 'Message Types', 'Engagement Rate', 'Response Time'])
      expect(screen.getByRole('figure', { name }).querySelector('svg')).toBeTruthy();

    const activity = within(screen.getByRole('region', { name: 'Recent Activity' }));
    expect(activity.getByRole('link', { name: 'Summer launch' }).getAttribute('href')).toBe('/broadcast/7');
    expect(activity.getByRole('link', { name: 'Contacts imported' }).getAttribute('href')).toBe('/customers');
    expect(activity.getByText('12 created, 0 updated')).toBeTruthy();
  });

  it('shows a new account the eight cards at zero and the four charts, under a short no-data note', async () => {
    const zeroDay = (date: string) => ({
      date,
      sent: 0,
      delivered: 0,
      read: 0,
      failed: 0,
      replied: 0,
      engaged: 0,
      engagement_rate: null,
      response_rate: null,
      avg_response_seconds: null,
    });
    stub(() =>
      json(
        figures({
          empty: true,
          // Counts are zero; a rate with nothing to divide by is no figure at all.
          cards: cards().map((c) => ({
            ...c,
            value: c.unit === 'count' ? 0 : null,
            previous: c.unit === 'count' ? 0 : null,
            change: null,
          })),
          days: [zeroDay('2026-11-23'), zeroDay('2026-11-24')],
          categories: [],
          recent_activity: [],
        }),
      ),
    );
    renderRoute('/dashboard', { preloadedState: withAccount });
    const note = await screen.findByRole('region', { name: 'No data yet' }, { timeout: 5000 });
    expect(within(note).getByRole('link', { name: 'send a broadcast' }).getAttribute('href')).toBe(
      '/broadcast/new',
    );
    const metrics = within(screen.getByRole('list', { name: 'Metrics' })).getAllByRole('listitem');
    expect(metrics).toHaveLength(8);
    const value = (title: string) =>
      within(screen.getByRole('listitem', { name: title })).getByText(/^(0|—)$/).textContent;
    expect(value('Total Messages')).toBe('0');
    expect(value('Delivery Rate')).toBe('—');
    expect(screen.queryAllByTestId('metric-change')).toHaveLength(0);
    expect(screen.getAllByRole('figure').map((figure) => figure.getAttribute('aria-label'))).toEqual([
      'Message Overview',
      'Message Types',
      'Engagement Rate',
      'Response Time',
    ]);
    expect(
      within(screen.getByRole('figure', { name: 'Message Overview' })).getByTestId('chart-summary')
        .textContent,
    ).toBe('0 sent, 0 delivered, 0 read');
  });

  it('asks for the figures again each time it is opened', async () => {
    const fetch = stub(() => json(figures()));
    const { router } = renderRoute('/dashboard', { preloadedState: withAccount });
    await screen.findByRole('list', { name: 'Metrics' }, { timeout: 5000 });
    const first = dashboardRequests(fetch).length;
    await router.navigate('/terms');
    await screen.findByRole('heading', { level: 1, name: /terms/i }, { timeout: 5000 });
    await router.navigate('/dashboard');
    await screen.findByRole('list', { name: 'Metrics' }, { timeout: 5000 });
    await waitFor(() => expect(dashboardRequests(fetch).length).toBe(first + 1));
  });

  it('asks again for a chosen range, reloads on Refresh, and refuses an end before the start', async () => {
    const fetch = stub(() => json(figures()));
    renderRoute('/dashboard', { preloadedState: withAccount });
    await screen.findByRole('list', { name: 'Metrics' }, { timeout: 5000 });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-10' } });
    await waitFor(() => {
      const last = new URL(dashboardRequests(fetch).at(-1)!.url).searchParams;
      expect([last.get('from'), last.get('to')]).toEqual(['2026-11-01', '2026-11-10']);
    });
    const before = dashboardRequests(fetch).length;
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Refresh' })).toHaveProperty('disabled', false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(dashboardRequests(fetch).length).toBe(before + 1));

    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-10-01' } });
    expect(screen.getByRole('alert').textContent).toBe('The end date must not be before the start date.');
    expect(screen.getByRole('button', { name: 'Export Data' })).toHaveProperty('disabled', true);
  });

  it('downloads the CSV of the range with the session’s headers', async () => {
    const fetch = stubFetch((request) => {
      const path = pathOf(request);
      if (path === '/dashboard/header') return json(header);
      if (path === '/dashboard/export.csv')
        return new Response('date,sent\n2026-11-24,4\n', {
          headers: {
            'content-type': 'text/csv',
            'content-disposition': 'attachment; filename="herald-dashboard-a-to-b.csv"',
          },
        });
      return json(figures());
    });
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:csv');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.download} ${this.getAttribute('href')}`);
    });
    renderRoute('/dashboard', { preloadedState: withAccount });
    await screen.findByRole('list', { name: 'Metrics' }, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Export Data' }));
    await waitFor(() => expect(clicked).toEqual(['herald-dashboard-a-to-b.csv blob:csv']));
    const request = fetch.requests().find((r) => pathOf(r) === '/dashboard/export.csv')!;
    const range = defaultRange(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(new URL(request.url).searchParams.get('from')).toBe(range.from);
    expect(request.headers.get('Authorization')).toBe('Bearer test-access-token');
    expect(await blobText(created.mock.calls[0]![0] as Blob)).toBe('date,sent\n2026-11-24,4\n');
  });

  it('adds the tracked-link clicks: a Clicked line in Message Overview and a click line under Engagement Rate', async () => {
    const base = figures();
    stub(() =>
      json(
        figures({
          days: base.days.map((day, index) => ({ ...day, clicked: index + 2 })),
          clicks: { clicked: 5, previous: 4, change: 25, rate: 62.5 },
        }),
      ),
    );
    renderRoute('/dashboard', { preloadedState: withAccount });
    const overview = await screen.findByRole('figure', { name: 'Message Overview' }, { timeout: 5000 });
    expect(within(overview).getByTestId('chart-summary').textContent).toBe(
      '10 sent, 8 delivered, 5 read, 5 clicked',
    );
    expect(within(overview).getByText('Clicked')).toBeTruthy();
    const engagement = within(screen.getByRole('listitem', { name: 'Engagement Rate' }));
    const line = engagement.getByTestId('click-line');
    expect(line.textContent).toBe('Clicked: 5 · 62.5% click rate · ▲ Up 25% vs last period');
    expect(line.getAttribute('title')).toBe(CLICK_DEFINITIONS.clicked);
    // Only under Engagement Rate; the layout keeps its eight cards and four charts.
    expect(screen.getAllByTestId('click-line')).toHaveLength(1);
    expect(within(screen.getByRole('list', { name: 'Metrics' })).getAllByRole('listitem')).toHaveLength(8);
    expect(screen.getAllByRole('figure')).toHaveLength(4);
  });

  it('shows no click figures from a server that does not count them, nor when there was nothing to click', async () => {
    stub(() => json(figures({ clicks: { clicked: 0, previous: 0, change: null, rate: null } })));
    renderRoute('/dashboard', { preloadedState: withAccount });
    const overview = await screen.findByRole('figure', { name: 'Message Overview' }, { timeout: 5000 });
    expect(within(overview).getByTestId('chart-summary').textContent).toBe('10 sent, 8 delivered, 5 read');
    expect(within(overview).queryByText('Clicked')).toBeNull();
    expect(within(overview).getByText('Sent')).toBeTruthy();
    expect(screen.queryByTestId('click-line')).toBeNull();
  });

  it('says what the clicks were when some came in the previous period only', async () => {
    stub(() => json(figures({ clicks: { clicked: 0, previous: 3, change: -100, rate: 0 } })));
    renderRoute('/dashboard', { preloadedState: withAccount });
    expect((await screen.findByTestId('click-line', {}, { timeout: 5000 })).textContent).toBe(
      'Clicked: 0 · 0% click rate · ▼ Down 100% vs last period',
    );
  });

  it('says under Failed Messages how many messages expired, against the previous period', async () => {
    stub(() => json(figures({ expired: { count: 3, previous: 5 } })));
    renderRoute('/dashboard', { preloadedState: withAccount });
    const line = await screen.findByTestId('expired-line', {}, { timeout: 5000 });
    expect(line.textContent).toBe('Expired: 3 · ▼ Down 40% vs last period');
    expect(line.getAttribute('title')).toBe(EXPIRED_REASON.explanation);
    expect(
      within(screen.getByRole('listitem', { name: 'Failed Messages' })).getByTestId('expired-line'),
    ).toBe(line);
    expect(screen.getAllByTestId('expired-line')).toHaveLength(1);
  });

  it('says how many expired without a change when none did in the previous period', async () => {
    stub(() => json(figures({ expired: { count: 1_200, previous: 0 } })));
    renderRoute('/dashboard', { preloadedState: withAccount });
    expect((await screen.findByTestId('expired-line', {}, { timeout: 5000 })).textContent).toBe(
      'Expired: 1,200',
    );
  });

  it.each([
    ['none expired in the range', { count: 0, previous: 4 }],
    ['the server does not count them', undefined],
  ])('shows no expired line when %s', async (_, expired) => {
    stub(() => json(figures({ expired })));
    renderRoute('/dashboard', { preloadedState: withAccount });
    await screen.findByRole('listitem', { name: 'Failed Messages' }, { timeout: 5000 });
    expect(screen.queryByTestId('expired-line')).toBeNull();
  });

  it('says when the figures cannot be loaded', async () => {
    stub(() => json({ detail: 'Server error' }, 500));
    renderRoute('/dashboard', { preloadedState: withAccount });
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toContain(
      'The figures could not be loaded',
    );
  });
});
