import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { FormField } from './form-field';
import { LiveErrors } from './live-errors';

describe('announced errors', () => {
  it('FormField draws its live region before the error appears, then fills it', () => {
    const { rerender } = render(<FormField label="Name" hint="As customers know you" />);
    const input = screen.getByLabelText('Name');
    const region = input.parentElement?.querySelector('[aria-live="polite"]');
    expect(region?.textContent).toBe('');
    rerender(<FormField label="Name" error="Please enter a name" />);
    expect(input.parentElement?.querySelector('[aria-live="polite"]')).toBe(region);
    expect(region?.textContent).toBe('Please enter a name');
    expect(input.getAttribute('aria-describedby')).toBe(region?.firstElementChild?.id);
  });

  it('LiveErrors says how many fields need attention, and is empty when all is well', () => {
    const { rerender } = render(<LiveErrors count={0} />);
    const region = screen.getByTestId('live-errors');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
    rerender(<LiveErrors count={2} />);
    expect(region.textContent).toBe('2 fields need attention');
    rerender(<LiveErrors count={1} />);
    expect(region.textContent).toBe('1 field needs attention');
  });
});
