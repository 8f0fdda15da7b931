import { describe, expect, it, beforeAll, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SKIPPED_REASON, type BroadcastReport } from '@herald/contracts';
import { renderRoute } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import toast from 'react-hot-toast';
import { listPage, row, withAccount } from '../test/broadcast-fixtures';
import { recipient, report } from '../test/report-fixtures';
import { BroadcastHistoryPage, BroadcastReportPage } from '../../../test/lazy-pages';
import { blobText } from '../../../test/bodies';

const cells = (text: string) =>
  within(screen.getByText(text).closest('tr') as HTMLElement)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

// The pages are lazy: load their code before the tests' timers start (a busy machine takes seconds).
beforeAll(() => Promise.all([BroadcastReportPage.preload(), BroadcastHistoryPage.preload()]));

describe('Delivery report (/broadcast/:id)', () => {
  it('shows each recipient’s outcome with Meta’s error, the outcome counts, and filters by outcome', async () => {
    const fetchMock = stubFetch((request) => {
      const outcome = new URL(request.url).searchParams.get('outcome');
      if (outcome === 'failed') {
        return json(
          report(
            [
              recipient(3, {
                outcome: 'failed',
                error_code: 131026,
                error_title: 'Message undeliverable',
                contact_name: null,
              }),
            ],
            { count: 2, next: null },
          ),
        );
      }
      return json(report([recipient(1), recipient(2, { outcome: 'read' })]));
    });
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    // The first render of a file also loads the lazy page: more than the default second on a busy machine.
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Delivery Report: Summer launch' },
        { timeout: 5000 },
      ),
    ).toBeTruthy();
    expect(screen.getByText('Template summer_sale · Completed · 40 recipients')).toBeTruthy();
    // Numbers read as in Customers: grouped, international.
    expect(cells('Contact 1')).toEqual([
      'Contact 1',
      '+1 415 555 1001',
      'Delivered',
      '—',
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date('2026-01-15T09:05:00.000Z'),
      ),
      '—',
    ]);
    expect(cells('Contact 2')[2]).toBe('Read');
    const filters = within(screen.getByRole('group', { name: 'Filter by outcome' }));
    expect(filters.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'All · 40',
      'Replied · 0',
      'Pending · 0',
      'Held by WhatsApp · 0',
      'Sent · 0',
      'Delivered · 28',
      'Read · 10',
      'Failed · 2',
      'Limited by WhatsApp · 0',
      'Not on WhatsApp · 0',
      'Expired · 0',
      'Skipped: frequency cap · 0',
      'Unknown · 0',
      'Cancelled · 0',
      'Not read · 28',
    ]);
    // Nothing failed in this answer's reasons: no section for them.
    expect(screen.queryByRole('region', { name: 'Why messages did not arrive' })).toBeNull();
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();

    fireEvent.click(filters.getByRole('button', { name: 'Failed · 2' }));
    expect(await screen.findByText('Deleted contact')).toBeTruthy();
    expect(cells('Deleted contact')).toContain('131026 · Message undeliverable');
    expect(filters.getByRole('button', { name: 'Failed · 2' }).getAttribute('aria-pressed')).toBe('true');
    const asked = fetchMock
      .requests()
      .filter((r) => pathOf(r) === '/broadcast/7/recipients/')
      .map((r) => new URL(r.url).searchParams.get('outcome'));
    expect(asked).toEqual([null, 'failed']);
    // One page only: no pagination.
    expect(screen.queryByText(/Page \d+ of/)).toBeNull();
  });

  it('shows an unknown outcome with why it is unknown, and filters by it', async () => {
    const why =
      'No delivery status arrived from WhatsApp within 1 hour; the message may or may not have been delivered.';
    const fetchMock = stubFetch((request) => {
      const outcome = new URL(request.url).searchParams.get('outcome');
      const unknown = recipient(4, { outcome: 'unknown', error_title: why });
      const outcomes = {
        ...report([]).outcomes,
        delivered: 35,
        read: 2,
        failed: 0,
        unknown: 3,
      };
      return outcome === 'unknown'
        ? json(report([unknown], { outcomes, count: 3, next: null }))
        : json(report([recipient(1), unknown], { outcomes }));
    });
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    expect(await screen.findByText('Contact 4')).toBeTruthy();
    expect(cells('Contact 4').slice(2, 4)).toEqual(['Unknown', why]);
    expect(cells('Contact 1')[3]).toBe('—');
    expect(screen.getByRole('columnheader', { name: 'Details' })).toBeTruthy();
    const filters = within(screen.getByRole('group', { name: 'Filter by outcome' }));
    fireEvent.click(filters.getByRole('button', { name: 'Unknown · 3' }));
    // Pressed at once; its count comes back with the filtered answer (while it loads the buttons show none).
    await waitFor(() => expect(screen.queryByText('Contact 1')).toBeNull());
    const pressed = await filters.findByRole('button', { name: 'Unknown · 3' }, { timeout: 5000 });
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
    const asked = fetchMock
      .requests()
      .filter((r) => pathOf(r) === '/broadcast/7/recipients/')
      .map((r) => new URL(r.url).searchParams.get('outcome'));
    expect(asked).toEqual([null, 'unknown']);
  });

  it('shows an expired outcome apart from failed, why it did not arrive, filters by it and retargets it', async () => {
    const explanation =
      'WhatsApp kept trying to deliver the message for its time-to-live, then dropped it: the phone was off or offline all that time.';
    const fetchMock = stubFetch((request) => {
      const outcome = new URL(request.url).searchParams.get('outcome');
      const expired = recipient(8, {
        outcome: 'expired',
        error_code: 131000,
        error_title: 'Message expired',
      });
      const base = report([recipient(1), expired], {
        outcomes: { ...report([]).outcomes, delivered: 26, expired: 2 },
        failure_reasons: [
          {
            code: null,
            outcome: 'expired',
            title: 'Expired',
            count: 2,
            explanation,
            action: 'Send to these contacts again later.',
          },
        ],
      });
      return outcome === 'expired' ? json({ ...base, results: [expired], count: 2, next: null }) : json(base);
    });
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    expect(await screen.findByText('Contact 8', {}, { timeout: 5000 })).toBeTruthy();
    expect(cells('Contact 8').slice(2, 4)).toEqual(['Expired', '131000 · Message expired']);
    // The reason's title already names the outcome: not said twice.
    const why = within(screen.getByRole('region', { name: 'Why messages did not arrive' }));
    expect(why.getByRole('listitem', { name: 'Expired' }).textContent).toBe(
      `Expired2 recipients${explanation}What to do: Send to these contacts again later.`,
    );
    const filters = within(screen.getByRole('group', { name: 'Filter by outcome' }));
    // Apart from Failed, which keeps its own count.
    expect(filters.getByRole('button', { name: 'Failed · 2' })).toBeTruthy();
    fireEvent.click(filters.getByRole('button', { name: 'Expired · 2' }));
    await waitFor(() => expect(screen.queryByText('Contact 1')).toBeNull());
    // The counts come back with the filtered answer (while it loads the buttons show none).
    const pressed = await filters.findByRole('button', { name: 'Expired · 2' }, { timeout: 5000 });
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
    const asked = fetchMock
      .requests()
      .filter((r) => pathOf(r) === '/broadcast/7/recipients/')
      .map((r) => new URL(r.url).searchParams.get('outcome'));
    expect(asked).toEqual([null, 'expired']);
    expect(screen.getByRole('link', { name: 'New broadcast to these recipients' }).getAttribute('href')).toBe(
      '/broadcast/new?retarget=7&filter=outcome%3Dexpired',
    );
  });

  it('shows a recipient skipped by the frequency cap in a neutral badge, apart from failed, and filters by it', async () => {
    const fetchMock = stubFetch((request) => {
      const outcome = new URL(request.url).searchParams.get('outcome');
      const skipped = recipient(9, { outcome: 'skipped', updated_at: null });
      const base = report([recipient(1), skipped], {
        outcomes: { ...report([]).outcomes, delivered: 25, skipped: 3 },
        failure_reasons: [
          {
            code: null,
            outcome: 'skipped',
            title: SKIPPED_REASON.title,
            count: 3,
            explanation: SKIPPED_REASON.explanation,
            action: SKIPPED_REASON.action,
          },
        ],
      });
      return outcome === 'skipped' ? json({ ...base, results: [skipped], count: 3, next: null }) : json(base);
    });
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    expect(await screen.findByText('Contact 9', {}, { timeout: 5000 })).toBeTruthy();
    expect(cells('Contact 9').slice(2, 5)).toEqual(['Skipped: frequency cap', '—', '—']);
    const badge = within(screen.getByText('Contact 9').closest('tr') as HTMLElement).getByText(
      'Skipped: frequency cap',
    );
    expect(badge.className).not.toMatch(/red|rose/);
    // The reason's title is the outcome's label: not said twice.
    const why = within(screen.getByRole('region', { name: 'Why messages did not arrive' }));
    expect(why.getByRole('listitem', { name: 'Skipped: frequency cap' }).textContent).toBe(
      `Skipped: frequency cap3 recipients${SKIPPED_REASON.explanation}What to do: ${SKIPPED_REASON.action}`,
    );
    const filters = within(screen.getByRole('group', { name: 'Filter by outcome' }));
    // Failed keeps its own count: the skipped are not in it.
    expect(filters.getByRole('button', { name: 'Failed · 2' })).toBeTruthy();
    fireEvent.click(filters.getByRole('button', { name: 'Skipped: frequency cap · 3' }));
    await waitFor(() => expect(screen.queryByText('Contact 1')).toBeNull());
    const pressed = await filters.findByRole(
      'button',
      { name: 'Skipped: frequency cap · 3' },
      { timeout: 5000 },
    );
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
    expect(
      fetchMock
        .requests()
        .filter((r) => pathOf(r) === '/broadcast/7/recipients/')
        .map((r) => new URL(r.url).searchParams.get('outcome')),
    ).toEqual([null, 'skipped']);
    expect(screen.getByRole('link', { name: 'New broadcast to these recipients' }).getAttribute('href')).toBe(
      '/broadcast/new?retarget=7&filter=outcome%3Dskipped',
    );
  });

  it('counts none skipped for a server that does not count them', async () => {
    const { skipped: _none, ...older } = report([]).outcomes;
    stubFetch(() => json(report([recipient(1)], { outcomes: older as BroadcastReport['outcomes'] })));
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    await screen.findByText('Contact 1', {}, { timeout: 5000 });
    const filters = within(screen.getByRole('group', { name: 'Filter by outcome' }));
    expect(filters.getByRole('button', { name: 'Skipped: frequency cap · 0' })).toBeTruthy();
  });

  it('groups why messages did not arrive, with counts, explanations and what to do, and filters the new outcomes', async () => {
    const limitedExplanation = 'WhatsApp limits how many marketing messages one person receives.';
    const fetchMock = stubFetch((request) => {
      const outcome = new URL(request.url).searchParams.get('outcome');
      const limited = recipient(5, { outcome: 'limited', error_code: 131049, error_title: 'Per-user limit' });
      const base = report([recipient(1), limited, recipient(6, { outcome: 'held' })], {
        outcomes: { ...report([]).outcomes, held: 1, limited: 3, not_on_whatsapp: 1, failed: 1 },
        failure_reasons: [
          {
            code: 131049,
            outcome: 'limited',
            title: 'Per-user marketing limit',
            count: 3,
            explanation: limitedExplanation,
            action: 'Send to them again tomorrow at the earliest.',
          },
          {
            code: 131026,
            outcome: 'not_on_whatsapp',
            title: 'Not on WhatsApp',
            count: 1,
            explanation: 'This number cannot receive WhatsApp messages.',
            action: 'Check the number with the contact.',
          },
          {
            code: null,
            outcome: 'failed',
            title: 'Opted out',
            count: 1,
            explanation: 'The contact asked not to get broadcasts.',
            action: 'Nothing: Herald keeps respecting it.',
          },
        ],
      });
      return outcome === 'limited' ? json({ ...base, results: [limited], count: 3, next: null }) : json(base);
    });
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    const why = within(await screen.findByRole('region', { name: 'Why messages did not arrive' }));
    const items = why.getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
      'Per-user marketing limit',
      'Not on WhatsApp',
      'Opted out',
    ]);
    const first = within(items[0]!);
    expect(first.getByRole('heading', { level: 3 }).textContent).toBe('131049 · Per-user marketing limit');
    expect(items[0]!.textContent).toContain('3 recipients · Limited by WhatsApp');
    expect(first.getByText(limitedExplanation)).toBeTruthy();
    expect(items[0]!.textContent).toContain('What to do: Send to them again tomorrow at the earliest.');
    // A title that already names the outcome is not followed by it again.
    expect(items[1]!.textContent).toBe(
      '131026 · Not on WhatsApp1 recipientThis number cannot receive WhatsApp messages.What to do: Check the number with the contact.',
    );
    // A reason Herald found itself has no Meta code.
    expect(within(items[2]!).getByRole('heading', { level: 3 }).textContent).toBe('Opted out');

    expect(cells('Contact 5').slice(2, 4)).toEqual(['Limited by WhatsApp', '131049 · Per-user limit']);
    expect(cells('Contact 6')[2]).toBe('Held by WhatsApp');
    const filters = within(screen.getByRole('group', { name: 'Filter by outcome' }));
    fireEvent.click(filters.getByRole('button', { name: 'Limited by WhatsApp · 3' }));
    await waitFor(() => expect(screen.queryByText('Contact 1')).toBeNull());
    const asked = fetchMock
      .requests()
      .filter((r) => pathOf(r) === '/broadcast/7/recipients/')
      .map((r) => new URL(r.url).searchParams.get('outcome'));
    expect(asked).toEqual([null, 'limited']);
  });

  it('shows each reply with its text or kind and time, the Replied filter with its count, and the reply rate', async () => {
    const fetchMock = stubFetch((request) => {
      const params = new URL(request.url).searchParams;
      const typed = recipient(1, {
        reply: { text: 'Is it still on?', kind: 'text', at: '2026-01-15T10:00:00.000Z' },
      });
      const pressed = recipient(2, {
        outcome: 'read',
        reply: { text: 'Yes please', kind: 'button', at: '2026-01-15T10:05:00.000Z' },
      });
      const photo = recipient(3, { reply: { text: null, kind: 'image', at: '2026-01-15T11:00:00.000Z' } });
      const counts = { replied: 3, reply_rate: 7.9 };
      return params.get('replied') === 'true'
        ? json(report([typed, pressed, photo], { ...counts, count: 3, next: null }))
        : json(report([typed, pressed, photo, recipient(4)], counts));
    });
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    expect(await screen.findByText('Contact 4', {}, { timeout: 5000 })).toBeTruthy();
    const at = (iso: string) =>
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
    expect(cells('Contact 1').at(-1)).toBe(`“Is it still on?”${at('2026-01-15T10:00:00.000Z')}`);
    expect(cells('Contact 2').at(-1)).toBe(`Button press: “Yes please”${at('2026-01-15T10:05:00.000Z')}`);
    expect(cells('Contact 3').at(-1)).toBe(`Image${at('2026-01-15T11:00:00.000Z')}`);
    expect(cells('Contact 4').at(-1)).toBe('—');
    // 3 of the 38 delivered or read recipients replied.
    expect(screen.getByText(/^Reply rate:/).textContent).toBe('Reply rate: 7.9% (3 of 38 delivered replied)');

    const filters = within(screen.getByRole('group', { name: 'Filter by outcome' }));
    const repliedFilter = filters.getByRole('button', { name: 'Replied · 3' });
    fireEvent.click(repliedFilter);
    // The counts are back once the filtered page is in.
    expect((await filters.findByRole('button', { name: 'All · 40' })).getAttribute('aria-pressed')).toBe(
      'false',
    );
    expect(screen.queryByText('Contact 4')).toBeNull();
    expect(repliedFilter.getAttribute('aria-pressed')).toBe('true');
    // It combines with an outcome, and All clears both.
    fireEvent.click(filters.getByRole('button', { name: 'Read · 10' }));
    fireEvent.click(await filters.findByRole('button', { name: 'All · 40' }));
    await screen.findByText('Contact 4');
    expect(repliedFilter.getAttribute('aria-pressed')).toBe('false');
    const asked = fetchMock
      .requests()
      .filter((r) => pathOf(r) === '/broadcast/7/recipients/')
      .map((r) => {
        const params = new URL(r.url).searchParams;
        return [params.get('outcome'), params.get('replied')];
      });
    expect(asked).toEqual([
      [null, null],
      [null, 'true'],
      ['read', 'true'],
    ]);
  });

  it('shows the server’s error for a broadcast it cannot find', async () => {
    stubFetch(() =>
      json({ detail: 'Broadcast not found', errors: [{ field: 'id', message: 'Broadcast not found' }] }, 404),
    );
    renderRoute('/broadcast/99', { preloadedState: withAccount });
    expect((await screen.findByRole('alert')).textContent).toContain('Broadcast not found');
  });

  it('is reached from the broadcast’s name in the history', async () => {
    stubFetch((request) =>
      pathOf(request) === '/broadcast/create/'
        ? json(listPage([row(7, { name: 'Summer launch' })]))
        : json(report([recipient(1)])),
    );
    renderRoute('/broadcast', { preloadedState: withAccount });
    // Two lazy pages in one test.
    fireEvent.click(await screen.findByRole('link', { name: 'Summer launch' }, { timeout: 5000 }));
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Delivery Report: Summer launch' },
        { timeout: 5000 },
      ),
    ).toBeTruthy();
  });
  it('exports the recipients under the current filter as the server’s CSV file', async () => {
    const fetchMock = stubFetch((request) =>
      pathOf(request) === '/broadcast/7/recipients/export.csv'
        ? new Response('\uFEFFname,whatsapp_number\r\nContact 3,+14155551003\r\n', {
            headers: {
              'content-type': 'text/csv; charset=utf-8',
              'content-disposition': 'attachment; filename="herald-report-7-failed.csv"',
            },
          })
        : json(report([recipient(3, { outcome: 'failed' })], { count: 2, next: null })),
    );
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:report');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.download} ${this.getAttribute('href')}`);
    });
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    await screen.findByText('Contact 3', {}, { timeout: 5000 });
    const filters = within(screen.getByRole('group', { name: 'Filter by outcome' }));
    fireEvent.click(filters.getByRole('button', { name: 'Failed · 2' }));
    fireEvent.click(filters.getByRole('button', { name: /^Replied/ }));
    await screen.findByText('Contact 3');
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(clicked).toEqual(['herald-report-7-failed.csv blob:report']));
    const request = fetchMock.requests().find((r) => pathOf(r) === '/broadcast/7/recipients/export.csv')!;
    expect(Object.fromEntries(new URL(request.url).searchParams)).toEqual({
      outcome: 'failed',
      replied: 'true',
    });
    expect(await blobText(created.mock.calls[0]![0] as Blob)).toContain('Contact 3');
  });

  it('says when the export fails', async () => {
    const error = vi.spyOn(toast, 'error');
    stubFetch((request) =>
      pathOf(request) === '/broadcast/7/recipients/export.csv'
        ? json({ detail: 'Broadcast not found' }, 404)
        : json(report([recipient(1)])),
    );
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    await screen.findByText('Contact 1', {}, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Could not export the recipients: Broadcast not found'),
    );
  });

  it('offers a new broadcast to the filtered recipients only while a filter is active', async () => {
    const page = { count: 0, next: null, previous: null, results: [] };
    stubFetch((request) => {
      const path = pathOf(request);
      // New broadcast's own reads, once the link is followed.
      if (path === '/meta/phone/whatsapp/') return json({ data: [] });
      if (path === '/recipient/tags/') return json([]);
      if (path === '/broadcast/estimate/')
        return json({
          recipients: 1,
          new_recipients: 1,
          us_numbers: 0,
          template_category: null,
          messaging_limit: { tier: null, limit: null, reached: 0, left: null, frees_at: null },
        });
      if (path !== '/broadcast/7/recipients/') return json(page);
      return new URL(request.url).searchParams.get('outcome') === 'sent'
        ? json(report([recipient(4, { outcome: 'sent' })], { count: 1, next: null }))
        : json(report([recipient(1)]));
    });
    const { router } = renderRoute('/broadcast/7', { preloadedState: withAccount });
    await screen.findByText('Contact 1', {}, { timeout: 5000 });
    expect(screen.queryByRole('link', { name: 'New broadcast to these recipients' })).toBeNull();
    const filters = within(screen.getByRole('group', { name: 'Filter by outcome' }));
    fireEvent.click(filters.getByRole('button', { name: 'Sent · 0' }));
    await screen.findByText('Contact 4');
    expect(screen.getByRole('link', { name: 'New broadcast to these recipients' }).getAttribute('href')).toBe(
      '/broadcast/new?retarget=7&filter=outcome%3Dsent',
    );
    fireEvent.click(filters.getByRole('button', { name: /^Replied/ }));
    await waitFor(() =>
      expect(
        screen.getByRole('link', { name: 'New broadcast to these recipients' }).getAttribute('href'),
      ).toBe('/broadcast/new?retarget=7&filter=outcome%3Dsent%26replied%3Dtrue'),
    );
    // 'Not read' (sent or delivered): the non-readers, as the report API and New broadcast name them.
    fireEvent.click(filters.getByRole('button', { name: /^Not read/ }));
    await waitFor(() =>
      expect(
        screen.getByRole('link', { name: 'New broadcast to these recipients' }).getAttribute('href'),
      ).toBe('/broadcast/new?retarget=7&filter=outcome%3Dnot_read%26replied%3Dtrue'),
    );
    fireEvent.click(filters.getByRole('button', { name: /^Replied/ }));
    fireEvent.click(filters.getByRole('button', { name: /^Sent/ }));
    fireEvent.click(filters.getByRole('button', { name: /^Replied/ }));
    await screen.findByText('Contact 4');
    fireEvent.click(screen.getByRole('link', { name: 'New broadcast to these recipients' }));
    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe(
        '/broadcast/new?retarget=7&filter=outcome%3Dsent%26replied%3Dtrue',
      ),
    );
  });

  it('says when a scheduled broadcast starts and who will receive it', async () => {
    stubFetch(() =>
      json(
        report([], {
          count: 0,
          next: null,
          broadcast: {
            id: 7,
            name: 'Winter sale',
            template_name: 'summer_sale',
            status: 'scheduled',
            scheduled: '2027-01-01T09:00:00.000Z',
            audience: {
              type: 'filtered',
              tags: ['Gold', 'Silver', 'VIP'],
              percentage: 55,
              leave_out_us: true,
              from_broadcast_id: null,
              recipients: 1234,
            },
          },
        }),
      ),
    );
    renderRoute('/broadcast/7', { preloadedState: withAccount });
    const section = await screen.findByRole('region', { name: 'Who will receive it' }, { timeout: 5000 });
    const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date('2027-01-01T09:00:00.000Z'),
    );
    expect(section.textContent).toBe(
      `Scheduled for ${when}. Nothing has been sent yet.` +
        'Who will receive it: 55% of the contacts tagged Gold, Silver or VIP (about 1,234 recipients), chosen when it starts; contacts who opted out are left out; +1 (US) numbers are left out.',
    );
  });
});
