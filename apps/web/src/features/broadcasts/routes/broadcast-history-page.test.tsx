import { describe, expect, it, vi, beforeAll } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import { listPage, row, totals, withAccount } from '../test/broadcast-fixtures';
import { BroadcastHistoryPage } from '../../../test/lazy-pages';
import { blobText } from '../../../test/bodies';

function listRequests(fetchMock: ReturnType<typeof stubFetch>) {
  return fetchMock
    .requests()
    .filter((r) => pathOf(r) === '/broadcast/create/' && r.method === 'GET')
    .map((r) => new URL(r.url).searchParams);
}

const cellTexts = (name: string) =>
  within(screen.getByText(name).closest('tr') as HTMLElement)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

const card = (name: string) => within(screen.getByRole('listitem', { name }));

// The pages are lazy: load their code before the tests' timers start (a busy machine takes seconds).
beforeAll(() => Promise.all([BroadcastHistoryPage.preload()]));

describe('Broadcast history', () => {
  it('has the header, Watch Tutorial (the broadcasts guide) and the New Broadcast link', async () => {
    stubFetch(() => json(listPage([])));
    renderRoute('/broadcast', { preloadedState: withAccount });
    expect(screen.getByRole('heading', { level: 1, name: 'Broadcast History' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New Broadcast' }).getAttribute('href')).toBe('/broadcast/new');
    fireEvent.click(screen.getByRole('button', { name: 'Watch Tutorial' }));
    expect(await screen.findByRole('dialog', { name: 'How broadcasts work' })).toBeTruthy();
    expect(await screen.findByText('No data available')).toBeTruthy();
  });

  it('applies the date range to the list and the cards in the user’s time zone, back at page 1', async () => {
    const fetchMock = stubFetch((request) =>
      json(
        new URL(request.url).searchParams.get('from')
          ? listPage([row(3, { name: 'In January' })], 1)
          : listPage([row(1, { name: 'Any time' })], 25),
      ),
    );
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('Any time');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(listRequests(fetchMock).at(-1)?.get('page')).toBe('2'));
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(screen.getByText(`Scheduled dates in ${tz}`)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-01-31' } });
    // Typing alone does not filter: 'Apply now' does.
    expect(listRequests(fetchMock).at(-1)?.get('from')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Apply now' }));
    await screen.findByText('In January');
    const applied = listRequests(fetchMock).at(-1)!;
    expect(Object.fromEntries(applied)).toEqual({
      page: '1',
      sort: 'latest',
      from: '2026-01-01',
      to: '2026-01-31',
      tz,
    });
    expect(screen.queryByText('Any time')).toBeNull();

    // A range that ends before it starts is not sent.
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-02-10' } });
    expect(screen.getByRole('alert').textContent).toBe('The To date must not be before the From date.');
    expect((screen.getByRole('button', { name: 'Apply now' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('exports the filtered list (dates, search, sort) as the server’s CSV file', async () => {
    const fetchMock = stubFetch((request) =>
      pathOf(request) === '/broadcast/export.csv'
        ? new Response('\uFEFFid,name\r\n3,In January\r\n', {
            headers: {
              'content-type': 'text/csv; charset=utf-8',
              'content-disposition': 'attachment; filename="herald-broadcasts-2026-01-01-to-2026-01-31.csv"',
            },
          })
        : json(listPage([row(3, { name: 'In January' })])),
    );
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:history');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.download} ${this.getAttribute('href')}`);
    });
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('In January');
    fireEvent.change(screen.getByLabelText('Sorted by'), { target: { value: 'oldest' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-01-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() =>
      expect(clicked).toEqual(['herald-broadcasts-2026-01-01-to-2026-01-31.csv blob:history']),
    );
    const request = fetchMock.requests().find((r) => pathOf(r) === '/broadcast/export.csv')!;
    expect(Object.fromEntries(new URL(request.url).searchParams)).toEqual({
      sort: 'oldest',
      from: '2026-01-01',
      to: '2026-01-31',
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(request.headers.get('Authorization')).toBe('Bearer test-access-token');
    expect(await blobText(created.mock.calls[0]![0] as Blob)).toContain('3,In January');
    // Export applies the range too, so the file and the list agree.
    await waitFor(() => expect(listRequests(fetchMock).at(-1)?.get('from')).toBe('2026-01-01'));
  });

  it('says when the export fails, in the server’s words', async () => {
    const error = vi.spyOn(toast, 'error');
    stubFetch((request) =>
      pathOf(request) === '/broadcast/export.csv'
        ? json({ detail: 'tz is a time zone the database does not know' }, 400)
        : json(listPage([])),
    );
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('No data available');
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith(
        'Could not export the broadcasts: tz is a time zone the database does not know',
      ),
    );
  });

  it('counts messages handed to WhatsApp apart from sent, and says so instead of Paused when nothing is held back', async () => {
    stubFetch(() =>
      json(
        listPage(
          [
            row(1, {
              name: 'All with WhatsApp',
              status: 'paused',
              all_handed: true,
              sent_percentage: 40,
              handed_percentage: 60,
            }),
            row(2, { name: 'Really paused', status: 'paused', all_handed: false, sent_percentage: 10 }),
          ],
          2,
        ),
        200,
      ),
    );
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('All with WhatsApp');
    const handed = cellTexts('All with WhatsApp');
    expect(handed[4]).toBe('40%+60% handed to WhatsApp');
    expect(handed[10]).toBe(
      'All handed to WhatsAppPaused after every message had reached WhatsApp: nothing is held back.',
    );
    expect(cellTexts('Really paused')[10]).toBe('Paused');
    expect(cellTexts('Really paused')[4]).toBe('10%');
  });

  it('keeps a scheduled broadcast’s recipients out of the percentages and counts handed messages under Sent', async () => {
    stubFetch(() =>
      json({
        ...listPage([]),
        totals: { ...totals, recipients: 1000, scheduled_recipients: 500, sent: 600, handed: 150 },
      }),
    );
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('No data available');
    expect(card('Total Recipients').getByText('1,000')).toBeTruthy();
    expect(card('Total Recipients').getByText('plus 500 in scheduled broadcasts')).toBeTruthy();
    expect(card('Messages Sent').getByText('60% of recipients')).toBeTruthy();
    expect(card('Messages Sent').getByText('plus 150 handed to WhatsApp')).toBeTruthy();
  });

  it('shows the rows with their percentages and the eight summary cards from the totals', async () => {
    stubFetch(() =>
      json(
        listPage([
          row(1, {
            name: 'Summer launch',
            template_name: 'summer_sale',
            total_recipients: 1500,
            replied_percentage: 7.5,
            // Its tracked link: recipients who clicked, of all of them.
            clicked_percentage: 12.5,
          }),
          row(2, {
            name: 'Flash sale',
            status: 'sending',
            sent_percentage: 40.5,
            failed_percentage: 2,
            delivered_percentage: 30,
            read_percentage: 12.3,
            // No tracked link.
            clicked_percentage: null,
          }),
        ]),
      ),
    );
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('Summer launch');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Name',
      'Template',
      'Scheduled',
      'Recipients',
      'Sent %',
      'Delivered %',
      'Read %',
      'Replied %',
      'Click %',
      'Failed %',
      'Status',
      'Actions',
    ]);
    const scheduled = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date('2026-01-15T09:00:00.000Z'),
    );
    expect(cellTexts('Summer launch')).toEqual([
      'Summer launch',
      'summer_salefrom +1 555-0100',
      scheduled,
      '1,500',
      '95%',
      '80%',
      '50%',
      '7.5%',
      '12.5%',
      '5%',
      'Completed',
      '—',
    ]);
    expect(cellTexts('Flash sale').slice(4)).toEqual([
      '40.5%',
      '30%',
      '12.3%',
      '0%',
      '—',
      '2%',
      'Sending',
      'PauseCancel',
    ]);
    const progress = screen.getByRole('progressbar', { name: 'Sending progress of Flash sale' });
    expect(progress.getAttribute('aria-valuenow')).toBe('43');
    expect(progress.getAttribute('aria-valuetext')).toBe('42.5%');
    expect(screen.getAllByRole('progressbar')).toHaveLength(1);

    expect(card('Total Broadcasts').getByText('12')).toBeTruthy();
    expect(card('Total Recipients').getByText('3,000')).toBeTruthy();
    expect(card('Messages Sent').getByText('2,700')).toBeTruthy();
    expect(card('Messages Sent').getByText('90% of recipients')).toBeTruthy();
    expect(card('Delivered').getByText('2,400')).toBeTruthy();
    expect(card('Delivered').getByText('80% of recipients')).toBeTruthy();
    expect(card('Read').getByText('33.3% of recipients')).toBeTruthy();
    expect(card('Failed').getByText('150')).toBeTruthy();
    expect(card('Failed').getByText('5% of recipients')).toBeTruthy();
    expect(card('Scheduled').getByText('1')).toBeTruthy();
    expect(card('Sending').getByText('0')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Summary' })).getAllByRole('listitem')).toHaveLength(8);
  });

  it('says when a waiting broadcast resumes, why one is paused, and what WhatsApp limited or could not reach', async () => {
    // 14:05 in the test's own time zone, whatever it is: the history shows the user's local time.
    const resumes = new Date(2026, 0, 15, 14, 5);
    stubFetch(() =>
      json(
        listPage(
          [
            row(1, {
              name: 'Big sale',
              status: 'sending',
              sent_percentage: 40,
              delivered_percentage: 30,
              failed_percentage: 1,
              limited_percentage: 2.5,
              not_on_whatsapp_percentage: 0.5,
              expired_percentage: 1.5,
              waiting_until: resumes.toISOString(),
              phone_number: '+1 555-0142',
            }),
            row(2, {
              name: 'Paused one',
              status: 'paused',
              status_reason: 'WhatsApp paused the template summer_sale for low quality.',
            }),
            // From a server before the expired outcome: no expired share, read as none.
            row(3, { name: 'Resumed one', status: 'sending', expired_percentage: undefined }),
            // The server's reason for a sending broadcast is the current one (decision 055).
            row(4, {
              name: 'Outage one',
              status: 'sending',
              status_reason: "Retrying: WhatsApp's servers are not answering (since 10:42)",
            }),
          ],
          4,
          1,
          { ...totals, failed: 150, limited: 40, not_on_whatsapp: 7, expired: 12 },
        ),
      ),
    );
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('Big sale');
    const big = cellTexts('Big sale');
    expect(big[1]).toBe('summer_salefrom +1 555-0142');
    expect(big[9]).toBe('1%+2.5% limited by WhatsApp+0.5% not on WhatsApp+1.5% expired');
    expect(big[10]).toBe('SendingWaiting for messaging limit — resumes about 14:05');
    // Limited, not on WhatsApp and expired are done with: the progress counts them (40 + 1 + 2.5 + 0.5 + 1.5).
    expect(
      screen
        .getByRole('progressbar', { name: 'Sending progress of Big sale' })
        .getAttribute('aria-valuetext'),
    ).toBe('45.5%');
    expect(cellTexts('Paused one')[10]).toBe(
      'PausedWhatsApp paused the template summer_sale for low quality.',
    );
    expect(cellTexts('Resumed one')[10]).toBe('Sending');
    expect(cellTexts('Resumed one')[9]).toBe('5%');
    expect(
      screen
        .getByRole('progressbar', { name: 'Sending progress of Resumed one' })
        .getAttribute('aria-valuetext'),
    ).toBe('100%');
    expect(cellTexts('Outage one')[10]).toBe(
      "SendingRetrying: WhatsApp's servers are not answering (since 10:42)",
    );

    // Still the spec's eight cards; Failed says what else did not arrive.
    expect(within(screen.getByRole('list', { name: 'Summary' })).getAllByRole('listitem')).toHaveLength(8);
    expect(card('Failed').getByText('150')).toBeTruthy();
    expect(card('Failed').getByText('plus 40 limited by WhatsApp')).toBeTruthy();
    expect(card('Failed').getByText('plus 7 not on WhatsApp')).toBeTruthy();
    expect(card('Failed').getByText('plus 12 expired')).toBeTruthy();
  });

  it('says what the frequency cap skipped under Failed, never in the failed figures', async () => {
    stubFetch(() =>
      json(
        listPage(
          [
            row(1, {
              name: 'Capped sale',
              status: 'sending',
              sent_percentage: 40,
              failed_percentage: 1,
              skipped_percentage: 12.5,
            }),
            row(2, { name: 'Uncapped one', status: 'sending', sent_percentage: 40, skipped_percentage: 0 }),
            // From a server before the frequency cap: no skipped share, read as none.
            row(3, {
              name: 'Older one',
              status: 'sending',
              sent_percentage: 40,
              skipped_percentage: undefined,
            }),
          ],
          3,
          1,
          { ...totals, failed: 150, skipped: 1_250 },
        ),
      ),
    );
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('Capped sale');
    expect(cellTexts('Capped sale')[9]).toBe('1%+12.5% skipped by the frequency cap');
    expect(cellTexts('Uncapped one')[9]).toBe('5%');
    expect(cellTexts('Older one')[9]).toBe('5%');
    // Skipped recipients are done with: the progress counts them (40 + 1 + 12.5).
    const progress = (name: string) =>
      screen.getByRole('progressbar', { name: `Sending progress of ${name}` }).getAttribute('aria-valuetext');
    expect(progress('Capped sale')).toBe('53.5%');
    expect(progress('Older one')).toBe('45%');

    expect(card('Failed').getByText('150')).toBeTruthy();
    expect(card('Failed').getByText('5% of recipients')).toBeTruthy();
    expect(card('Failed').getByText('plus 1,250 skipped by the frequency cap')).toBeTruthy();
  });

  it('says nothing of the frequency cap when nothing was skipped, or the server does not count it', async () => {
    const { skipped: _none, ...older } = totals;
    stubFetch(() => json(listPage([row(1, { name: 'Plain one' })], 1, 1, older)));
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('Plain one');
    expect(screen.queryByText(/frequency cap/)).toBeNull();
    expect(card('Failed').getByText('150')).toBeTruthy();
  });

  it("shows 'No data available' and no pagination for a single page, Previous/Next beyond one", async () => {
    let count = 0;
    const fetchMock = stubFetch((request) => {
      const page = Number(new URL(request.url).searchParams.get('page'));
      return json(listPage(count ? [row(page, { name: `Page ${page} row` })] : [], count, page));
    });
    const first = renderRoute('/broadcast', { preloadedState: withAccount });
    expect(await screen.findByText('No data available')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    first.unmount();

    count = 10;
    const second = renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('Page 1 row');
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
    second.unmount();

    count = 25;
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('Page 1 row');
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 row');
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();
    expect(listRequests(fetchMock).at(-1)?.toString()).toBe('page=2&sort=latest');
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('Page 1 row');
  });

  it('searches on Enter only and sends the chosen sort, back at page 1', async () => {
    const fetchMock = stubFetch((request) => {
      const page = Number(new URL(request.url).searchParams.get('page'));
      return json(listPage([row(page, { name: `Page ${page} row` })], 25, page));
    });
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('Page 1 row');
    expect(listRequests(fetchMock)[0]?.toString()).toBe('page=1&sort=latest');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 row');

    const box = screen.getByRole('searchbox', { name: 'Search broadcasts' });
    fireEvent.change(box, { target: { value: ' summer ' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listRequests(fetchMock).some((p) => p.has('search'))).toBe(false);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() =>
      expect(listRequests(fetchMock).at(-1)?.toString()).toBe('page=1&sort=latest&search=summer'),
    );

    const sort = screen.getByRole('combobox', { name: 'Sorted by' }) as HTMLSelectElement;
    expect([...sort.options].map((o) => o.text)).toEqual(['Latest', 'Oldest']);
    fireEvent.change(sort, { target: { value: 'oldest' } });
    await waitFor(() =>
      expect(listRequests(fetchMock).at(-1)?.toString()).toBe('page=1&sort=oldest&search=summer'),
    );
  });

  it('reloads on Refresh', async () => {
    const fetchMock = stubFetch(() => json(listPage([row(1)])));
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('Broadcast 1');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(listRequests(fetchMock)).toHaveLength(2));
  });

  it('counts messages of unknown outcome as done in a sending broadcast’s progress', async () => {
    stubFetch(() =>
      json(
        listPage([
          row(3, {
            name: 'Lost answers',
            status: 'sending',
            sent_percentage: 40,
            failed_percentage: 5,
            unknown_percentage: 5,
          }),
        ]),
      ),
    );
    renderRoute('/broadcast', { preloadedState: withAccount });
    const progress = await screen.findByRole('progressbar', { name: 'Sending progress of Lost answers' });
    expect(progress.getAttribute('aria-valuenow')).toBe('50');
  });

  it('re-reads every 2 s while a broadcast is sending or scheduled, and stops once none is', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let reads = 0;
      const fetchMock = stubFetch((request) => {
        // The header's figures are not a read of the list.
        if (pathOf(request) === '/dashboard/header') return json({ contacts: 0, events: [], unread: 0 });
        if (pathOf(request) === '/pricing/broadcasts/') return json({ costs: [] }); // costs: not a list read
        reads += 1;
        const status = reads === 1 ? 'scheduled' : reads < 4 ? 'sending' : 'completed';
        const sent = Math.min(100, reads * 30);
        return json(
          listPage(
            [row(1, { name: 'Flash sale', status, sent_percentage: sent, failed_percentage: 0 })],
            1,
            1,
            {
              ...totals,
              scheduled: 0,
              sending: status === 'sending' ? 1 : 0,
            },
          ),
        );
      });
      renderRoute('/broadcast', { preloadedState: withAccount });
      const status = () => cellTexts('Flash sale').at(-2);
      await waitFor(() => expect(status()).toBe('Scheduled'));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(2100);
      });
      await waitFor(() => expect(status()).toMatch(/^Sending/));
      expect(
        screen
          .getByRole('progressbar', { name: 'Sending progress of Flash sale' })
          .getAttribute('aria-valuenow'),
      ).toBe('60');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(2100);
      });
      await waitFor(() =>
        expect(
          screen
            .getByRole('progressbar', { name: 'Sending progress of Flash sale' })
            .getAttribute('aria-valuenow'),
        ).toBe('90'),
      );
      await act(async () => {
        await vi.advanceTimersByTimeAsync(2100);
      });
      await waitFor(() => expect(status()).toBe('Completed'));
      const settled = listRequests(fetchMock).length;
      expect(settled).toBe(4);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(10_000);
      });
      expect(listRequests(fetchMock)).toHaveLength(settled);
    } finally {
      vi.useRealTimers();
    }
  });

  it('follows a recent completed broadcast every 5 s until its statuses are in', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let reads = 0;
      const fetchMock = stubFetch((request) => {
        // The header's figures are not a read of the list.
        if (pathOf(request) === '/dashboard/header') return json({ contacts: 0, events: [], unread: 0 });
        if (pathOf(request) === '/pricing/broadcasts/') return json({ costs: [] }); // costs: not a list read
        reads += 1;
        const delivered = reads < 3 ? 50 : 98;
        return json(
          listPage(
            [
              row(1, {
                name: 'Just sent',
                status: 'completed',
                scheduled: new Date(Date.now() - 3_600_000).toISOString(),
                sent_percentage: 100,
                delivered_percentage: delivered,
                failed_percentage: 2,
              }),
            ],
            1,
            1,
            { ...totals, scheduled: 0, sending: 0 },
          ),
        );
      });
      renderRoute('/broadcast', { preloadedState: withAccount });
      await screen.findByText('Just sent');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(2_100);
      });
      expect(listRequests(fetchMock)).toHaveLength(1);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(3_000);
      });
      await waitFor(() => expect(listRequests(fetchMock)).toHaveLength(2));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(5_100);
      });
      await waitFor(() => expect(cellTexts('Just sent')[5]).toBe('98%'));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(20_000);
      });
      expect(listRequests(fetchMock)).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not poll when nothing is live', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const fetchMock = stubFetch(() => json(listPage([row(1)], 1, 1, { ...totals, scheduled: 0 })));
      renderRoute('/broadcast', { preloadedState: withAccount });
      await screen.findByText('Broadcast 1');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(10_000);
      });
      expect(listRequests(fetchMock)).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows 'Failed to load broadcasts from API: {message}'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() => json({ detail: 'Database unavailable', message: 'Database unavailable' }, 503));
    renderRoute('/broadcast', { preloadedState: withAccount });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to load broadcasts from API: Database unavailable',
    );
    expect(screen.getByText('No data available')).toBeTruthy();
  });

  it("shows the transport's text when the request never reached the server", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    renderRoute('/broadcast', { preloadedState: withAccount });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to load broadcasts from API: TypeError: Failed to fetch',
    );
  });

  it('asks for a WABA id when the user has no account', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() =>
      json(
        {
          detail: 'No WhatsApp Business Account is linked to this user',
          errors: [{ field: 'X-WABA-ID', message: 'No WhatsApp Business Account is linked to this user' }],
        },
        403,
      ),
    );
    renderRoute('/broadcast', { preloadedState: signedIn });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'No WABA ID found. Please set your WABA ID first.',
    );
  });

  it('accepts a bare array of rows', async () => {
    stubFetch(() => json([row(1, { name: 'Legacy' })]));
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('Legacy');
    expect(card('Total Broadcasts').getByText('—')).toBeTruthy();
  });

  it('pauses and resumes at once, with a toast, and re-reads the list', async () => {
    let status = 'sending';
    const fetchMock = stubFetch((request) => {
      const path = pathOf(request);
      if (request.method === 'POST' && path === '/broadcast/7/pause/') {
        status = 'paused';
        return json({ id: 7, status });
      }
      if (request.method === 'POST' && path === '/broadcast/7/resume/') {
        status = 'sending';
        return json({ id: 7, status });
      }
      return json(listPage([row(7, { name: 'Flash sale', status })]));
    });
    const success = vi.spyOn(toast, 'success');
    renderRoute('/broadcast', { preloadedState: withAccount });
    fireEvent.click(await screen.findByRole('button', { name: 'Pause Flash sale' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Broadcast paused'));
    fireEvent.click(await screen.findByRole('button', { name: 'Resume Flash sale' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Broadcast resumed'));
    await screen.findByRole('button', { name: 'Pause Flash sale' });
    const posts = fetchMock
      .requests()
      .filter((r) => r.method === 'POST')
      .map(pathOf);
    expect(posts).toEqual(['/broadcast/7/pause/', '/broadcast/7/resume/']);
  });

  it('asks before cancelling, keeps it on Keep It, and shows a refusal inside the dialog', async () => {
    const fetchMock = stubFetch((request) => {
      if (request.method === 'POST') {
        return json(
          {
            detail: 'A completed broadcast cannot be cancelled',
            message: 'A completed broadcast cannot be cancelled',
            errors: [{ field: 'status', message: 'A completed broadcast cannot be cancelled' }],
          },
          409,
        );
      }
      return json(listPage([row(8, { name: 'Tomorrow', status: 'scheduled' })]));
    });
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('Tomorrow');
    expect(cellTexts('Tomorrow').at(-1)).toBe('Cancel');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel Tomorrow' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Broadcast' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep It' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetchMock.requests().filter((r) => r.method === 'POST')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Cancel Tomorrow' }));
    const again = await screen.findByRole('dialog', { name: 'Cancel Broadcast' });
    fireEvent.click(within(again).getByRole('button', { name: 'Cancel Broadcast' }));
    expect(await within(again).findByText('A completed broadcast cannot be cancelled')).toBeTruthy();
    expect(
      fetchMock
        .requests()
        .filter((r) => r.method === 'POST')
        .map(pathOf),
    ).toEqual(['/broadcast/8/cancel/']);
  });
});
