import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import { listItem } from '../test/template-fixtures';
import { multipartOf } from '../../../test/bodies';

const COLUMNS = ['name', 'whatsapp_number', 'email', 'city'];

/** The API the form talks to: the customer columns, and `save` for POST /meta/templates/. */
function templatesServer(
  save: (request: Request) => Response | Promise<Response> = () => json(listItem(9), 201),
) {
  return stubFetch((request) => {
    if (pathOf(request) === '/recipient/cols') return json(COLUMNS);
    if (pathOf(request) === '/meta/templates/' && request.method === 'POST') return save(request);
    return json({ count: 0, currentPage: 1, next: null, previous: null, results: [] });
  });
}

function renderCreate() {
  return renderRoute('/template/create-template', { preloadedState: signedIn });
}

const region = (name: string) => screen.getByRole('region', { name });
const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });
const value = (element: HTMLElement) => (element as HTMLInputElement).value;

function bodyBox() {
  return screen.getByLabelText('Body Text');
}

function payloadShown(): unknown {
  return JSON.parse(screen.getByLabelText('Template payload JSON').textContent ?? '');
}

async function templateDataOf(request: Request) {
  const form = await multipartOf(request);
  return {
    data: JSON.parse(form.get('template_data')!.text) as unknown,
    file: form.get('header_file') ?? null,
  };
}

describe('Create template: configuration', () => {
  it('starts at MARKETING, en_US and No Header, and normalises the name as typed', async () => {
    templatesServer();
    renderCreate();
    expect(screen.getByRole('heading', { level: 1, name: 'Create Template' })).toBeTruthy();
    expect(value(screen.getByLabelText('Category'))).toBe('MARKETING');
    expect(value(screen.getByLabelText('Language'))).toBe('en_US');
    expect((screen.getByRole('radio', { name: 'No Header' }) as HTMLInputElement).checked).toBe(true);
    expect(
      within(region('Header Configuration'))
        .getAllByRole('radio')
        .map((r) => r.parentElement?.textContent),
    ).toEqual(['No Header', 'Text', 'Image', 'Video', 'Document', 'Location']);

    const name = screen.getByLabelText('Template Name');
    type(name, 'Summer Sale Now');
    expect(value(name)).toBe('summer_sale_now');
    expect(screen.queryByText('Only lowercase letters and underscores are allowed')).toBeNull();
    type(name, 'Sale-2');
    expect(value(name)).toBe('sale-2');
    expect(screen.getByText('Only lowercase letters and underscores are allowed')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save Template' })).toBeTruthy();
  });
});

describe('Create template: header variable', () => {
  it('adds and removes the header variable; typing {{n}} makes it {{1}}; deleting it removes the value', async () => {
    templatesServer();
    renderCreate();
    fireEvent.click(screen.getByRole('radio', { name: 'Text' }));
    const header = region('Header Configuration');
    const text = within(header).getByPlaceholderText('Header text (use {{1}} for variable)');
    type(text, 'Hello ');

    fireEvent.click(within(header).getByRole('button', { name: 'Add Variable' }));
    expect(value(text)).toBe('Hello {{1}}');
    const input = within(header).getByLabelText('Value for {{1}}');
    expect(within(header).getByText('Variable value is required')).toBeTruthy();
    expect(within(header).queryByRole('button', { name: 'Add Variable' })).toBeNull();
    type(input, 'Ada');
    expect(within(header).queryByText('Variable value is required')).toBeNull();

    fireEvent.click(within(header).getByRole('button', { name: 'Remove header variable' }));
    expect(value(text)).toBe('Hello ');
    expect(within(header).queryByLabelText('Value for {{1}}')).toBeNull();

    type(text, 'Hi {{3}} and {{5}}');
    expect(value(text)).toBe('Hi {{1}} and ');
    expect(value(within(header).getByLabelText('Value for {{1}}'))).toBe('');
    type(text, 'Hi  and ');
    expect(within(header).queryByLabelText('Value for {{1}}')).toBeNull();

    type(text, 'Hi {{1');
    expect(within(header).getByText('Please complete the variable format: {{1}}')).toBeTruthy();
  });

  it('switches the variable to a customer column, preselecting the column the value names', async () => {
    templatesServer();
    renderCreate();
    fireEvent.click(screen.getByRole('radio', { name: 'Text' }));
    const header = region('Header Configuration');
    const text = within(header).getByLabelText('Header Text');
    type(text, 'Hi {{1}}');
    type(within(header).getByLabelText('Value for {{1}}'), 'email');
    // The columns must have arrived for the preselection.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });

    fireEvent.click(within(header).getByRole('checkbox', { name: 'Use dynamic variable' }));
    const select = await within(header).findByRole('combobox', { name: 'Select Customer Parameter' });
    await waitFor(() =>
      expect([...(select as HTMLSelectElement).options].map((o) => o.text)).toEqual([
        'Select Customer Parameter',
        ...COLUMNS,
      ]),
    );
    expect(value(select)).toBe('email');
    fireEvent.change(select, { target: { value: 'city' } });
    expect(payloadShown()).toMatchObject({ dynamic_variables: { header_variable: { '1': 'city' } } });

    // Dynamic with no marker yet: checking adds it, and 'Add Variable' stays hidden.
    fireEvent.click(within(header).getByRole('checkbox', { name: 'Use dynamic variable' }));
    type(text, 'Welcome');
    fireEvent.click(within(header).getByRole('checkbox', { name: 'Use dynamic variable' }));
    expect(value(text)).toBe('Welcome{{1}}');
    expect(within(header).queryByRole('button', { name: 'Add Variable' })).toBeNull();
  });

  it('shows Location Name and Address for a location header', () => {
    templatesServer();
    renderCreate();
    fireEvent.click(screen.getByRole('radio', { name: 'Location' }));
    type(screen.getByLabelText('Location Name'), 'Main store');
    type(screen.getByLabelText('Address'), '1 High St');
    expect(payloadShown()).toMatchObject({
      components: [
        {
          type: 'HEADER',
          format: 'LOCATION',
          example: { location: { name: 'Main store', address: '1 High St' } },
        },
        { type: 'BODY', text: '' },
      ],
    });
  });

  it('strips the forbidden characters of the document name as typed and shows the hint', () => {
    templatesServer();
    renderCreate();
    fireEvent.click(screen.getByRole('radio', { name: 'Document' }));
    expect(screen.getByText('PDF, DOC, DOCX up to 100MB')).toBeTruthy();
    expect(screen.getByText('Cannot contain special characters like /:*?"<>|')).toBeTruthy();
    const name = screen.getByLabelText('Document Name');
    type(name, 'price/list:2025?(final)!.pdf');
    expect(value(name)).toBe('pricelist2025final.pdf');
    const upload = screen.getByLabelText('Click to upload or drag and drop');
    expect(upload.getAttribute('accept')).toBe('image/*,video/*,.pdf,.doc,.docx,.txt');
  });
});

describe('Create template: body and its variables', () => {
  it("counts the variables and turns 'Add Variable' into a disabled 'Max Variables' at 10", () => {
    templatesServer();
    renderCreate();
    const body = region('Body Content');
    expect(within(body).getByText('Configure your message body and variables')).toBeTruthy();
    expect(within(body).getByText('Required')).toBeTruthy();
    expect(within(body).getByText('Variables: 0/10')).toBeTruthy();
    for (let i = 0; i < 10; i++) fireEvent.click(within(body).getByRole('button', { name: 'Add Variable' }));
    expect(within(body).queryByText('Required')).toBeNull();
    expect(value(bodyBox())).toBe('{{1}}{{2}}{{3}}{{4}}{{5}}{{6}}{{7}}{{8}}{{9}}{{10}}');
    expect(within(body).getByText('Variables: 10/10')).toBeTruthy();
    const max = within(body).getByRole('button', { name: 'Max Variables' }) as HTMLButtonElement;
    expect(max.disabled).toBe(true);
    expect(within(body).getByText('Variable Configuration')).toBeTruthy();
    expect(within(body).getByLabelText('Value for {{10}} (Required)')).toBeTruthy();
    expect(within(body).getAllByText('Variable value is required')).toHaveLength(10);
    const row = within(body).getByRole('group', { name: 'Variable {{1}}' });
    expect(row.className).toMatch(/border-red-400/);
  });

  it('renumbers with a notice that vanishes after 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      templatesServer();
      renderCreate();
      type(bodyBox(), 'Hi {{1}}, your order {{3}} is ready');
      expect(value(bodyBox())).toBe('Hi {{1}}, your order {{2}} is ready');
      expect(screen.getByRole('status').textContent).toBe(
        'Variables must be sequential. Automatically fixing...',
      );
      await act(async () => {
        await vi.advanceTimersByTimeAsync(2900);
      });
      expect(screen.queryByText('Variables must be sequential. Automatically fixing...')).toBeTruthy();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(200);
      });
      expect(screen.queryByText('Variables must be sequential. Automatically fixing...')).toBeNull();

      type(bodyBox(), 'Hi {{1}} and {{12}}');
      expect(value(bodyBox())).toBe('Hi {{1}} and {{2}}');
      expect(screen.getByRole('status').textContent).toBe(
        'Variable numbers cannot exceed 10. Converting to sequential numbering...',
      );
      await act(async () => {
        await vi.advanceTimersByTimeAsync(3000);
      });
      expect(screen.queryByRole('status')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('moves values with their markers when renumbering, and deleting a variable renumbers the later ones', () => {
    templatesServer();
    renderCreate();
    type(bodyBox(), 'A {{1}} B {{2}} C {{3}}');
    type(screen.getByLabelText('Value for {{1}} (Required)'), 'a');
    type(screen.getByLabelText('Value for {{2}} (Required)'), 'b');
    type(screen.getByLabelText('Value for {{3}} (Required)'), 'c');

    fireEvent.click(screen.getByRole('button', { name: 'Delete variable {{2}}' }));
    expect(value(bodyBox())).toBe('A {{1}} B  C {{2}}');
    expect(value(screen.getByLabelText('Value for {{1}} (Required)'))).toBe('a');
    expect(value(screen.getByLabelText('Value for {{2}} (Required)'))).toBe('c');
    expect(screen.queryByLabelText('Value for {{3}} (Required)')).toBeNull();
    expect(screen.getByText('Variables: 2/10')).toBeTruthy();

    // Typing the first marker away: {{2}} becomes {{1}} and keeps its value.
    type(bodyBox(), 'A  B  C {{2}}');
    expect(value(bodyBox())).toBe('A  B  C {{1}}');
    expect(value(screen.getByLabelText('Value for {{1}} (Required)'))).toBe('c');
  });

  it('toggles a variable to Dynamic with a customer column and back, keeping the typed text', async () => {
    templatesServer();
    renderCreate();
    type(bodyBox(), 'Hi {{1}}');
    type(screen.getByLabelText('Value for {{1}} (Required)'), 'Ada');
    const row = screen.getByRole('group', { name: 'Variable {{1}}' });
    fireEvent.click(within(row).getByRole('button', { name: 'Dynamic' }));
    expect(within(row).getByRole('button', { name: 'Dynamic' }).getAttribute('aria-pressed')).toBe('true');
    const select = within(row).getByRole('combobox', { name: 'Select a field for {{1}}' });
    expect(within(row).getByText('Select a field', { selector: 'p' })).toBeTruthy();
    await waitFor(() => expect((select as HTMLSelectElement).options).toHaveLength(COLUMNS.length + 1));
    fireEvent.change(select, { target: { value: 'city' } });
    expect(within(row).queryByText('Select a field', { selector: 'p' })).toBeNull();
    expect(screen.getByTestId('preview-body').textContent).toBe('Hi city example');
    expect(payloadShown()).toMatchObject({
      components: [{ type: 'BODY', text: 'Hi {{1}}', example: { body_text: [['city example']] } }],
      dynamic_variables: { body_variable: { '1': 'city' } },
      static_variables: {},
    });

    fireEvent.change(within(row).getByRole('combobox', { name: 'Example for {{1}}' }), {
      target: { value: 'custom' },
    });
    type(within(row).getByLabelText('Custom example for {{1}}'), 'Springfield');
    expect(screen.getByTestId('preview-body').textContent).toBe('Hi Springfield');

    fireEvent.click(within(row).getByRole('button', { name: 'Static' }));
    expect(value(within(row).getByLabelText('Value for {{1}} (Required)'))).toBe('Ada');
  });
});

describe('Create template: buttons', () => {
  it('alerts on a second phone number button and a third URL button', () => {
    templatesServer();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    renderCreate();
    const section = region('Interactive Buttons');
    fireEvent.click(within(section).getByRole('button', { name: 'Add Phone Number' }));
    fireEvent.click(within(section).getByRole('button', { name: 'Add Phone Number' }));
    expect(alert).toHaveBeenLastCalledWith('Only one phone number button allowed');
    fireEvent.click(within(section).getByRole('button', { name: 'Add URL' }));
    fireEvent.click(within(section).getByRole('button', { name: 'Add URL' }));
    expect(alert).toHaveBeenCalledTimes(1);
    fireEvent.click(within(section).getByRole('button', { name: 'Add URL' }));
    expect(alert).toHaveBeenLastCalledWith('Maximum 2 URL buttons allowed');
    expect(within(section).getAllByRole('group')).toHaveLength(3);

    for (let i = 0; i < 7; i++)
      fireEvent.click(within(section).getByRole('button', { name: 'Add Quick Reply' }));
    expect(within(section).getAllByRole('group')).toHaveLength(10);
    fireEvent.click(within(section).getByRole('button', { name: 'Add Quick Reply' }));
    expect(alert).toHaveBeenLastCalledWith('Maximum 10 buttons allowed');
    fireEvent.click(within(section).getByRole('button', { name: 'Remove Button 1' }));
    expect(within(section).getAllByRole('group')).toHaveLength(9);
  });

  it('makes a URL dynamic with {{1}} at its end and comma-separated examples; text is capped at 25', () => {
    templatesServer();
    renderCreate();
    fireEvent.click(screen.getByRole('button', { name: 'Add URL' }));
    const button = screen.getByRole('group', { name: 'Button 1' });
    expect(within(button).getByLabelText('Button Text').getAttribute('maxLength')).toBe('25');
    type(within(button).getByLabelText('Button Text'), 'Track order');
    type(within(button).getByLabelText('Website URL'), 'https://shop.example.com/track/');
    fireEvent.click(within(button).getByRole('checkbox', { name: 'Dynamic URL' }));
    expect(value(within(button).getByLabelText('Website URL'))).toBe('https://shop.example.com/track/{{1}}');
    type(within(button).getByLabelText('Example Values'), 'A1, B2,,');
    expect(payloadShown()).toMatchObject({
      components: [
        { type: 'BODY' },
        {
          type: 'BUTTONS',
          buttons: [
            {
              type: 'URL',
              text: 'Track order',
              url: 'https://shop.example.com/track/{{1}}',
              example: ['A1', 'B2'],
            },
          ],
        },
      ],
    });
    fireEvent.click(within(button).getByRole('checkbox', { name: 'Dynamic URL' }));
    expect(value(within(button).getByLabelText('Website URL'))).toBe('https://shop.example.com/track/');
    expect(within(button).queryByLabelText('Example Values')).toBeNull();
  });
});

describe('Create template: preview', () => {
  it('names the business at the top of the chat, as its customers see it', () => {
    templatesServer();
    const account = { waba_id: '111', details: [{ display_name: 'Crumb & Co' }] };
    renderRoute('/template/create-template', {
      preloadedState: { ...signedIn, waba: { wabaAccounts: [account], selectedWabaAccount: account } },
    });
    const preview = screen.getByRole('figure', { name: 'Template preview' });
    expect(within(preview).getByTestId('preview-sender').textContent).toBe('Crumb & Co');
    expect(within(preview).queryByText('profile')).toBeNull();
  });

  it("shows 'profile' until the account has a named number, '8:00 AM', the sample values, typed values, the footer and the buttons", () => {
    templatesServer();
    renderCreate();
    const preview = screen.getByRole('figure', { name: 'Template preview' });
    expect(within(preview).getByText('profile')).toBeTruthy();
    expect(within(preview).getByText('8:00 AM')).toBeTruthy();
    type(bodyBox(), 'Hi {{1}}, call {{2}} at {{3}} on {{4}}');
    expect(screen.getByTestId('preview-body').textContent).toBe(
      'Hi Customer, call +1 555 123 4567 at 123 Main Street, Springfield on January 15, 2025',
    );
    type(screen.getByLabelText('Value for {{1}} (Required)'), 'Ada');
    expect(screen.getByTestId('preview-body').textContent).toMatch(/^Hi Ada, call/);
    type(screen.getByLabelText('Footer Text'), 'Reply STOP to opt out');
    expect(screen.getByTestId('preview-footer').textContent).toBe('Reply STOP to opt out');
    fireEvent.click(screen.getByRole('radio', { name: 'Text' }));
    type(screen.getByLabelText('Header Text'), 'Order {{1}}');
    expect(within(preview).getByText('Order Customer')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add Quick Reply' }));
    type(within(screen.getByRole('group', { name: 'Button 1' })).getByLabelText('Button Text'), 'Stop');
    expect(within(preview).getByText('Stop')).toBeTruthy();
  });
});

describe('Create template: submit', () => {
  function fillTextTemplate() {
    type(screen.getByLabelText('Template Name'), 'Order Ready');
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'UTILITY' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Text' }));
    type(screen.getByLabelText('Header Text'), 'Hello {{1}}');
    type(screen.getByLabelText('Value for {{1}}'), 'Ada');
    type(bodyBox(), 'Your order {{1}} ships to {{2}} today');
    type(screen.getByLabelText('Value for {{1}} (Required)'), 'A-100');
    const row2 = screen.getByRole('group', { name: 'Variable {{2}}' });
    fireEvent.click(within(row2).getByRole('button', { name: 'Dynamic' }));
    fireEvent.change(within(row2).getByRole('combobox', { name: 'Select a field for {{2}}' }), {
      target: { value: 'city' },
    });
    type(screen.getByLabelText('Footer Text'), 'Thanks!');
    fireEvent.click(screen.getByRole('button', { name: 'Add Quick Reply' }));
    type(within(screen.getByRole('group', { name: 'Button 1' })).getByLabelText('Button Text'), 'Got it');
    fireEvent.click(screen.getByRole('button', { name: 'Add Phone Number' }));
    const phone = screen.getByRole('group', { name: 'Button 2' });
    type(within(phone).getByLabelText('Button Text'), 'Call us');
    type(within(phone).getByLabelText('Phone Number'), '+14155550123');
  }

  const expectedTextPayload = {
    name: 'order_ready',
    language: 'en_US',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}', example: { header_text: ['Ada'] } },
      {
        type: 'BODY',
        text: 'Your order {{1}} ships to {{2}} today',
        example: { body_text: [['A-100', 'city example']] },
      },
      { type: 'FOOTER', text: 'Thanks!' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Got it' },
          { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+14155550123' },
        ],
      },
    ],
    dynamic_variables: { body_variable: { '2': 'city' } },
    static_variables: { header_variable: [{ '1': 'Ada' }], body_variable: [{ '1': 'A-100' }] },
  };

  it('shows the exact payload as JSON, posts it as template_data, toasts and goes to /template', async () => {
    const success = vi.spyOn(toast, 'success');
    let release: () => void = () => {};
    const fetchMock = templatesServer(
      () => new Promise<Response>((resolve) => (release = () => resolve(json(listItem(9), 201)))),
    );
    const { router } = renderCreate();
    await waitFor(() => expect(fetchMock.requests().some((r) => pathOf(r) === '/recipient/cols')).toBe(true));
    fillTextTemplate();
    expect(payloadShown()).toEqual(expectedTextPayload);

    fireEvent.click(screen.getByRole('button', { name: 'Save Template' }));
    const busy = await screen.findByRole('button', { name: 'Saving Template .....' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    await act(async () => release());
    await waitFor(() => expect(router.state.location.pathname).toBe('/template'));
    expect(success).toHaveBeenCalledWith('Template saved successfully!');

    const post = fetchMock.requests().find((r) => r.method === 'POST')!;
    expect(pathOf(post)).toBe('/meta/templates/');
    expect(post.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(post.headers.get('authorization')).toBe('Bearer test-access-token');
    const { data, file } = await templateDataOf(post);
    expect(data).toEqual(expectedTextPayload);
    expect(file).toBeNull();
  });

  it('sends the chosen image as header_file and previews it', async () => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:chosen-image');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    // The file part is checked where the app adds it: under jsdom, Node 24's Request cannot serialise jsdom's
    // File (another realm), though a browser, with one realm, sends what was appended.
    const appended = vi.spyOn(FormData.prototype, 'append');
    const fetchMock = templatesServer();
    const { router } = renderCreate();
    type(screen.getByLabelText('Template Name'), 'new_arrivals');
    fireEvent.click(screen.getByRole('radio', { name: 'Image' }));
    expect(screen.getByText('PNG, JPG, GIF up to 10MB')).toBeTruthy();
    const image = new File([new Uint8Array([137, 80, 78, 71])], 'shoes.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('Click to upload or drag and drop'), {
      target: { files: [image] },
    });
    expect(screen.getByTestId('chosen-file').textContent).toBe('shoes.png');
    expect(screen.getByRole('img', { name: 'Header image preview' }).getAttribute('src')).toBe(
      'blob:chosen-image',
    );
    type(bodyBox(), 'New shoes are in!');

    fireEvent.click(screen.getByRole('button', { name: 'Save Template' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/template'));
    const { data } = await templateDataOf(fetchMock.requests().find((r) => r.method === 'POST')!);
    expect(data).toEqual({
      name: 'new_arrivals',
      language: 'en_US',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'New shoes are in!' },
      ],
      dynamic_variables: {},
      static_variables: {},
    });
    const fileParts = appended.mock.calls.filter(([name]) => name === 'header_file');
    expect(fileParts).toHaveLength(1);
    expect(fileParts[0]![1]).toBe(image);
  });

  it('takes a file dropped on the upload area', () => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:dropped');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    templatesServer();
    renderCreate();
    fireEvent.click(screen.getByRole('radio', { name: 'Video' }));
    const video = new File(['v'], 'clip.mp4', { type: 'video/mp4' });
    const area = screen.getByText('Click to upload or drag and drop').closest('label')!;
    fireEvent.dragOver(area, { dataTransfer: { files: [video] } });
    fireEvent.drop(area, { dataTransfer: { files: [video] } });
    expect(screen.getByTestId('chosen-file').textContent).toBe('clip.mp4');
    expect(screen.getByLabelText('Header video preview').getAttribute('src')).toBe('blob:dropped');
  });

  it('checks the payload before sending and shows the messages next to the fields', () => {
    const fetchMock = templatesServer();
    renderCreate();
    fireEvent.click(screen.getByRole('radio', { name: 'Image' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save Template' }));
    expect(screen.getByText('Please correct the highlighted fields before saving.')).toBeTruthy();
    expect(screen.getByText('Template name is required')).toBeTruthy();
    expect(screen.getByText('Body text is required')).toBeTruthy();
    expect(screen.getByText('Please upload a file for the header')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Template Name'));
    expect(fetchMock.requests().some((r) => r.method === 'POST')).toBe(false);
  });

  it("toasts 'Error saving template:' with the server's message and shows its field error", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = vi.spyOn(toast, 'error');
    const message = 'A template with this name and language already exists';
    templatesServer(() => json({ detail: message, message, errors: [{ field: 'name', message }] }, 409));
    const { router } = renderCreate();
    type(screen.getByLabelText('Template Name'), 'summer_sale');
    type(bodyBox(), 'Hello');
    fireEvent.click(screen.getByRole('button', { name: 'Save Template' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith(`Error saving template: ${message}`));
    expect(screen.getByText(message)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/template/create-template');
    expect(screen.getByRole('button', { name: 'Save Template' })).toBeTruthy();
  });
});
