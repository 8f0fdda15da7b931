import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, pathOf } from '../../../test/fetch-stub';
import { ana, contact, estimateAnswer, segments } from '../test/broadcast-fixtures';
import {
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
beforeAll(() => NewBroadcastPage.preload());

const chooser = () => screen.getByRole('combobox', { name: 'Choose a segment' }) as HTMLSelectElement;
const openSegmentTab = () => fireEvent.click(screen.getByRole('tab', { name: 'Segment' }));

describe('New broadcast: a saved segment as the recipients', () => {
  it('sends to the chosen segment at the percentage, in the estimate and the create, and shows its rules', async () => {
    const { fetchMock } = await renderPage({
      segments,
      segmentCount: { matching: 200, reachable: 190 },
      estimate: (body) => estimateAnswer({ recipients: body.recipients?.type === 'segment' ? 88 : 66 }),
    });
    // The two other modes stay as they were, the Segment mode beside them.
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'All Contacts',
      'Filter by Tags',
      'Segment',
    ]);
    // Segments are asked for only once the mode is opened.
    expect(fetchMock.requests().some((r) => pathOf(r) === '/segments/')).toBe(false);
    fillDetails();
    openSegmentTab();
    expect(screen.getByRole('tab', { name: 'Segment' }).getAttribute('aria-selected')).toBe('true');
    const select = await screen.findByRole('combobox', { name: 'Choose a segment' });
    expect([...(select as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'Select a segment',
      'VIP readers',
      'Lapsed',
    ]);
    expect(screen.queryByTestId('segment-rules')).toBeNull();
    expect(within(section('Summary')).getByText('No segment selected')).toBeTruthy();

    fireEvent.change(select, { target: { value: '3' } });
    const rules = screen.getByTestId('segment-rules');
    expect(
      within(rules)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Tags: any of “VIP”', 'AND Read a broadcast in the last 30 days']);
    fireEvent.change(screen.getByRole('slider', { name: 'Percentage of recipients' }), {
      target: { value: '40' },
    });
    expect(within(section('Summary')).getByText('Segment: VIP readers (40%)')).toBeTruthy();
    // The segment's contacts, then the server's count of who receives it.
    expect(await screen.findByText('40% of 200 contacts in the segment')).toBeTruthy();
    await waitFor(() => expect(selected()).toBe('88'));
    await waitFor(() => expect(limitLine()).toContain('88'));
    await waitFor(async () =>
      expect((await estimateBodies(fetchMock)).at(-1)?.recipients).toEqual({
        type: 'segment',
        segment_id: 3,
        percentage: 40,
      }),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Send Broadcast' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Send this broadcast now?' }));
    await waitFor(() =>
      expect(dialog.getByTestId('confirm-recipients').textContent).toBe('88 from Segment: VIP readers (40%)'),
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Send Broadcast' }));
    expect(await postedBody(fetchMock)).toEqual({
      name: 'Summer launch',
      template_id: 1,
      recipients: { type: 'segment', segment_id: 3, percentage: 40 },
      phone_number_id: '1001',
      spread_over_limit: true,
      leave_out_us_numbers: false,
    });
  });

  it('asks to choose a segment before sending, and shows the server’s refusal under the select', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetchMock } = await renderPage({
      segments,
      create: () =>
        json(
          {
            detail: 'Validation failed',
            errors: [{ field: 'body.recipients.segment_id', message: 'Choose a segment' }],
          },
          400,
        ),
    });
    fillDetails();
    openSegmentTab();
    await screen.findByRole('combobox', { name: 'Choose a segment' });
    submit();
    expect(screen.queryByRole('dialog')).toBeNull();
    const message = () => document.getElementById(chooser().getAttribute('aria-describedby') ?? '');
    expect(message()?.textContent).toBe('Choose a segment');
    expect(chooser().getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(chooser()));
    // No segment, nothing to estimate.
    expect((await estimateBodies(fetchMock)).some((body) => body.recipients?.type === 'segment')).toBe(false);
    expect(fetchMock.requests().some(isCreate)).toBe(false);

    fireEvent.change(chooser(), { target: { value: '5' } });
    expect(chooser().getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByTestId('segment-rules').textContent).toBe('Never read a broadcast');
    submit();
    await postedBody(fetchMock);
    // The server's message for the segment goes under the select too.
    await waitFor(() => expect(message()?.textContent).toBe('Choose a segment'));
    expect(chooser().getAttribute('aria-invalid')).toBe('true');
  });

  it("previews the template with the segment's first member, not the account's first contact", async () => {
    const bea = contact(7, { recipient_name: 'Bea Costa', recipient_email: 'bea@example.com' });
    const { fetchMock } = await renderPage({ segments, contacts: [ana], segmentMembers: [bea] });
    fillDetails();
    const preview = within(screen.getByRole('figure', { name: 'Message preview' }));
    expect(await preview.findByText('Dynamic values shown for the first contact, Ana Lima.')).toBeTruthy();
    openSegmentTab();
    fireEvent.change(await screen.findByRole('combobox', { name: 'Choose a segment' }), {
      target: { value: '3' },
    });
    expect(await preview.findByText('Dynamic values shown for the first contact, Bea Costa.')).toBeTruthy();
    expect(preview.getByText('Hello bea@example.com')).toBeTruthy();
    const asked = fetchMock.requests().find((r) => new URL(r.url).searchParams.has('segment_id'));
    const params = new URL(asked!.url).searchParams;
    // What the server's list accepts (its page sizes are 10, 25, 50, 100), and only people it will reach.
    expect(Object.fromEntries(params)).toEqual({
      page: '1',
      page_size: '10',
      segment_id: '3',
      opted_out: 'false',
    });
    // Back to all contacts, the account's first contact again.
    fireEvent.click(screen.getByRole('tab', { name: 'All Contacts' }));
    expect(await preview.findByText('Dynamic values shown for the first contact, Ana Lima.')).toBeTruthy();
  });

  it('links to the segment builder when there is no saved segment', async () => {
    await renderPage({ segments: [] });
    openSegmentTab();
    expect(await screen.findByText(/No saved segments yet\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Build a segment' }).getAttribute('href')).toBe(
      '/customers/segments',
    );
    expect(screen.queryByRole('combobox', { name: 'Choose a segment' })).toBeNull();
  });

  it('moves between the three modes with the arrow keys', async () => {
    await renderPage({ segments });
    const tab = (name: string) => screen.getByRole('tab', { name });
    fireEvent.keyDown(tab('Filter by Tags'), { key: 'ArrowRight' });
    expect(tab('Segment').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab('Segment'));
    fireEvent.keyDown(tab('Segment'), { key: 'ArrowRight' });
    expect(tab('All Contacts').getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tab('All Contacts'), { key: 'ArrowLeft' });
    expect(tab('Segment').getAttribute('aria-selected')).toBe('true');
  });
});
