import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TemplateDetail } from '@herald/contracts';
import { json } from '../../../test/fetch-stub';
import { summerSale } from '../test/broadcast-fixtures';
import {
  fillDetails,
  isCreate,
  postedBody,
  renderPage,
  section,
  submit,
} from '../test/new-broadcast-harness';
import { NewBroadcastPage } from '../../../test/lazy-pages';

// New broadcast's Follow-up: another template, later, to the recipients who did not read, reply or click.

const toggle = () => screen.getByRole('checkbox', { name: 'Send a follow-up' });
const followUpTemplate = () =>
  screen.getByRole('combobox', { name: 'Follow-up template' }) as HTMLSelectElement;
const hours = () => screen.getByRole('spinbutton', { name: 'After (hours)' }) as HTMLInputElement;
const audience = () => screen.getByRole('combobox', { name: 'Send to those who' }) as HTMLSelectElement;
const optionTexts = (select: HTMLSelectElement) => [...select.options].map((option) => option.text);

/** summer_sale with its URL button on Herald's tracked link. */
const links = {
  tracked_link_prefix: 'http://localhost:3000/l/',
  tracked_button_url: 'http://localhost:3000/l/{{1}}',
};
const trackedSale: TemplateDetail = {
  ...summerSale,
  components: [
    { type: 'BODY', text: 'Autumn is here: see what is new.' },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop now', url: links.tracked_button_url }] },
  ],
  dynamic_variables: {},
  static_variables: undefined,
};

/** The broadcast's details and a tag, then 'Send a follow-up' ticked. */
function fillWithFollowUp() {
  fillDetails();
  fireEvent.click(screen.getByRole('checkbox', { name: 'VIP' }));
  fireEvent.click(toggle());
}

beforeAll(() => NewBroadcastPage.preload());

describe('New broadcast: the follow-up', () => {
  it('sends the chosen template, hours and audience, says when it goes, and names it in the confirmation', async () => {
    const { fetchMock } = await renderPage();
    // Nothing of it until ticked.
    expect(within(section('Follow-up')).queryByRole('combobox')).toBeNull();
    fillWithFollowUp();
    // The approved templates, as the broadcast's own select lists them.
    expect(optionTexts(followUpTemplate())).toEqual([
      'Select a template',
      'summer_sale (en_US)',
      'order_update (en)',
    ]);
    expect(hours().value).toBe('24');
    // summer_sale has no tracked link: nobody can be known not to have clicked.
    expect(optionTexts(audience())).toEqual(['did not read it', 'did not reply']);

    fireEvent.change(followUpTemplate(), { target: { value: '3' } });
    fireEvent.change(hours(), { target: { value: '48' } });
    fireEvent.change(audience(), { target: { value: 'replied' } });
    expect(screen.getByTestId('follow-up-hint').textContent).toBe(
      'The follow-up goes 48 hours after this broadcast starts, once it has completed, to the recipients who ' +
        'did not reply. It obeys the frequency cap, the messaging limit and opt-outs of that moment.',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Send Broadcast' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Send this broadcast now?' }));
    expect(dialog.getByTestId('confirm-follow-up').textContent).toBe(
      'order_update after 48 hours to those who did not reply',
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Send Broadcast' }));
    expect((await postedBody(fetchMock)).follow_up).toEqual({
      template_id: 3,
      after_hours: 48,
      unless: 'replied',
    });
  });

  it('sends no follow-up when the box is not ticked, even after one was chosen, nor names one to confirm', async () => {
    const { fetchMock } = await renderPage();
    fillWithFollowUp();
    fireEvent.change(followUpTemplate(), { target: { value: '3' } });
    fireEvent.click(toggle());
    fireEvent.click(screen.getByRole('button', { name: 'Send Broadcast' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Send this broadcast now?' }));
    expect(dialog.queryByTestId('confirm-follow-up')).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: 'Send Broadcast' }));
    expect(await postedBody(fetchMock)).not.toHaveProperty('follow_up');
  });

  it('offers those who did not click only for a template with a tracked link', async () => {
    const { fetchMock } = await renderPage({ links, template: trackedSale });
    fillWithFollowUp();
    await waitFor(() =>
      expect(optionTexts(audience())).toEqual(['did not read it', 'did not reply', 'did not click its link']),
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Link destination' }), {
      target: { value: 'https://shop.example.com/autumn' },
    });
    fireEvent.change(followUpTemplate(), { target: { value: '3' } });
    fireEvent.change(audience(), { target: { value: 'clicked' } });
    submit();
    expect((await postedBody(fetchMock)).follow_up).toEqual({
      template_id: 3,
      after_hours: 24,
      unless: 'clicked',
    });
  });

  it('asks for a template and whole hours from 1 to 720 before sending', async () => {
    const { fetchMock } = await renderPage();
    fillWithFollowUp();
    fireEvent.change(hours(), { target: { value: '721' } });
    submit();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('Choose the follow-up’s template')).toBeTruthy();
    expect(followUpTemplate().getAttribute('aria-invalid')).toBe('true');
    const message = screen.getByText('must be a whole number of hours from 1 to 720');
    expect(hours().getAttribute('aria-describedby')).toBe(message.id);
    // No line saying when it goes while the hours cannot be sent.
    expect(screen.queryByTestId('follow-up-hint')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchMock.requests().some(isCreate)).toBe(false);
  });

  it.each([
    ['follow_up.after_hours', 'must be a whole number of hours from 1 to 720', hours],
    [
      'follow_up.template_id',
      'A follow-up cannot use a template with a tracked link: choose one without',
      followUpTemplate,
    ],
    [
      'follow_up.unless',
      'Only a broadcast with a tracked link knows who clicked: choose read or replied',
      audience,
    ],
  ])('shows the server’s refusal of %s under its field', async (field, refusal, control) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetchMock } = await renderPage({
      create: () => json({ detail: refusal, message: refusal, errors: [{ field, message: refusal }] }, 400),
    });
    fillWithFollowUp();
    fireEvent.change(followUpTemplate(), { target: { value: '3' } });
    submit();
    await postedBody(fetchMock);
    const message = await screen.findByText(refusal);
    expect(control().getAttribute('aria-invalid')).toBe('true');
    expect(control().getAttribute('aria-describedby')).toBe(message.id);
    // Said at the field only, not again above the buttons.
    expect(screen.getAllByText(refusal)).toHaveLength(1);
    await waitFor(() => expect(document.activeElement).toBe(control()));
  });
});
