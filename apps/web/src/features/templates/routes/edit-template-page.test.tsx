import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import type { TemplateDetail } from '@herald/contracts';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import { listItem } from '../test/template-fixtures';

const detail: TemplateDetail = {
  id: 7,
  template_id: 'meta-7',
  status: 'APPROVED',
  rejected_reason: null,
  name: 'order_ready',
  language: 'en_US',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}', example: { header_text: ['John Doe'] } },
    {
      type: 'BODY',
      text: 'Order {{1}} ships to {{2}} today',
      example: { body_text: [['A-100', 'Springfield']] },
    },
    { type: 'FOOTER', text: 'Thanks!' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'URL', text: 'Track', url: 'https://shop.example.com/t/{{1}}', example: ['A1', 'B2'] },
      ],
    },
  ],
  dynamic_variables: { header_variables: [{ '1': 'name' }], body_variable: { '2': 'city' } },
  static_variables: { body_variable: [{ '1': 'A-100' }] },
  media_url: null,
};

function editServer(
  template: TemplateDetail | Response,
  put: (request: Request) => Response | Promise<Response> = () => json(listItem(7, { status: 'PENDING' })),
) {
  return stubFetch((request) => {
    const path = pathOf(request);
    if (path === '/recipient/cols') return json(['name', 'email', 'city']);
    if (path === '/meta/templates/media/5/')
      return new Response(new Uint8Array([137, 80, 78, 71]), { headers: { 'Content-Type': 'image/png' } });
    if (path === '/meta/templates/7/' && request.method === 'GET')
      return template instanceof Response ? template : json(template);
    if (path === '/meta/templates/7/' && request.method === 'PUT') return put(request);
    return json({ count: 0, currentPage: 1, next: null, previous: null, results: [] });
  });
}

const value = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;

describe('Edit template', () => {
  it("shows 'Loading...', then the stored template in the form, and PUTs the edited payload", async () => {
    const success = vi.spyOn(toast, 'success');
    let release: () => void = () => {};
    const fetchMock = editServer(
      detail,
      () =>
        new Promise<Response>(
          (resolve) => (release = () => resolve(json(listItem(7, { status: 'PENDING' })))),
        ),
    );
    const { router } = renderRoute('/templates/7', { preloadedState: signedIn });
    expect(screen.getByRole('heading', { level: 1, name: 'Edit Template' })).toBeTruthy();
    expect(screen.getByText('Loading...')).toBeTruthy();

    await screen.findByLabelText('Template Name');
    expect(value('Template Name')).toBe('order_ready');
    expect((screen.getByLabelText('Template Name') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Language') as HTMLSelectElement).disabled).toBe(true);
    expect(value('Category')).toBe('UTILITY');
    expect((screen.getByRole('radio', { name: 'Text' }) as HTMLInputElement).checked).toBe(true);
    expect(value('Header Text')).toBe('Hello {{1}}');
    expect((screen.getByRole('checkbox', { name: 'Use dynamic variable' }) as HTMLInputElement).checked).toBe(
      true,
    );
    await waitFor(() => expect(value('Select Customer Parameter')).toBe('name'));
    expect(value('Body Text')).toBe('Order {{1}} ships to {{2}} today');
    expect(value('Value for {{1}} (Required)')).toBe('A-100');
    expect(value('Select a field for {{2}}')).toBe('city');
    expect(value('Custom example for {{2}}')).toBe('Springfield');
    expect(screen.getByText('Variables: 2/10')).toBeTruthy();
    expect(value('Footer Text')).toBe('Thanks!');
    const button = screen.getByRole('group', { name: 'Button 1' });
    expect((within(button).getByLabelText('Website URL') as HTMLInputElement).value).toBe(
      'https://shop.example.com/t/{{1}}',
    );
    expect((within(button).getByLabelText('Example Values') as HTMLInputElement).value).toBe('A1, B2');
    expect(screen.getByTestId('preview-body').textContent).toBe('Order A-100 ships to Springfield today');

    fireEvent.change(screen.getByLabelText('Footer Text'), { target: { value: 'Thank you!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Template' }));
    expect(await screen.findByRole('button', { name: 'Updating Template...' })).toBeTruthy();
    await act(async () => release());
    await waitFor(() => expect(router.state.location.pathname).toBe('/template'));
    expect(success).toHaveBeenCalledWith('Template updated successfully!');

    const put = fetchMock.requests().find((r) => r.method === 'PUT')!;
    expect(pathOf(put)).toBe('/meta/templates/7/');
    const form = await put.formData();
    expect(form.get('header_file')).toBeNull();
    expect(JSON.parse(String(form.get('template_data')))).toEqual({
      name: 'order_ready',
      language: 'en_US',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}', example: { header_text: ['John Doe'] } },
        {
          type: 'BODY',
          text: 'Order {{1}} ships to {{2}} today',
          example: { body_text: [['A-100', 'Springfield']] },
        },
        { type: 'FOOTER', text: 'Thank you!' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'URL', text: 'Track', url: 'https://shop.example.com/t/{{1}}', example: ['A1', 'B2'] },
          ],
        },
      ],
      dynamic_variables: { header_variable: { '1': 'name' }, body_variable: { '2': 'city' } },
      static_variables: { body_variable: [{ '1': 'A-100' }] },
    });
  });

  it("toasts 'Error updating template' with the Cloud API's refusal and stays", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = vi.spyOn(toast, 'error');
    const message = 'WhatsApp Cloud API: Template is pending review and cannot be edited';
    editServer(detail, () =>
      json({ detail: message, message, errors: [{ field: 'template_data', message }] }, 400),
    );
    const { router } = renderRoute('/templates/7', { preloadedState: signedIn });
    fireEvent.click(await screen.findByRole('button', { name: 'Update Template' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith(`Error updating template: ${message}`));
    expect(screen.getByRole('alert').textContent).toBe(message);
    expect(router.state.location.pathname).toBe('/templates/7');
  });

  it("toasts 'Failed to load template' when the template cannot be read", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = vi.spyOn(toast, 'error');
    editServer(json({ detail: 'Template not found', message: 'Template not found' }, 404));
    renderRoute('/templates/7', { preloadedState: signedIn });
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to load template'));
    expect(screen.queryByText('Loading...')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to templates' }).getAttribute('href')).toBe('/template');
  });

  it('previews the stored media, fetched with the bearer token, and keeps it when no new file is chosen', async () => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:stored-image');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const fetchMock = editServer({
      ...detail,
      template_id: null,
      status: 'DRAFT',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'New shoes are in!' },
      ],
      dynamic_variables: {},
      static_variables: {},
      media_url: '/meta/templates/media/5/',
    });
    const { router } = renderRoute('/templates/7', { preloadedState: signedIn });
    const image = await screen.findByRole('img', { name: 'Header image preview' });
    expect(image.getAttribute('src')).toBe('blob:stored-image');
    const media = fetchMock.requests().find((r) => pathOf(r) === '/meta/templates/media/5/')!;
    expect(media.headers.get('authorization')).toBe('Bearer test-access-token');
    expect((screen.getByLabelText('Template Name') as HTMLInputElement).disabled).toBe(false);
    expect(screen.getByText('The current file is kept unless you choose another.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Update Template' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/template'));
    const form = await fetchMock
      .requests()
      .find((r) => r.method === 'PUT')!
      .formData();
    expect(form.get('header_file')).toBeNull();
    expect(JSON.parse(String(form.get('template_data'))).components[0]).toEqual({
      type: 'HEADER',
      format: 'IMAGE',
    });
  });

  it('a template Meta locked says so before any edit, with Submit off; a rejected one says why', async () => {
    editServer({
      ...detail,
      locked: true,
      pending_category: { category: 'MARKETING', effective_at: '2026-12-01T00:00:00.000Z' },
    });
    const { unmount } = renderRoute('/templates/7', { preloadedState: signedIn });
    const notice = await screen.findByRole('status', { name: 'What Meta said of this template' });
    expect(notice.textContent).toContain('Locked by Meta: can be sent, cannot be edited');
    expect(notice.textContent).toContain('Category changes to MARKETING on Dec 1, 2026');
    const submit = screen.getByRole('button', { name: /Submit|Update|Save/ }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(submit.getAttribute('aria-describedby')).toBeTruthy();
    unmount();

    editServer({
      ...detail,
      status: 'REJECTED',
      rejected_reason: 'INVALID_FORMAT',
      rejection_info: { reason: 'A variable ends the body.', recommendation: 'Add words after it.' },
    });
    renderRoute('/templates/7', { preloadedState: signedIn });
    const rejected = await screen.findByRole('status', { name: 'What Meta said of this template' });
    expect(rejected.textContent).toContain('Rejected by Meta: change it and submit it again.');
    expect(rejected.textContent).toContain('INVALID_FORMAT');
    expect(rejected.textContent).toContain('Add words after it.');
    await screen.findByLabelText('Template Name');
    expect((screen.getByRole('button', { name: /Submit|Update|Save/ }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('keeps what Meta takes of a maximum price: changeable once set, not added to a submitted template without one', async () => {
    const marketing: TemplateDetail = { ...detail, category: 'MARKETING', max_price_bid_amount: 2_500 };
    editServer(marketing);
    const { unmount } = renderRoute('/templates/7', { preloadedState: signedIn });
    const field = (await screen.findByLabelText(
      'Maximum price per delivered message (USD)',
    )) as HTMLInputElement;
    expect(field.value).toBe('0.025');
    expect(field.disabled).toBe(false);
    expect(screen.getByText(/It can be changed, not removed\./)).toBeTruthy();
    // The template's clicks are on its page (an answer the stub does not shape reads as unreadable).
    expect(await screen.findByRole('region', { name: 'Clicks' })).toBeTruthy();
    unmount();

    editServer({ ...marketing, max_price_bid_amount: null });
    renderRoute('/templates/7', { preloadedState: signedIn });
    const none = (await screen.findByLabelText(
      'Maximum price per delivered message (USD)',
    )) as HTMLInputElement;
    expect(none.disabled).toBe(true);
    expect(screen.getByText(/WhatsApp takes a maximum price only when a template is created/)).toBeTruthy();
  });
});
