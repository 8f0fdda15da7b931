import { useId } from 'react';
import { TEMPLATE_LIMITS } from '@herald/contracts';
import { FieldMessage, FormSection } from './form-section';
import { fieldClass } from './field-classes';

type FooterSectionProps = {
  footerText: string;
  error: string | undefined;
  onChange: (footerText: string) => void;
};

/** Footer Content: optional, at most 60 characters. */
export function FooterSection({ footerText, error, onChange }: FooterSectionProps) {
  const id = useId();
  return (
    <FormSection title="Footer Content" description="An optional short line under your message.">
      <div>
        <div className="mb-1.5 flex items-center justify-between gap-2">
          <label htmlFor={id} className="text-sm font-medium text-slate-700">
            Footer Text
          </label>
          <span className="text-xs text-slate-500 tabular-nums">
            {footerText.length}/{TEMPLATE_LIMITS.footerMaxLength}
          </span>
        </div>
        <input
          id={id}
          value={footerText}
          maxLength={TEMPLATE_LIMITS.footerMaxLength}
          placeholder="e.g. Reply STOP to unsubscribe"
          aria-invalid={error ? true : undefined}
          onChange={(event) => onChange(event.target.value)}
          className={fieldClass(Boolean(error))}
        />
        {error ? <FieldMessage>{error}</FieldMessage> : null}
      </div>
    </FormSection>
  );
}
