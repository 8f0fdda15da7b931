import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CLICK_DEFINITIONS, type BroadcastReport } from '@herald/contracts';
import { renderRoute } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import { estimateAnswer, withAccount } from '../test/broadcast-fixtures';
import { newBroadcastCalls } from '../test/new-broadcast-harness';
import { recipient, report } from '../test/report-fixtures';
import { BroadcastReportPage, NewBroadcastPage } from '../../../test/lazy-pages';

const DESTINATION = 'https://shop.example.com/autumn?from=whatsapp';
const CLICKED_AT = '2026-01-15T10:30:00.000Z';
const at = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** Broadcast 7 with a tracked link: 5 of its 40 recipients clicked (13.2% of the 38 delivered or read). */
function tracked(overrides: Partial<BroadcastReport> = {}): BroadcastReport {
  const base = report([recipient(1, { clicked_at: CLICKED_AT }), recipient(2, { clicked_at: null })]);
  return {
    ...base,
    broadcast: { ...base.broadcast, link_destination: DESTINATION },
    clicked: 5,
    click_rate: 13.2,
    ...overrides,
  };
}

const cells = (text: string) =>
  within(screen.getByText(text).closest('tr') as HTMLElement)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
const filters = () => within(screen.getByRole('group', { name: 'Filter by outcome' }));
const reportQueries = (fetchMock: ReturnType<typeof stubFetch>) =>
  fetchMock
    .requests()
    .filter((r) => pathOf(r) === '/broadcast/7/recipients/')
    .map((r) => new URL(r.url).searchParams.toString());

beforeAll(() => Promise.all([BroadcastReportPage.preload(), NewBroadcastPage.preload()]));

describe('Delivery report: who clicked the tracked link', () => {
  it('shows the Clicked column, the click filters with counts, the click rate and where the link leads', async () => {
    stubFetch(() => json(tracked()));
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    expect(await screen.findByText('Contact 1', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Name',
      'Number',
      'Outcome',
      'Details',
      'Last Update',
      'Replied',
      'Clicked',
    ]);
    // The first click's time, as the table writes its other times; '—' for who did not click.
    expect(cells('Contact 1').at(-1)).toBe(at(CLICKED_AT));
    expect(cells('Contact 2').at(-1)).toBe('—');
    expect(
      filters()
        .getAllByRole('button')
        .map((button) => button.textContent)
        .slice(0, 5),
    ).toEqual(['All · 40', 'Replied · 0', 'Clicked · 5', 'Not clicked · 35', 'Pending · 0']);
    expect(filters().getByRole('button', { name: 'Clicked · 5' }).getAttribute('title')).toBe(
      CLICK_DEFINITIONS.clicked,
    );
    const rate = screen.getByText(/^Click rate:/);
    expect(rate.textContent).toBe('Click rate: 13.2% (5 clicked)');
    expect(rate.getAttribute('title')).toBe(CLICK_DEFINITIONS.click_rate);
    // Beside the reply rate, unchanged.
    expect(screen.getByText(/^Reply rate:/).textContent).toBe('Reply rate: 0% (0 of 38 delivered replied)');
    expect(screen.getByText(/^Tracked link leads to/).textContent).toBe(
      `Tracked link leads to ${DESTINATION}`,
    );
    expect(screen.getByRole('link', { name: DESTINATION }).getAttribute('href')).toBe(DESTINATION);
    expect(
      screen.getByRole('link', { name: 'New broadcast to those who did not click' }).getAttribute('href'),
    ).toBe('/broadcast/new?retarget=7&filter=clicked%3Dfalse');
  });

  it('says — for the click rate while nothing is delivered', async () => {
    stubFetch(() => json(tracked({ clicked: 0, click_rate: null })));
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    expect((await screen.findByText(/^Click rate:/, {}, { timeout: 5000 })).textContent).toBe(
      'Click rate: — (0 clicked)',
    );
  });

  it('asks for clicked=false under Not clicked and clicked=true under Clicked, combined with the other filters', async () => {
    // The report's answers; the New broadcast page it ends on gets its own (its templates, the estimate).
    const newBroadcast = newBroadcastCalls({
      estimate: (body) => estimateAnswer({ recipients: body.audience ? 35 : 99 }),
    });
    const fetchMock = stubFetch((request) => {
      if (pathOf(request) !== '/broadcast/7/recipients/') return newBroadcast(request);
      const clicked = new URL(request.url).searchParams.get('clicked');
      if (clicked === 'false')
        return json(tracked({ results: [recipient(2, { clicked_at: null })], count: 35, next: null }));
      if (clicked === 'true')
        return json(tracked({ results: [recipient(1, { clicked_at: CLICKED_AT })], count: 5, next: null }));
      return json(tracked());
    });
    const { router } = renderRoute('/broadcast/7', { preloadedState: withAccount });
    await screen.findByText('Contact 1', {}, { timeout: 5000 });

    fireEvent.click(filters().getByRole('button', { name: 'Not clicked · 35' }));
    await waitFor(() => expect(screen.queryByText('Contact 1')).toBeNull());
    expect(reportQueries(fetchMock).at(-1)).toBe('page=1&clicked=false');
    // The counts come back with the filtered answer (while it loads the buttons show none).
    const notClicked = await filters().findByRole('button', { name: 'Not clicked · 35' }, { timeout: 5000 });
    expect(notClicked.getAttribute('aria-pressed')).toBe('true');
    expect(filters().getByRole('button', { name: 'All · 40' }).getAttribute('aria-pressed')).toBe('false');
    // The filter is already those who did not click: one link to them, not two.
    expect(screen.queryByRole('link', { name: 'New broadcast to those who did not click' })).toBeNull();
    expect(screen.getByRole('link', { name: 'New broadcast to these recipients' }).getAttribute('href')).toBe(
      '/broadcast/new?retarget=7&filter=clicked%3Dfalse',
    );

    // Clicked takes Not clicked's place; an outcome combines with it.
    fireEvent.click(filters().getByRole('button', { name: 'Clicked · 5' }));
    await screen.findByText('Contact 1');
    expect(notClicked.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(filters().getByRole('button', { name: /^Read/ }));
    await waitFor(() => expect(reportQueries(fetchMock).at(-1)).toBe('page=1&outcome=read&clicked=true'));
    await waitFor(() =>
      expect(
        screen.getByRole('link', { name: 'New broadcast to these recipients' }).getAttribute('href'),
      ).toBe('/broadcast/new?retarget=7&filter=outcome%3Dread%26clicked%3Dtrue'),
    );
    // Pressed again, Clicked lets go; All clears everything.
    fireEvent.click(filters().getByRole('button', { name: /^Clicked/ }));
    await waitFor(() => expect(reportQueries(fetchMock).at(-1)).toBe('page=1&outcome=read'));
    // (All's page is the first one asked, answered again from the cache.)
    fireEvent.click(filters().getByRole('button', { name: /^All/ }));
    await waitFor(() =>
      expect(filters().getByRole('button', { name: /^All/ }).getAttribute('aria-pressed')).toBe('true'),
    );

    fireEvent.click(await screen.findByRole('link', { name: 'New broadcast to those who did not click' }));
    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe(
        '/broadcast/new?retarget=7&filter=clicked%3Dfalse',
      ),
    );
    // The page it opens works: New broadcast, its audience those who did not click.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'New Broadcast' }, { timeout: 5000 }),
    ).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Retarget recipients' }).textContent).toBe(
        'Recipients: 35 from broadcast "Summer launch" (Did not click)',
      ),
    );
    expect(screen.getByRole('option', { name: 'summer_sale (en_US)' })).toBeTruthy();
  }, 15_000);

  it('exports the recipients under the click filter', async () => {
    const fetchMock = stubFetch((request) =>
      pathOf(request) === '/broadcast/7/recipients/export.csv'
        ? new Response('name\r\nContact 2\r\n', {
            headers: {
              'content-type': 'text/csv; charset=utf-8',
              'content-disposition': 'attachment; filename="herald-report-7.csv"',
            },
          })
        : json(tracked()),
    );
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:report');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    await screen.findByText('Contact 1', {}, { timeout: 5000 });
    fireEvent.click(filters().getByRole('button', { name: /^Not clicked/ }));
    await waitFor(() =>
      expect(
        filters()
          .getByRole('button', { name: /^Not clicked/ })
          .getAttribute('aria-pressed'),
      ).toBe('true'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() =>
      expect(fetchMock.requests().some((r) => pathOf(r) === '/broadcast/7/recipients/export.csv')).toBe(true),
    );
    const request = fetchMock.requests().find((r) => pathOf(r) === '/broadcast/7/recipients/export.csv')!;
    expect(Object.fromEntries(new URL(request.url).searchParams)).toEqual({ clicked: 'false' });
  });

  it('shows none of it for a broadcast without a tracked link', async () => {
    stubFetch(() =>
      json(
        report([recipient(1, { clicked_at: null })], {
          broadcast: { ...report([]).broadcast, link_destination: null },
          clicked: 0,
          click_rate: null,
        }),
      ),
    );
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    await screen.findByText('Contact 1', {}, { timeout: 5000 });
    expect(screen.queryByRole('columnheader', { name: 'Clicked' })).toBeNull();
    expect(cells('Contact 1')).toHaveLength(6);
    expect(filters().queryByRole('button', { name: /click/i })).toBeNull();
    expect(screen.queryByText(/^Click rate:/)).toBeNull();
    expect(screen.queryByText(/^Tracked link leads to/)).toBeNull();
    expect(screen.queryByRole('link', { name: 'New broadcast to those who did not click' })).toBeNull();
  });
});
