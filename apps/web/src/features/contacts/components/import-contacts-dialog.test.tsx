import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { renderWithStore, signedIn } from '../../../test/render-with-store';
import { stubXhr } from '../../../test/xhr-stub';
import type { PreloadedState } from '../../../lib/store';
import { api } from '../../../lib/api';
import { CONTACT_TEMPLATE_CSV } from '../contact-template';
import { ImportContactsDialog } from './import-contacts-dialog';

const account = { waba_id: '111', details: [] };
const withAccount: PreloadedState = {
  ...signedIn,
  waba: { wabaAccounts: [account], selectedWabaAccount: account },
};

function csv(name = 'contacts.csv') {
  return new File(['name,number\nAda,+14155550123\n'], name, { type: 'text/csv' });
}

function open(onClose = vi.fn()) {
  const rendered = renderWithStore(<ImportContactsDialog onClose={onClose} />, {
    preloadedState: withAccount,
  });
  const dialog = screen.getByRole('dialog', { name: 'Import Contacts' });
  return { ...rendered, dialog, onClose };
}

function fill(dialog: HTMLElement, { file, tag }: { file?: File; tag?: string }) {
  if (file) fireEvent.change(within(dialog).getByLabelText('CSV File'), { target: { files: [file] } });
  if (tag !== undefined) fireEvent.change(within(dialog).getByLabelText('Tag'), { target: { value: tag } });
}

const submit = (dialog: HTMLElement) =>
  fireEvent.click(within(dialog).getByRole('button', { name: 'Import Contacts' }));

describe('Import dialog', () => {
  it.each([
    ['no file', {}, 'Please select a CSV file'],
    ['a file not ending in .csv', { file: csv('contacts.xlsx'), tag: 'VIP' }, 'Please upload a CSV file'],
    ['a blank tag', { file: csv(), tag: '   ' }, 'Please enter a tag'],
  ])('with %s says so and sends nothing', (_case, fields, message) => {
    const xhr = stubXhr();
    const { dialog } = open();
    fill(dialog, fields);
    submit(dialog);
    expect(within(dialog).getByRole('alert').textContent).toBe(message);
    expect(xhr.sent()).toHaveLength(0);
  });

  it('offers the template as contact_import_template.csv with the fixed header and 2 sample rows', () => {
    const { dialog } = open();
    const link = within(dialog).getByRole('link', { name: 'Download template' });
    expect(link.getAttribute('download')).toBe('contact_import_template.csv');
    const href = link.getAttribute('href') ?? '';
    expect(href.startsWith('data:text/csv;charset=utf-8,')).toBe(true);
    const content = decodeURIComponent(href.slice('data:text/csv;charset=utf-8,'.length));
    expect(content).toBe(CONTACT_TEMPLATE_CSV);
    const lines = content.trim().split('\r\n');
    expect(lines[0]).toBe('name,number,age,gender,address,post_code,email,tags');
    expect(lines).toHaveLength(3);
    for (const line of lines.slice(1)) expect(line).toMatch(/^[^,]+,\+1\d{3}555\d{4},/);
  });

  it('uploads file and trimmed tag with the session headers, shows progress, then toasts, closes and invalidates', async () => {
    const success = vi.spyOn(toast, 'success');
    const xhr = stubXhr();
    const { dialog, onClose, store } = open();
    const dispatch = vi.spyOn(store, 'dispatch');
    fill(dialog, { file: csv(), tag: '  VIP  ' });
    submit(dialog);

    const request = xhr.last();
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/recipient/import/');
    expect(request?.headers).toEqual({ Authorization: 'Bearer test-access-token', 'X-WABA-ID': '111' });
    const body = request?.body as FormData;
    expect(body.get('tag')).toBe('VIP');
    expect((body.get('file') as File).name).toBe('contacts.csv');

    expect(within(dialog).getByRole('button', { name: 'Importing...' })).toBeTruthy();
    const bar = within(dialog).getByRole('progressbar', { name: 'Upload progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    act(() => request?.progress(40, 100));
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    act(() => request?.progress(100, 100));
    expect(bar.getAttribute('aria-valuenow')).toBe('100');

    await act(async () => request?.respond(201, { created: 2, updated: 1, total: 3, duplicates_in_file: 0 }));
    expect(success).toHaveBeenCalledWith('Contacts imported: 2 added, 1 updated');
    expect(onClose).toHaveBeenCalled();
    expect(dispatch).toHaveBeenCalledWith(api.util.invalidateTags(['Contacts', 'Tags']));
  });

  it("lists each bad row as 'Row {row}: {errors joined by comma}'", async () => {
    const xhr = stubXhr((request) =>
      request.respond(400, {
        detail: '2 rows are invalid; nothing was imported',
        message: {
          errors: [
            { row: 3, errors: ['name is required', 'number is invalid'] },
            { row: 7, errors: ['age must be a whole number from 0 to 150'] },
          ],
        },
      }),
    );
    const { dialog, onClose } = open();
    fill(dialog, { file: csv(), tag: 'VIP' });
    submit(dialog);

    const list = await within(dialog).findByRole('list', { name: 'Import errors' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Row 3: name is required, number is invalid',
      'Row 7: age must be a whole number from 0 to 150',
    ]);
    expect(within(dialog).getByText('2 rows are invalid; nothing was imported')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Import Contacts' })).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect(xhr.sent()).toHaveLength(1);
  });

  it.each([
    [
      {
        detail: 'The file is larger than the 100 MB limit',
        message: 'The file is larger than the 100 MB limit',
      },
      413,
      'The file is larger than the 100 MB limit',
    ],
    [{ detail: 'Only detail' }, 400, 'Only detail'],
    [{}, 500, 'Error importing contacts'],
  ])('shows the answer %j (%i) as one message', async (answer, status, shown) => {
    stubXhr((request) => request.respond(status, answer));
    const { dialog } = open();
    fill(dialog, { file: csv(), tag: 'VIP' });
    submit(dialog);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(shown);
  });

  it("falls back to 'Error importing contacts' when the upload fails on the network", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubXhr((request) => request.fail());
    const { dialog } = open();
    fill(dialog, { file: csv(), tag: 'VIP' });
    submit(dialog);
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Error importing contacts');
  });

  it('cannot be dismissed while importing; Cancel closes it otherwise', () => {
    stubXhr();
    const { dialog, onClose } = open();
    fill(dialog, { file: csv(), tag: 'VIP' });
    submit(dialog);
    expect((within(dialog).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('Import dialog: default country for national numbers', () => {
  function openFor(displayPhoneNumber?: string) {
    const business = {
      waba_id: '222',
      details: displayPhoneNumber
        ? [{ display_name: 'Laden', display_phone_number: displayPhoneNumber }]
        : [],
    };
    renderWithStore(<ImportContactsDialog onClose={vi.fn()} />, {
      preloadedState: { ...signedIn, waba: { wabaAccounts: [business], selectedWabaAccount: business } },
    });
    const dialog = screen.getByRole('dialog', { name: 'Import Contacts' });
    const select = within(dialog).getByLabelText('Default country') as HTMLSelectElement;
    return { dialog, select };
  }

  it.each([
    ['+49 30 12345678', 'DE', 'Germany (+49)'],
    ['+44 20 7946 0958', 'GB', 'United Kingdom (+44)'],
    // The sandbox's numbers are no real line: the calling code's main country.
    ['+1 555 0100', 'US', 'United States (+1)'],
    [undefined, 'US', 'United States (+1)'],
  ])("starts on the business number's country (%s → %s)", (number, code, label) => {
    const { select } = openFor(number);
    expect(select.value).toBe(code);
    expect(select.selectedOptions[0]?.textContent).toBe(label);
    expect(select.getAttribute('aria-describedby')).toBeTruthy();
  });

  it('sends the country shown, or the one the user picks, before the file', async () => {
    const xhr = stubXhr();
    const { dialog, select } = openFor('+49 30 12345678');
    fill(dialog, { file: csv(), tag: 'Kunden' });
    submit(dialog);
    const first = xhr.last()?.body as FormData;
    expect([...first.keys()]).toEqual(['tag', 'default_country', 'file']);
    expect(first.get('default_country')).toBe('DE');
    await act(async () => xhr.last()?.respond(400, { detail: 'Only detail' }));

    fireEvent.change(select, { target: { value: 'AT' } });
    submit(dialog);
    expect(xhr.sent()).toHaveLength(2);
    expect((xhr.last()?.body as FormData).get('default_country')).toBe('AT');
  });
});
