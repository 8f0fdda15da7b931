import { describe, expect, it, vi, beforeAll } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { BROADCAST_MESSAGES } from '@herald/contracts';
import { json } from '../../../test/fetch-stub';
import { renderRoute } from '../../../test/render-with-store';
import { withAccount } from '../test/broadcast-fixtures';
import {
  afterPercentage,
  broadcastServer,
  fillDetails,
  isCreate,
  postedBody,
  renderPage,
  section,
  selected,
  submit,
} from '../test/new-broadcast-harness';
import { BroadcastHistoryPage, NewBroadcastPage } from '../../../test/lazy-pages';

const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

// The pages are lazy: load their code before the tests' timers start (a busy machine takes seconds).
beforeAll(() => Promise.all([NewBroadcastPage.preload(), BroadcastHistoryPage.preload()]));

describe('New broadcast', () => {
  it('starts in filter mode at 55%, offers only approved templates, and sums up', async () => {
    await renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'New Broadcast' })).toBeTruthy();
    for (const name of ['Broadcast Details', 'Recipients', 'Selected Recipients', 'Summary']) {
      expect(section(name)).toBeTruthy();
    }
    const options = [
      ...(screen.getByRole('combobox', { name: 'Message Template' }) as HTMLSelectElement).options,
    ];
    expect(options.map((o) => o.text)).toEqual([
      'Select a template',
      'summer_sale (en_US)',
      'order_update (en)',
    ]);
    expect(screen.getByRole('tab', { name: 'Filter by Tags' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'All Contacts' }).getAttribute('aria-selected')).toBe('false');
    expect((screen.getByRole('slider', { name: 'Percentage of recipients' }) as HTMLInputElement).value).toBe(
      '55',
    );
    expect(screen.getByRole('switch', { name: 'Schedule for later' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Scheduled date and time' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Send Broadcast' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Cancel' }).getAttribute('href')).toBe('/broadcast');

    const summary = within(section('Summary'));
    expect(summary.getByText('Not selected')).toBeTruthy();
    expect(summary.getByText('No tag selected')).toBeTruthy();
    expect(summary.getByText('Immediately')).toBeTruthy();
    fillDetails();
    expect(summary.getByText('summer_sale')).toBeTruthy();
  });

  it('shows every validation message and sends nothing', async () => {
    const { fetchMock } = await renderPage();
    fireEvent.click(screen.getByRole('switch', { name: 'Schedule for later' }));
    expect(screen.getByRole('button', { name: 'Schedule Broadcast' })).toBeTruthy();
    submit();
    expect(screen.getByText(BROADCAST_MESSAGES.nameRequired)).toBeTruthy();
    expect(screen.getByText(BROADCAST_MESSAGES.templateRequired)).toBeTruthy();
    expect(screen.getByText(BROADCAST_MESSAGES.scheduleRequired)).toBeTruthy();
    expect(screen.getByText('Select at least one tag')).toBeTruthy();
    expect(screen.getByText('Please enter a broadcast name')).toBeTruthy();
    expect(screen.getByText('Please select a message template')).toBeTruthy();
    expect(screen.getByText('Please select a date and time for the scheduled broadcast')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Broadcast Name' })),
    );

    // A whitespace-only name is still blank; the others clear as they are fixed.
    fireEvent.change(screen.getByRole('textbox', { name: 'Broadcast Name' }), { target: { value: '   ' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Message Template' }), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'VIP' }));
    submit();
    expect(screen.getByText(BROADCAST_MESSAGES.nameRequired)).toBeTruthy();
    expect(screen.queryByText(BROADCAST_MESSAGES.templateRequired)).toBeNull();
    expect(screen.queryByText('Select at least one tag')).toBeNull();
    expect(screen.getByText(BROADCAST_MESSAGES.scheduleRequired)).toBeTruthy();

    fireEvent.click(screen.getByRole('switch', { name: 'Schedule for later' }));
    expect(screen.queryByText(BROADCAST_MESSAGES.scheduleRequired)).toBeNull();
    expect(fetchMock.requests().some(isCreate)).toBe(false);
  });

  it("sends to all contacts with the slider's percentage, toasts and goes to /broadcast", async () => {
    const success = vi.spyOn(toast, 'success');
    let answer: (response: Response) => void = () => {};
    const { fetchMock, router } = await renderPage({
      create: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    fillDetails('  Summer launch  ');
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    fireEvent.change(screen.getByRole('slider', { name: 'Percentage of recipients' }), {
      target: { value: '30' },
    });
    submit();
    expect(await postedBody(fetchMock)).toEqual({
      name: 'Summer launch',
      template_id: 1,
      recipients: { type: 'all', percentage: 30 },
      phone_number_id: '1001',
      spread_over_limit: true,
      leave_out_us_numbers: false,
    });
    const busy = screen.getByRole('button', { name: 'Sending...' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    answer(json({ id: 41, status: 'sending', total_recipients: 370 }, 201));
    await waitFor(() => expect(router.state.location.pathname).toBe('/broadcast'));
    expect(success).toHaveBeenCalledWith('Broadcast created successfully!');
  });

  it('schedules a tag broadcast with the picked time in Unix seconds', async () => {
    const { fetchMock, router } = await renderPage();
    fillDetails();
    fireEvent.click(screen.getByRole('checkbox', { name: 'VIP' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'London' }));
    fireEvent.change(screen.getByRole('slider', { name: 'Percentage of recipients' }), {
      target: { value: '50' },
    });
    fireEvent.click(screen.getByRole('switch', { name: 'Schedule for later' }));
    const picker = within(screen.getByRole('group', { name: 'Scheduled date and time' }));
    fireEvent.click(picker.getByRole('button', { name: 'Next month' }));
    const now = new Date();
    const day = new Date(now.getFullYear(), now.getMonth() + 1, 15);
    fireEvent.click(picker.getByRole('button', { name: dayLabel.format(day) }));
    fireEvent.click(picker.getByRole('button', { name: '9:00 AM' }));
    fireEvent.click(picker.getByRole('button', { name: ':30' }));
    const at = new Date(day.getFullYear(), day.getMonth(), 15, 9, 30);

    expect(within(section('Summary')).getByText('2 tags, 50% (83)')).toBeTruthy();
    expect(within(section('Summary')).getByText(/9:30\sAM/)).toBeTruthy();
    // The server's figure first: the dialog names it.
    await waitFor(() => expect(screen.getByRole('status', { name: 'Messaging limit' })).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Schedule Broadcast' }));
    // Confirmed first, naming the template, the server's count and the local time with its zone.
    const dialog = within(await screen.findByRole('dialog', { name: 'Schedule this broadcast?' }));
    expect(dialog.getByTestId('confirm-template').textContent).toBe('summer_sale');
    // The count follows the server's estimate for the changed audience (asked again after the last change).
    await waitFor(() => expect(dialog.getByTestId('confirm-recipients').textContent).toBe('66'));
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(dialog.getByTestId('confirm-sending-time').textContent).toMatch(
      new RegExp(`9:30\\sAM \\(${zone.replace(/[/+]/g, '\\$&')} \\(UTC[+-]\\d\\d:\\d\\d\\)\\)$`),
    );
    expect(fetchMock.requests().some(isCreate)).toBe(false);
    fireEvent.click(dialog.getByRole('button', { name: 'Schedule Broadcast' }));
    expect(await postedBody(fetchMock)).toEqual({
      name: 'Summer launch',
      template_id: 1,
      recipients: { type: 'filtered', tag_ids: [7, 8], percentage: 50 },
      scheduled_time: at.getTime() / 1000,
      phone_number_id: '1001',
      spread_over_limit: true,
      leave_out_us_numbers: false,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/broadcast'));
  });

  it('counts all contacts from the real total and tags by the sum of their counts', async () => {
    await renderPage({ contactCount: 1234 });
    // Filter mode: the sum of the chosen tags, and what the percentage then gives.
    expect(selected()).toBe('0');
    fireEvent.click(screen.getByRole('checkbox', { name: 'VIP' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Newsletter' }));
    expect(selected()).toBe('1,120');
    expect(afterPercentage()).toBe('616');
    expect(within(section('Recipients')).getByText('120 contacts')).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    await waitFor(() => expect(selected()).toBe('679'));
    expect(screen.getByText('55% of 1,234 contacts')).toBeTruthy();
    fireEvent.change(screen.getByRole('slider', { name: 'Percentage of recipients' }), {
      target: { value: '100' },
    });
    expect(selected()).toBe('1,234');
    fireEvent.change(screen.getByRole('slider', { name: 'Percentage of recipients' }), {
      target: { value: '1' },
    });
    expect(selected()).toBe('12');
  });

  it('falls back to 5000 contacts only when the total is unknown', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    broadcastServer({ contactCount: null });
    renderRoute('/broadcast/new', { preloadedState: withAccount });
    fireEvent.click(await screen.findByRole('tab', { name: 'All Contacts' }));
    expect(selected()).toBe('2,750');
    expect(screen.getByText('55% of about 5,000 contacts')).toBeTruthy();
  });

  it('searches tags and says when none matches', async () => {
    await renderPage();
    const search = screen.getByRole('searchbox', { name: 'Search tags' });
    fireEvent.change(search, { target: { value: 'lon' } });
    expect(screen.getByRole('checkbox', { name: 'London' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'VIP' })).toBeNull();
    fireEvent.change(search, { target: { value: 'zzz' } });
    expect(screen.getByText('No tags found matching "zzz"')).toBeTruthy();
    expect(within(section('Recipients')).queryByRole('checkbox')).toBeNull();
  });

  it("previews the template with the first contact's values and the static ones", async () => {
    await renderPage();
    expect(screen.getByText('Select a template to preview the message.')).toBeTruthy();
    fillDetails();
    const preview = within(screen.getByRole('figure', { name: 'Message preview' }));
    expect(await preview.findByText('Hello ana@example.com')).toBeTruthy();
    expect(preview.getByTestId('preview-body').textContent).toBe(
      'Hi Ana Lima, use code SUMMER20 at the shop near 1000-001.',
    );
    expect(preview.getByText('Reply STOP to opt out')).toBeTruthy();
    expect(preview.getByText('Shop now')).toBeTruthy();
    expect(preview.getByText('8:00 AM')).toBeTruthy();
    expect(preview.getByText('Dynamic values shown for the first contact, Ana Lima.')).toBeTruthy();
  });

  it("shows the server's message, else the fallback, and stays", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let calls = 0;
    const { router } = await renderPage({
      create: () => {
        calls += 1;
        return calls === 1
          ? json(
              {
                detail: 'Validation failed',
                message: 'The scheduled time must be in the future',
                errors: [{ field: 'scheduled_time', message: 'The scheduled time must be in the future' }],
              },
              400,
            )
          : json({}, 500);
      },
    });
    fillDetails();
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    submit();
    expect((await screen.findByRole('alert')).textContent).toBe('The scheduled time must be in the future');
    submit();
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Failed to create broadcast. Please try again.'),
    );
    expect(router.state.location.pathname).toBe('/broadcast/new');
  });

  it('goes back to /broadcast on Cancel', async () => {
    const { router } = await renderPage();
    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/broadcast'));
  });
});
