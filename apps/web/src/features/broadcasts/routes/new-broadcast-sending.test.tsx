import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { BroadcastEstimateRequest, BroadcastTestRequest } from '@herald/contracts';
import { json, pathOf } from '../../../test/fetch-stub';
import { ana, contact, estimateAnswer, summerSale } from '../test/broadcast-fixtures';
import {
  estimateBodies,
  fillDetails,
  isCreate,
  postedBody,
  renderPage,
  submit,
} from '../test/new-broadcast-harness';
import { RETARGET_UNREADABLE } from './new-broadcast-page';

// On New broadcast: the confirmation, 'Send test', retargeting a report's filter, and
// the template's own header image in the preview.

const springSale = (id: number) =>
  json({
    broadcast: { id, name: 'Spring Sale', template_name: 'summer_sale', status: 'completed' },
    outcomes: {},
    replied: 0,
    reply_rate: 0,
    failure_reasons: [],
    count: 0,
    next: null,
    previous: null,
    results: [],
  });

const isTest = (r: Request) => r.method === 'POST' && pathOf(r) === '/broadcast/test/';

describe('confirming a send', () => {
  it('names the template, the server’s count and “Now”; Cancel sends nothing', async () => {
    const { fetchMock } = await renderPage({ estimate: () => estimateAnswer({ recipients: 1234 }) });
    fillDetails();
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    await screen.findByText(/1,234 recipients/);
    fireEvent.click(screen.getByRole('button', { name: 'Send Broadcast' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Send this broadcast now?' }));
    expect(dialog.getByTestId('confirm-template').textContent).toBe('summer_sale');
    expect(dialog.getByTestId('confirm-recipients').textContent).toBe('1,234');
    expect(dialog.getByTestId('confirm-sending-time').textContent).toBe('Now');
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    // Nothing was created, and the form is still there to change.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchMock.requests().some(isCreate)).toBe(false);
    expect(screen.getByRole('button', { name: 'Send Broadcast' })).toBeTruthy();
  });
});

describe('Send test', () => {
  it('sends the template with the chosen contact’s values to the typed number and shows the wamid', async () => {
    const contacts = [ana, contact(2, { recipient_name: 'Ben Cole' })];
    const { fetchMock } = await renderPage({
      contacts,
      testSend: async (request) => {
        const body = (await request.clone().json()) as BroadcastTestRequest;
        return json({
          accepted: true,
          wamid: 'wamid.TEST123',
          to: body.to,
          contact: { id: 2, name: 'Ben Cole', whatsapp_number: contacts[1]!.whatsapp_number },
          error: null,
        });
      },
    });
    fillDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Send test' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Send a test message' }));
    expect(dialog.getByText(/not counted in the history/)).toBeTruthy();
    fireEvent.change(dialog.getByRole('textbox', { name: /Send the test to/ }), {
      target: { value: '+447911123456' },
    });
    fireEvent.change(dialog.getByRole('combobox', { name: 'Fill the variables with the values of' }), {
      target: { value: '2' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Send test' }));
    expect(await dialog.findByText('Message id: wamid.TEST123')).toBeTruthy();
    expect(dialog.getByText('Accepted by WhatsApp: the test is on its way to +447911123456.')).toBeTruthy();
    const sent = fetchMock.requests().find(isTest)!;
    expect(await sent.json()).toEqual({
      template_id: 1,
      to: '+447911123456',
      phone_number_id: '1001',
      contact_id: 2,
    });
    // A test is not a broadcast.
    expect(fetchMock.requests().some(isCreate)).toBe(false);
  });

  it('shows WhatsApp’s refusal in plain words, and a refused number under the field', async () => {
    let answer = 0;
    await renderPage({
      testSend: () => {
        answer += 1;
        return answer === 1
          ? json({
              accepted: false,
              wamid: null,
              to: '+447911123456',
              contact: { id: ana.id, name: ana.recipient_name, whatsapp_number: ana.whatsapp_number },
              error: {
                code: 131000,
                title: 'Something went wrong',
                explanation: 'WhatsApp had an internal error and did not send the message.',
                action: 'Try again in a few minutes.',
              },
            })
          : json(
              {
                detail: 'Too many',
                errors: [
                  {
                    field: 'to',
                    message: 'Too many test messages: at most 10 a minute. Try again in 42 seconds.',
                  },
                ],
              },
              429,
            );
      },
    });
    fillDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Send test' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Send a test message' }));
    fireEvent.change(dialog.getByRole('textbox', { name: /Send the test to/ }), {
      target: { value: '+447911123456' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Send test' }));
    expect(
      await dialog.findByText('WhatsApp did not accept the test (error 131000): Something went wrong'),
    ).toBeTruthy();
    expect(dialog.getByText('Try again in a few minutes.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Send test' }));
    expect(
      await dialog.findByText('Too many test messages: at most 10 a minute. Try again in 42 seconds.'),
    ).toBeTruthy();
  });

  it('asks for a template first', async () => {
    await renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Send test' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('Please select a message template')).toBeTruthy();
  });
});

describe('retargeting a report’s filter', () => {
  it('shows the earlier broadcast’s recipients and sends them as a frozen audience', async () => {
    const { fetchMock } = await renderPage(
      {
        report: (id) => springSale(id),
        estimate: (body: BroadcastEstimateRequest) => estimateAnswer({ recipients: body.audience ? 12 : 99 }),
      },
      '/broadcast/new?retarget=5&filter=not_read',
    );
    expect(
      (await screen.findByText('Recipients: 12 from broadcast "Spring Sale" (Not read)')).getAttribute(
        'role',
      ),
    ).toBe('status');
    // The tabs and the percentage give way: the list is sent whole.
    expect(screen.queryByRole('tab', { name: 'All Contacts' })).toBeNull();
    expect(screen.queryByRole('slider')).toBeNull();
    const asked = await estimateBodies(fetchMock);
    expect(asked.at(-1)!.audience).toEqual({
      kind: 'broadcast_recipients',
      broadcast_id: 5,
      filter: { outcome: 'not_read' },
    });
    expect(asked.every((body) => body.recipients === undefined)).toBe(true);

    fillDetails('Reminder');
    fireEvent.click(screen.getByRole('button', { name: 'Send Broadcast' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Send this broadcast now?' }));
    expect(dialog.getByTestId('confirm-recipients').textContent).toBe(
      '12 from broadcast "Spring Sale" (Not read)',
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Send Broadcast' }));
    const body = await postedBody(fetchMock);
    expect(body.audience).toEqual({
      kind: 'broadcast_recipients',
      broadcast_id: 5,
      filter: { outcome: 'not_read' },
    });
    expect(body.recipients).toBeUndefined();
  });

  it('reads the report API’s own query as the filter, and goes back to contacts on request', async () => {
    await renderPage(
      { report: (id) => springSale(id), estimate: () => estimateAnswer({ recipients: 3 }) },
      `/broadcast/new?retarget=5&filter=${encodeURIComponent('outcome=delivered&replied=false')}`,
    );
    expect(
      await screen.findByText('Recipients: 3 from broadcast "Spring Sale" (Delivered, did not reply)'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Choose other recipients' }));
    expect(screen.getByRole('tab', { name: 'All Contacts' })).toBeTruthy();
  });

  it('says so when the link cannot be read or names no broadcast of this account', async () => {
    await renderPage({}, '/broadcast/new?retarget=5&filter=bogus');
    expect(screen.getByText(RETARGET_UNREADABLE)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'All Contacts' })).toBeTruthy();
  });

  it('says the earlier broadcast was not found', async () => {
    await renderPage(
      { report: () => json({ detail: 'Broadcast not found' }, 404) },
      '/broadcast/new?retarget=77&filter=failed',
    );
    expect(
      await screen.findByText('The broadcast these recipients come from was not found in this account.'),
    ).toBeTruthy();
  });
});

describe('the preview’s header image', () => {
  // jsdom has no object URLs; put back what was there, since test files share a worker's globals.
  const { createObjectURL, revokeObjectURL } = URL;
  beforeAll(() => {
    URL.createObjectURL = vi.fn(() => 'blob:header-image');
    URL.revokeObjectURL = vi.fn();
  });
  afterAll(() => {
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
  });

  it('shows the template’s stored image, not a grey box', async () => {
    const template = {
      ...summerSale,
      components: [{ type: 'HEADER', format: 'IMAGE' }, ...summerSale.components.slice(1)],
      media_url: '/meta/templates/1/media/3/',
    };
    await renderPage({ template, media: () => new Response(new Blob(['png'], { type: 'image/png' })) });
    fillDetails();
    const image = await screen.findByRole('img', { name: 'Header image' });
    expect(image.getAttribute('src')).toBe('blob:header-image');
    await waitFor(() => expect(screen.queryByText('Image')).toBeNull());
  });
});

describe('spend cap', () => {
  it('refuses a cap that is not an amount in cents before sending, then sends the one typed', async () => {
    const { fetchMock } = await renderPage();
    fillDetails();
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    const field = screen.getByRole('textbox', { name: 'Spend cap (USD, optional)' });
    fireEvent.change(field, { target: { value: '12.345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Broadcast' }));
    expect(await screen.findByText('The spend cap must have at most 2 decimals (cents)')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(field));

    fireEvent.change(field, { target: { value: '$12.50' } });
    submit();
    expect(await postedBody(fetchMock)).toMatchObject({ spend_cap: 12.5 });
  });

  it('sends no spend_cap when the field is left empty', async () => {
    const { fetchMock } = await renderPage();
    fillDetails();
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    submit();
    expect(await postedBody(fetchMock)).not.toHaveProperty('spend_cap');
  });
});
