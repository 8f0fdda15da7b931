import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { utcOffsetLabel } from '../lib/time-zone';
import { DateTimePicker } from './date-time-picker';

function Harness({ onChange, max }: { onChange: (value: Date) => void; max?: Date }) {
  const [value, setValue] = useState<Date | null>(null);
  return (
    <DateTimePicker
      label="Scheduled date and time"
      value={value}
      max={max}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

function renderPicker(max?: Date) {
  const onChange = vi.fn<(value: Date) => void>();
  render(<Harness onChange={onChange} max={max} />);
  return { onChange, last: () => onChange.mock.lastCall?.[0] };
}

const tab = (name: 'Date' | 'Time') => screen.getByRole('tab', { name });
const pressed = (name: string) => screen.getByRole('button', { name }).getAttribute('aria-pressed');

describe('DateTimePicker', () => {
  beforeEach(() => {
    // Only Date is faked: "today" is Wednesday 2026-11-25, 10:30 local time.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 25, 10, 30));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the month with days before today disabled, and moves to the time tab when a day is picked', () => {
    const { last } = renderPicker();
    expect(tab('Date').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('November 2026')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'November 24, 2026' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect((screen.getByRole('button', { name: 'November 25, 2026' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    expect((screen.getByRole('button', { name: 'Previous month' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'November 27, 2026' }));
    expect(tab('Time').getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByRole('button', { name: 'November 27, 2026' })).toBeNull();
    // A new pick starts at 12:00 AM.
    expect(last()).toEqual(new Date(2026, 10, 27, 0, 0));
    expect((screen.getByRole('textbox', { name: 'Hour' }) as HTMLInputElement).value).toBe('12');
    expect((screen.getByRole('textbox', { name: 'Minute' }) as HTMLInputElement).value).toBe('00');
    expect(pressed('AM')).toBe('true');
    expect(screen.getByText(/Fri, Nov 27, 2026, 12:00\sAM/)).toBeTruthy();
  });

  it('pages months and disables days after the maximum', () => {
    renderPicker(new Date(2026, 11, 10));
    fireEvent.click(screen.getByRole('button', { name: 'Next month' }));
    expect(screen.getByText('December 2026')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'December 10, 2026' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    expect((screen.getByRole('button', { name: 'December 11, 2026' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect((screen.getByRole('button', { name: 'Next month' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous month' }));
    expect(screen.getByText('November 2026')).toBeTruthy();
  });

  it('sets quick times, minutes from the 5-minute grid and AM/PM', () => {
    const { last } = renderPicker();
    fireEvent.click(screen.getByRole('button', { name: 'November 30, 2026' }));

    fireEvent.click(screen.getByRole('button', { name: '5:00 PM' }));
    expect(last()).toEqual(new Date(2026, 10, 30, 17, 0));
    expect(pressed('5:00 PM')).toBe('true');
    expect(pressed('PM')).toBe('true');

    const grid = screen.getAllByRole('button', { name: /^:\d\d$/ }).map((b) => b.textContent);
    expect(grid).toEqual([
      ':00',
      ':05',
      ':10',
      ':15',
      ':20',
      ':25',
      ':30',
      ':35',
      ':40',
      ':45',
      ':50',
      ':55',
    ]);
    fireEvent.click(screen.getByRole('button', { name: ':45' }));
    expect(last()).toEqual(new Date(2026, 10, 30, 17, 45));
    expect(pressed(':45')).toBe('true');
    expect(pressed('5:00 PM')).toBe('false');

    fireEvent.click(screen.getByRole('button', { name: 'AM' }));
    expect(last()).toEqual(new Date(2026, 10, 30, 5, 45));

    fireEvent.click(screen.getByRole('button', { name: '12:00 PM' }));
    expect(last()).toEqual(new Date(2026, 10, 30, 12, 0));
    fireEvent.click(screen.getByRole('button', { name: '9:00 AM' }));
    expect(last()).toEqual(new Date(2026, 10, 30, 9, 0));
    fireEvent.click(screen.getByRole('button', { name: '8:00 PM' }));
    expect(last()).toEqual(new Date(2026, 10, 30, 20, 0));
  });

  it('takes digits only, hours 1–12 and minutes 0–59', () => {
    const { last } = renderPicker();
    fireEvent.click(screen.getByRole('button', { name: 'November 29, 2026' }));
    const hour = screen.getByRole('textbox', { name: 'Hour' }) as HTMLInputElement;
    const minute = screen.getByRole('textbox', { name: 'Minute' }) as HTMLInputElement;

    fireEvent.change(hour, { target: { value: '7a' } });
    expect(hour.value).toBe('7');
    fireEvent.change(hour, { target: { value: '13' } });
    expect(hour.value).toBe('7');
    fireEvent.change(hour, { target: { value: '0' } });
    expect(hour.value).toBe('0');
    fireEvent.change(hour, { target: { value: '00' } });
    expect(hour.value).toBe('0');
    fireEvent.change(hour, { target: { value: '11' } });
    fireEvent.blur(hour);
    expect(hour.value).toBe('11');

    fireEvent.change(minute, { target: { value: '6x' } });
    expect(minute.value).toBe('6');
    fireEvent.change(minute, { target: { value: '60' } });
    expect(minute.value).toBe('6');
    fireEvent.blur(minute);
    expect(minute.value).toBe('06');
    expect(last()).toEqual(new Date(2026, 10, 29, 11, 6));

    fireEvent.click(screen.getByRole('button', { name: 'PM' }));
    fireEvent.change(hour, { target: { value: '12' } });
    expect(last()).toEqual(new Date(2026, 10, 29, 12, 6));
  });

  it('clears the time back to 12:00 AM, keeping the day', () => {
    const { last } = renderPicker();
    fireEvent.click(screen.getByRole('button', { name: 'November 28, 2026' }));
    fireEvent.click(screen.getByRole('button', { name: '8:00 PM' }));
    fireEvent.click(screen.getByRole('button', { name: ':15' }));
    expect(last()).toEqual(new Date(2026, 10, 28, 20, 15));

    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(last()).toEqual(new Date(2026, 10, 28, 0, 0));
    expect((screen.getByRole('textbox', { name: 'Hour' }) as HTMLInputElement).value).toBe('12');
    expect((screen.getByRole('textbox', { name: 'Minute' }) as HTMLInputElement).value).toBe('00');
    expect(pressed('AM')).toBe('true');
  });

  it('keeps a time chosen before the day, and the time when the day changes', () => {
    const { onChange, last } = renderPicker();
    fireEvent.click(tab('Time'));
    fireEvent.click(screen.getByRole('button', { name: '9:00 AM' }));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText('No date selected')).toBeTruthy();

    fireEvent.click(tab('Date'));
    fireEvent.click(screen.getByRole('button', { name: 'November 26, 2026' }));
    expect(last()).toEqual(new Date(2026, 10, 26, 9, 0));

    fireEvent.click(screen.getByRole('button', { name: 'Change date' }));
    expect(pressed('November 26, 2026')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'November 28, 2026' }));
    expect(last()).toEqual(new Date(2026, 10, 28, 9, 0));
  });

  it('switches tabs with the arrow keys', () => {
    renderPicker();
    fireEvent.keyDown(tab('Date'), { key: 'ArrowRight' });
    expect(tab('Time').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab('Time'));
    expect(screen.getByRole('tabpanel', { name: 'Time' })).toBeTruthy();
  });

  it('says which time zone its times are in, with the offset on the chosen day', () => {
    const { last } = renderPicker();
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const offset = (at: Date) => {
      const minutes = -at.getTimezoneOffset();
      const abs = Math.abs(minutes);
      return `UTC${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
    };
    expect(screen.getByText(`Times in ${zone} (${offset(new Date())})`)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'November 28, 2026' }));
    expect(screen.getByText(`Times in ${zone} (${offset(last()!)})`)).toBeTruthy();
  });
});

describe('utcOffsetLabel', () => {
  it('writes the offset as UTC±hh:mm, half hours included', () => {
    const at = (offsetMinutes: number) => ({ getTimezoneOffset: () => offsetMinutes }) as Date;
    expect(utcOffsetLabel(at(0))).toBe('UTC+00:00');
    expect(utcOffsetLabel(at(-60))).toBe('UTC+01:00');
    expect(utcOffsetLabel(at(300))).toBe('UTC-05:00');
    expect(utcOffsetLabel(at(-330))).toBe('UTC+05:30');
  });
});
