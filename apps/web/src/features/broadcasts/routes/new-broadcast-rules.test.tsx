import { describe, expect, it, vi, beforeAll } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FLATTENED_VARIABLE_NOTE } from '@herald/contracts';
import { json } from '../../../test/fetch-stub';
import { ana, estimateAnswer, phoneNumber } from '../test/broadcast-fixtures';
import {
  connected,
  estimateBodies,
  fillDetails,
  isCreate,
  limitLine,
  postedBody,
  renderPage,
  section,
  selected,
  submit,
} from '../test/new-broadcast-harness';
import { NewBroadcastPage } from '../../../test/lazy-pages';

// The pages are lazy: load their code before the tests' timers start (a busy machine takes seconds).
beforeAll(() => Promise.all([NewBroadcastPage.preload()]));

describe('New broadcast: the sending number, the 24-hour messaging limit, US numbers and flattened variables', () => {
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
      estimate: (body) => estimateAnswer({ recipients: body.recipients!.percentage * 10, new_recipients: 5 }),
    });
    // No tag chosen yet: nothing to estimate.
    expect(screen.queryByRole('status', { name: 'Messaging limit' })).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    await waitFor(() => expect(limitLine()).toBe('550 recipients · 800 left in your 24-hour limit'));
    const slider = screen.getByRole('slider', { name: 'Percentage of recipients' });
    for (const value of ['60', '70', '80']) fireEvent.change(slider, { target: { value } });
    await waitFor(() => expect(limitLine()).toBe('800 recipients · 800 left in your 24-hour limit'));
    // The drag is asked once, at its end: 55% then 80%, nothing in between.
    const asked = (await estimateBodies(fetchMock)).map((body) => body.recipients!.percentage);
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

  it('shows who is sent to as the big figure and in the Summary, with who is left out and why one click away', async () => {
    // 51 contacts: one opted out, five US numbers a marketing template does not reach.
    await renderPage({
      contactCount: 51,
      estimate: (body) =>
        body.leave_out_us_numbers
          ? estimateAnswer({ recipients: 45, us_numbers: 0, left_out: { opted_out: 1, us_numbers: 5 } })
          : estimateAnswer({ recipients: 50, us_numbers: 5, left_out: { opted_out: 1, us_numbers: 0 } }),
    });
    fillDetails();
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    fireEvent.change(screen.getByRole('slider', { name: 'Percentage of recipients' }), {
      target: { value: '100' },
    });
    await waitFor(() => expect(selected()).toBe('50'));
    expect(screen.getByText('100% of 51 contacts')).toBeTruthy();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Leave them out' }));
    await waitFor(() => expect(selected()).toBe('45'));
    expect(within(section('Summary')).getByText('All Contacts, 100% (45)')).toBeTruthy();
    expect(limitLine()).toBe('45 recipients · 800 left in your 24-hour limit');
    const leftOut = screen.getByText('6 chosen contacts left out').closest('details')!;
    expect(leftOut.open).toBe(false);
    fireEvent.click(screen.getByText('6 chosen contacts left out'));
    expect([...leftOut.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      '1 has opted out of your broadcasts',
      '5 US numbers (+1): WhatsApp does not deliver marketing templates to them',
    ]);
  });

  it("never shows the previous audience's reasons while the server counts the changed one", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await renderPage({
      contactCount: 51,
      estimate: async (body) => {
        if (!body.leave_out_us_numbers)
          return estimateAnswer({ recipients: 50, us_numbers: 5, left_out: { opted_out: 1, us_numbers: 0 } });
        await held;
        return estimateAnswer({ recipients: 45, us_numbers: 0, left_out: { opted_out: 1, us_numbers: 5 } });
      },
    });
    fillDetails();
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    expect(await screen.findByText('1 chosen contact left out')).toBeTruthy();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Leave them out' }));
    // Asked again: the old reasons go at once, the new ones come with the answer.
    await waitFor(() => expect(screen.queryByText('1 chosen contact left out')).toBeNull());
    release();
    expect(await screen.findByText('6 chosen contacts left out')).toBeTruthy();
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

describe('New broadcast: the frequency cap', () => {
  const capLine = () => screen.queryByTestId('frequency-cap-line')?.textContent ?? null;
  const allContacts = async () => {
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    // Asked after the debounce: more than waitFor's default second on a busy machine.
    await waitFor(() => expect(limitLine()).toContain('left in your 24-hour limit'), { timeout: 5000 });
  };

  it('says how many recipients the cap would skip, with the cap in words', async () => {
    await renderPage({
      estimate: () =>
        estimateAnswer({ recipients: 5_000, frequency_cap: { messages: 2, days: 7, skipped: 1_234 } }),
    });
    await allContacts();
    await waitFor(() =>
      expect(capLine()).toBe(
        '1,234 of these recipients will be skipped: they already had 2 marketing messages per person per 7 days',
      ),
    );
    // Beside the messaging limit, within the recipients' figures.
    expect(within(section('Selected Recipients')).getByTestId('frequency-cap-line')).toBeTruthy();
  });

  it('names the cap and that nobody is over it when none would be skipped', async () => {
    await renderPage({
      estimate: () => estimateAnswer({ frequency_cap: { messages: 1, days: 1, skipped: 0 } }),
    });
    await allContacts();
    await waitFor(() =>
      expect(capLine()).toBe(
        'Frequency cap: 1 marketing message per person per day. Nobody here is over it.',
      ),
    );
  });

  it.each([
    ['the cap does not apply (no cap, or a template that is not marketing)', { frequency_cap: null }],
    ['the server does not say (before the cap)', {}],
  ])('says nothing of it when %s', async (_, answer) => {
    await renderPage({ estimate: () => estimateAnswer(answer) });
    await allContacts();
    expect(capLine()).toBeNull();
  });
});
