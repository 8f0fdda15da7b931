import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { FormPreviewSwitch, useFormPreviewPane } from './form-preview-switch';

function PreviewPage() {
  const { pane, setPane, formClass, previewClass } = useFormPreviewPane();
  return (
    <>
      <FormPreviewSwitch pane={pane} onChange={setPane} />
      <div data-testid="form" className={formClass} />
      <aside data-testid="preview" className={previewClass} />
    </>
  );
}

describe('Form / Preview switch', () => {
  it('shows the form first and flips to the preview on phones (classes below lg only)', () => {
    render(<PreviewPage />);
    const show = screen.getByRole('group', { name: 'Show' });
    const form = within(show).getByRole('button', { name: 'Form' });
    const preview = within(show).getByRole('button', { name: 'Preview' });
    expect(form.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('preview').className).toBe('max-lg:hidden');
    expect(screen.getByTestId('form').className).toBe('');
    fireEvent.click(preview);
    expect(preview.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('form').className).toBe('max-lg:hidden');
    expect(screen.getByTestId('preview').className).toBe('');
    expect(show.className).toContain('lg:hidden');
  });
});
