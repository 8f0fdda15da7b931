import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { BROADCAST_MESSAGES, FLATTENED_VARIABLE_NOTE } from '@herald/contracts';
import type {
  BroadcastEstimateRequest,
  BroadcastEstimateResponse,
  Contact,
  PhoneNumber,
} from '@herald/contracts';
import { renderRoute } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import {
  ana,
  estimateAnswer,
  listPage,
  phoneNumber,
  summerSale,
  tags,
  templates,
  withAccount,
} from '../test/broadcast-fixtures';

type ServerOptions = {
  contacts?: Contact[];
  /** The real contact total; null answers the contact list with an error. */
  contactCount?: number | null;
  create?: (request: Request) => Response | Promise<Response>;
  numbers?: PhoneNumber[];
  estimate?: (body: BroadcastEstimateRequest) => BroadcastEstimateResponse;
};

const connected = phoneNumber('1001', { display_phone_number: '+1 555-0101' });

/** A fake of the calls the New broadcast screen makes. */
function broadcastServer({
  contacts = [ana],
  contactCount = 1234,
  create = () => json({ id: 41, status: 'sending', total_recipients: 10 }, 201),
  numbers = [connected],
  estimate = () => estimateAnswer(),
}: ServerOptions = {}) {
  return stubFetch(async (request) => {
    const path = pathOf(request);
    if (path === '/broadcast/create/' && request.method === 'POST') return create(request);
    if (path === '/broadcast/estimate/' && request.method === 'POST')
      return json(estimate((await request.json()) as BroadcastEstimateRequest));
    if (path === '/meta/phone/whatsapp/') return json({ data: numbers });
    if (path === '/broadcast/create/') return json(listPage([]));
    if (path === '/meta/templates/') {
      return json({
        count: templates.length,
        currentPage: 1,
        next: null,
        previous: null,
        results: templates,
      });
    }
    if (path === '/meta/templates/1/') return json(summerSale);
    if (path === '/recipient/tags/') return json(tags);
    if (path === '/recipient/create/') {
      return contactCount === null
        ? json({ detail: 'Unavailable' }, 503)
        : json({ count: contactCount, next: null, previous: null, results: contacts });
    }
    return json({ detail: 'Not found' }, 404);
  });
}

async function renderPage(options?: ServerOptions) {
  const fetchMock = broadcastServer(options);
  const rendered = renderRoute('/broadcast/new', { preloadedState: withAccount });
  // The first render of a file also loads the lazy page: more than the default second on a busy machine.
  await screen.findByRole('option', { name: 'summer_sale (en_US)' }, { timeout: 5000 });
  return { fetchMock, ...rendered };
}

const section = (name: string) => screen.getByRole('region', { name });
const selected = () => screen.getByRole('status', { name: 'Selected recipients' }).textContent;
const afterPercentage = () => screen.getByRole('status', { name: 'Recipients after percentage' }).textContent;
const submit = () => fireEvent.click(screen.getByRole('button', { name: /^(Send|Schedule) Broadcast$/ }));

function fillDetails(name = 'Summer launch', templateId = '1') {
  fireEvent.change(screen.getByRole('textbox', { name: 'Broadcast Name' }), { target: { value: name } });
  fireEvent.change(screen.getByRole('combobox', { name: 'Message Template' }), {
    target: { value: templateId },
  });
}

const isCreate = (r: Request) => r.method === 'POST' && pathOf(r) === '/broadcast/create/';

async function postedBody(fetchMock: ReturnType<typeof stubFetch>) {
  await waitFor(() => expect(fetchMock.requests().some(isCreate)).toBe(true));
  return fetchMock.requests().find(isCreate)!.json();
}

/** The bodies of the estimates asked so far. */
function estimateBodies(fetchMock: ReturnType<typeof stubFetch>): Promise<BroadcastEstimateRequest[]> {
  return Promise.all(
    fetchMock
      .requests()
      .filter((r) => pathOf(r) === '/broadcast/estimate/')
      .map((r) => r.clone().json() as Promise<BroadcastEstimateRequest>),
  );
}

const limitLine = () => screen.getByRole('status', { name: 'Messaging limit' }).textContent;

const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

describe('New broadcast (spec §2, §4, §5, §9)', () => {
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
    fireEvent.click(screen.getByRole('button', { name: 'Schedule Broadcast' }));
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
    expect(screen.queryByRole('checkbox')).toBeNull();
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

  it("lists the account's numbers in 'Send from': the first that can send is the default, one that cannot is disabled with why", async () => {
    const flagged = phoneNumber('1002', { display_phone_number: '+1 555-0102', status: 'FLAGGED' });
    const red = phoneNumber('1003', {
      display_phone_number: '+1 555-0103',
      verified_name: 'Acme Outlet',
      quality_rating: 'RED',
      throughput: { level: 'HIGH' },
      messaging_limit_tier: 'TIER_10K',
    });
    const { fetchMock } = await renderPage({ numbers: [flagged, connected, red] });
    const select = (await screen.findByRole('combobox', { name: 'Send from' })) as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('1001'));
    expect([...select.options].map((o) => [o.text, o.disabled])).toEqual([
      ['+1 555-0102 · Acme Shop · Quality: Green (cannot send)', true],
      ['+1 555-0101 · Acme Shop · Quality: Green', false],
      ['+1 555-0103 · Acme Outlet · Quality: Red', false],
    ]);
    expect(screen.getByText('Throughput: Standard · Messaging limit: 1,000 recipients / 24 h')).toBeTruthy();
    const blocked = within(screen.getByRole('list', { name: 'Numbers that cannot send' }));
    expect(blocked.getByRole('listitem').textContent).toBe(
      '+1 555-0102: WhatsApp flagged this number for low quality; it cannot send broadcasts until it recovers.',
    );
    expect(screen.queryByText(/quality rating is low/)).toBeNull();

    fireEvent.change(select, { target: { value: '1003' } });
    expect(screen.getByText(/This number’s quality rating is low \(red\)/)).toBeTruthy();
    expect(screen.getByText('Throughput: High · Messaging limit: 10,000 recipients / 24 h')).toBeTruthy();
    // The select's description names the warning, so a screen reader hears it with the choice.
    const described = document.getElementById(select.getAttribute('aria-describedby')!)!;
    expect(described.textContent).toContain('quality rating is low');

    fillDetails();
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    // The estimate is asked for the chosen number too.
    await waitFor(async () => expect((await estimateBodies(fetchMock)).at(-1)?.phone_number_id).toBe('1003'));
    submit();
    expect((await postedBody(fetchMock)).phone_number_id).toBe('1003');
  });

  it('refuses to send when no number of the account can send', async () => {
    const { fetchMock } = await renderPage({
      numbers: [phoneNumber('1002', { status: 'PENDING' })],
    });
    const select = (await screen.findByRole('combobox', { name: 'Send from' })) as HTMLSelectElement;
    await waitFor(() => expect(select.options[0]!.text).toBe('Choose a number'));
    fillDetails();
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    submit();
    expect(screen.getByText(/None of this account’s numbers can send a broadcast now/)).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Numbers that cannot send' }).textContent).toContain(
      'This number is not connected yet: finish its registration first.',
    );
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock.requests().some(isCreate)).toBe(false);
  });

  it('shows the recipients against the 24-hour limit, asked once the form stops changing', async () => {
    const { fetchMock } = await renderPage({
      estimate: (body) => estimateAnswer({ recipients: body.recipients.percentage * 10, new_recipients: 5 }),
    });
    // No tag chosen yet: nothing to estimate.
    expect(screen.queryByRole('status', { name: 'Messaging limit' })).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    await waitFor(() => expect(limitLine()).toBe('550 recipients · 800 left in your 24-hour limit'));
    const slider = screen.getByRole('slider', { name: 'Percentage of recipients' });
    for (const value of ['60', '70', '80']) fireEvent.change(slider, { target: { value } });
    await waitFor(() => expect(limitLine()).toBe('800 recipients · 800 left in your 24-hour limit'));
    // The drag is asked once, at its end: 55% then 80%, nothing in between.
    const asked = (await estimateBodies(fetchMock)).map((body) => body.recipients.percentage);
    expect(asked).toEqual([55, 80]);
    expect(screen.queryByRole('checkbox', { name: /Spread over the 24-hour limit/ })).toBeNull();
  });

  it('warns when the broadcast is larger than what is left, spreads by default, and shows the refusal at the field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const refusal =
      'This broadcast would reach 1,200 new recipients, but only 300 are left in your 24-hour messaging limit. Send to fewer recipients or let Herald spread it.';
    const { fetchMock } = await renderPage({
      estimate: () =>
        estimateAnswer({
          recipients: 1234,
          new_recipients: 1200,
          messaging_limit: { tier: 'TIER_1K', limit: 1000, reached: 700, left: 300, frees_at: null },
        }),
      create: () =>
        json({ detail: 'Validation failed', errors: [{ field: 'recipients', message: refusal }] }, 400),
    });
    fillDetails();
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    await waitFor(() => expect(limitLine()).toBe('1,234 recipients · 300 left in your 24-hour limit'));
    expect(screen.getByText(refusal)).toBeTruthy();
    const spread = screen.getByRole('checkbox', {
      name: 'Spread over the 24-hour limit: send up to the limit now and continue automatically as it frees',
    }) as HTMLInputElement;
    expect(spread.checked).toBe(true);

    fireEvent.click(spread);
    submit();
    expect((await postedBody(fetchMock)).spread_over_limit).toBe(false);
    // At the field, linked to the checkbox, not as the page's general alert.
    await waitFor(() => expect(spread.getAttribute('aria-invalid')).toBe('true'));
    const note = document.getElementById(spread.getAttribute('aria-describedby')!)!;
    expect(note.textContent).toBe(refusal);
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(spread));
    // Changing the choice clears the server's word until it is asked again.
    fireEvent.click(spread);
    expect(spread.getAttribute('aria-invalid')).toBeNull();
  });

  it('counts +1 numbers for a marketing template and offers to leave them out', async () => {
    const { fetchMock } = await renderPage({
      estimate: (body) =>
        body.leave_out_us_numbers
          ? estimateAnswer({ recipients: 560, new_recipients: 560, us_numbers: 0 })
          : estimateAnswer({ recipients: 679, new_recipients: 679, us_numbers: 119 }),
    });
    fillDetails();
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    const usText =
      '119 recipients have +1 (US) numbers. WhatsApp does not deliver marketing templates to US numbers.';
    expect(await screen.findByText(usText)).toBeTruthy();
    expect(limitLine()).toBe('679 recipients · 800 left in your 24-hour limit');
    const leaveOut = screen.getByRole('checkbox', { name: 'Leave them out' }) as HTMLInputElement;
    expect(leaveOut.checked).toBe(false);
    fireEvent.click(leaveOut);
    // The figures once they are left out, and the offer stays (taken) with its count.
    await waitFor(() => expect(limitLine()).toBe('560 recipients · 800 left in your 24-hour limit'));
    expect(screen.getByText(usText)).toBeTruthy();
    expect(leaveOut.checked).toBe(true);
    expect((await estimateBodies(fetchMock)).map((b) => b.leave_out_us_numbers)).toContain(true);
    submit();
    expect((await postedBody(fetchMock)).leave_out_us_numbers).toBe(true);
  });

  it('does not offer to leave out US numbers for a template that is not marketing', async () => {
    await renderPage({
      estimate: () => estimateAnswer({ us_numbers: 40, template_category: 'UTILITY' }),
    });
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    await waitFor(() => expect(limitLine()).toContain('left in your 24-hour limit'));
    expect(screen.queryByRole('checkbox', { name: 'Leave them out' })).toBeNull();
  });

  it('names the variables filled from contact columns and says how their values are sent', async () => {
    await renderPage({
      contacts: [{ ...ana, recipient_post_code: '1000-001\n  Lisboa' }],
    });
    fillDetails();
    const variables = within(await screen.findByRole('region', { name: 'Variables from contact columns' }));
    expect(variables.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Header {{1}} ← email',
      'Body {{1}} ← name',
      'Body {{3}} ← post_code',
    ]);
    expect(variables.getByText(FLATTENED_VARIABLE_NOTE)).toBeTruthy();
    // The preview shows the value as it will be sent: on one line.
    const preview = within(screen.getByRole('figure', { name: 'Message preview' }));
    await waitFor(() =>
      expect(preview.getByTestId('preview-body').textContent).toBe(
        'Hi Ana Lima, use code SUMMER20 at the shop near 1000-001 Lisboa.',
      ),
    );
  });
});
