import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { LINK_MESSAGES, type TemplateDetail } from '@herald/contracts';
import { json } from '../../../test/fetch-stub';
import { summerSale } from '../test/broadcast-fixtures';
import {
  estimateBodies,
  fillDetails,
  isCreate,
  postedBody,
  renderPage,
  submit,
} from '../test/new-broadcast-harness';
import { NewBroadcastPage } from '../../../test/lazy-pages';

const links = {
  tracked_link_prefix: 'http://localhost:3000/l/',
  tracked_button_url: 'http://localhost:3000/l/{{1}}',
};

/** summer_sale with its URL button on Herald's tracked link. */
const trackedSale: TemplateDetail = {
  ...summerSale,
  components: [
    { type: 'BODY', text: 'Autumn is here: see what is new.' },
    {
      type: 'BUTTONS',
      buttons: [{ type: 'URL', text: 'Shop now', url: 'http://localhost:3000/l/{{1}}', example: ['abc123'] }],
    },
  ],
  dynamic_variables: {},
  static_variables: undefined,
};

const destination = () =>
  screen.queryByRole('textbox', { name: 'Link destination' }) as HTMLInputElement | null;
const HINT = 'Where the tracked link button leads. Herald records each recipient’s first click.';

beforeAll(() => NewBroadcastPage.preload());

describe('New broadcast: the link destination of a tracked link', () => {
  it('asks for it for a template with a tracked link, blocks the send without a valid one, and sends it', async () => {
    const { fetchMock } = await renderPage({ links, template: trackedSale });
    expect(destination()).toBeNull();
    fillDetails();
    fireEvent.click(screen.getByRole('checkbox', { name: 'VIP' }));
    const field = await screen.findByRole('textbox', { name: 'Link destination' });
    expect(field.getAttribute('placeholder')).toBe('https://');
    expect(field.hasAttribute('required')).toBe(true);
    expect(screen.getByText(HINT)).toBeTruthy();

    submit();
    expect(screen.getByText(LINK_MESSAGES.destinationRequired)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(field));
    fireEvent.change(field, { target: { value: 'javascript:alert(1)' } });
    expect(screen.getByText(LINK_MESSAGES.destinationInvalid)).toBeTruthy();
    submit();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock.requests().some(isCreate)).toBe(false);

    fireEvent.change(field, { target: { value: ' https://shop.example.com/autumn ' } });
    expect(screen.queryByText(LINK_MESSAGES.destinationInvalid)).toBeNull();
    submit();
    expect(await postedBody(fetchMock)).toEqual({
      name: 'Summer launch',
      template_id: 1,
      recipients: { type: 'filtered', tag_ids: [7], percentage: 55 },
      phone_number_id: '1001',
      spread_over_limit: true,
      leave_out_us_numbers: false,
      link_destination: 'https://shop.example.com/autumn',
    });
    // The estimate takes the audience only: the destination changes no figure.
    for (const body of await estimateBodies(fetchMock)) expect(body).not.toHaveProperty('link_destination');
  });

  it('shows the server’s refusal of the destination under the field', async () => {
    const { fetchMock } = await renderPage({
      links,
      template: trackedSale,
      create: () =>
        json(
          {
            detail: LINK_MESSAGES.destinationInvalid,
            errors: [{ field: 'body.link_destination', message: LINK_MESSAGES.destinationInvalid }],
          },
          400,
        ),
    });
    fillDetails();
    fireEvent.click(screen.getByRole('checkbox', { name: 'VIP' }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Link destination' }), {
      target: { value: 'https://shop.example.com/autumn' },
    });
    submit();
    await postedBody(fetchMock);
    const message = await screen.findByText(LINK_MESSAGES.destinationInvalid);
    const field = destination()!;
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toBe(message.id);
  });

  it('neither asks for it nor sends it for a template without a tracked link', async () => {
    const { fetchMock } = await renderPage({ links });
    fillDetails();
    fireEvent.click(screen.getByRole('checkbox', { name: 'VIP' }));
    // The template's own answer is in (its preview shows) and no field came with it.
    await screen.findByText(/use code SUMMER20/);
    expect(destination()).toBeNull();
    submit();
    expect(await postedBody(fetchMock)).not.toHaveProperty('link_destination');
  });
});
