import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { FLATTENED_VARIABLE_NOTE } from '@herald/contracts';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import { CreateTemplatePage } from '../routes/create-template-page';

const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

// The page itself, without the app's route table, so that what is tested is the form and nothing else.
function renderForm() {
  stubFetch((request) =>
    pathOf(request) === '/recipient/cols'
      ? json(['name', 'email', 'address'])
      : json({ count: 0, currentPage: 1, next: null, previous: null, results: [] }),
  );
  return renderRoute('/t', {
    preloadedState: signedIn,
    routes: [{ path: '/t', element: <CreateTemplatePage /> }],
  });
}

describe('the note beside a variable bound to a contact column', () => {
  it('is shown beside each dynamic variable, and only there, and describes its column select', () => {
    renderForm();
    expect(FLATTENED_VARIABLE_NOTE).toBe(
      'Line breaks, tabs and repeated spaces in this column are sent as single spaces: WhatsApp refuses them in variables.',
    );
    type(screen.getByLabelText('Body Text'), 'Hi {{1}}, your order {{2}} is ready.');
    expect(screen.queryByText(FLATTENED_VARIABLE_NOTE)).toBeNull();

    const row2 = screen.getByRole('group', { name: 'Variable {{2}}' });
    fireEvent.click(within(row2).getByRole('button', { name: 'Dynamic' }));
    const note = within(row2).getByText(FLATTENED_VARIABLE_NOTE);
    const select = within(row2).getByRole('combobox', { name: 'Select a field for {{2}}' });
    expect(select.getAttribute('aria-describedby')).toBe(note.id);
    expect(
      within(screen.getByRole('group', { name: 'Variable {{1}}' })).queryByText(FLATTENED_VARIABLE_NOTE),
    ).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: 'Text' }));
    const header = screen.getByRole('region', { name: 'Header Configuration' });
    type(within(header).getByLabelText('Header Text'), 'For {{1}}');
    expect(within(header).queryByText(FLATTENED_VARIABLE_NOTE)).toBeNull();
    fireEvent.click(within(header).getByRole('checkbox', { name: 'Use dynamic variable' }));
    const headerNote = within(header).getByText(FLATTENED_VARIABLE_NOTE);
    expect(
      within(header)
        .getByRole('combobox', { name: 'Select Customer Parameter' })
        .getAttribute('aria-describedby'),
    ).toBe(headerNote.id);
    expect(screen.getAllByText(FLATTENED_VARIABLE_NOTE)).toHaveLength(2);

    fireEvent.click(within(row2).getByRole('button', { name: 'Static' }));
    expect(screen.getAllByText(FLATTENED_VARIABLE_NOTE)).toHaveLength(1);
  });
});
