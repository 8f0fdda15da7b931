import { useId } from 'react';
import {
  HEADER_TYPES,
  HEADER_TYPE_LABELS,
  MEDIA_RULES,
  TEMPLATE_LIMITS,
  TEMPLATE_MESSAGES,
  TEMPLATE_UI_TEXT,
  addHeaderVariable,
  documentNameError,
  hasIncompleteVariable,
  normalizeHeaderText,
  removeHeaderVariable,
  sanitizeDocumentName,
} from '@herald/contracts';
import type { HeaderType } from '@herald/contracts';
import { CloseIcon, PlusIcon } from '../../../components/icons';
import { FieldMessage, FormSection } from './form-section';
import { FlattenedVariableNote } from './flattened-variable-note';
import { fieldClass, iconButtonClass, labelClass, smallButtonClass } from './field-classes';
import { MediaUpload } from './media-upload';
import { headerHasVariable } from '../template-form-state';
import type { TemplateFormState } from '../template-form-state';

type HeaderSectionProps = {
  state: TemplateFormState;
  onChange: (patch: Partial<TemplateFormState>) => void;
  errorFor: (field: string) => string | undefined;
  columns: readonly string[];
  /** On edit: the stored media is kept unless a new file is chosen. */
  hasStoredMedia: boolean;
};

const MEDIA_FORMAT = { image: 'IMAGE', video: 'VIDEO', document: 'DOCUMENT' } as const;

/** Header section and its variable. */
export function HeaderSection({ state, onChange, errorFor, columns, hasStoredMedia }: HeaderSectionProps) {
  const id = useId();
  const content = state.headerContent;
  const setContent = (patch: Partial<TemplateFormState['headerContent']>) =>
    onChange({ headerContent: { ...content, ...patch } });

  function chooseType(headerType: HeaderType) {
    // A file picked for one media type is not kept for another.
    onChange({ headerType, headerContent: { ...content, file: null } });
  }

  return (
    <FormSection title="Header Configuration" description="Add a title or media above your message.">
      <fieldset>
        <legend className={labelClass}>Header Type</legend>
        <div className="flex flex-wrap gap-2">
          {HEADER_TYPES.map((type) => (
            <label
              key={type}
              className={`cursor-pointer rounded-lg border px-3 py-1.5 text-sm font-medium transition has-focus-visible:ring-2 has-focus-visible:ring-emerald-500/40 ${
                state.headerType === type
                  ? 'border-emerald-600 bg-emerald-50 text-emerald-800'
                  : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'
              }`}
            >
              <input
                type="radio"
                name={`${id}-header-type`}
                value={type}
                checked={state.headerType === type}
                onChange={() => chooseType(type)}
                className="sr-only"
              />
              {HEADER_TYPE_LABELS[type]}
            </label>
          ))}
        </div>
      </fieldset>

      {state.headerType === 'text' ? (
        <TextHeader state={state} onChange={onChange} errorFor={errorFor} columns={columns} />
      ) : null}

      {state.headerType === 'location' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput
            label={TEMPLATE_UI_TEXT.locationName}
            value={content.locationName}
            error={errorFor('header.location_name')}
            onChange={(locationName) => setContent({ locationName })}
          />
          <TextInput
            label={TEMPLATE_UI_TEXT.address}
            value={content.address}
            error={errorFor('header.address')}
            onChange={(address) => setContent({ address })}
          />
        </div>
      ) : null}

      {state.headerType === 'image' || state.headerType === 'video' || state.headerType === 'document' ? (
        <>
          <MediaUpload
            hint={MEDIA_RULES[MEDIA_FORMAT[state.headerType]].hint}
            file={content.file}
            hasStoredMedia={hasStoredMedia}
            error={errorFor('header.file')}
            onFile={(file) =>
              setContent(
                state.headerType === 'document' && content.filename === ''
                  ? { file, filename: sanitizeDocumentName(file.name) }
                  : { file },
              )
            }
          />
          {state.headerType === 'document' ? (
            <TextInput
              label={TEMPLATE_UI_TEXT.documentName}
              value={content.filename}
              error={
                errorFor('header.filename') ?? (content.filename ? documentNameError(content.filename) : null)
              }
              hint={TEMPLATE_MESSAGES.documentNameHint}
              onChange={(typed) => setContent({ filename: sanitizeDocumentName(typed) })}
            />
          ) : null}
        </>
      ) : null}
    </FormSection>
  );
}

type TextHeaderProps = Omit<HeaderSectionProps, 'hasStoredMedia'>;

function TextHeader({ state, onChange, errorFor, columns }: TextHeaderProps) {
  const id = useId();
  const noteId = `${id}-flattened-note`;
  const hasVariable = headerHasVariable(state);
  const textError = hasIncompleteVariable(state.headerText)
    ? TEMPLATE_MESSAGES.incompleteVariable
    : errorFor('header.text');
  const variableError = errorFor('header.variable');

  function changeText(typed: string) {
    const headerText = normalizeHeaderText(typed);
    // Deleting the marker removes the variable and its value.
    const gone = !headerHasVariable({ ...state, headerText });
    onChange(gone ? { headerText, headerValue: '' } : { headerText });
  }

  function toggleDynamic(isDynamicHeader: boolean) {
    if (!isDynamicHeader) {
      onChange({ isDynamicHeader });
      return;
    }
    // The marker is added if missing; a column is preselected when the typed value names one.
    const match = columns.find((column) => column === state.headerValue.trim());
    onChange({
      isDynamicHeader,
      headerText: addHeaderVariable(state.headerText),
      headerColumn: match ?? state.headerColumn,
    });
  }

  return (
    <div className="space-y-3">
      <div>
        <div className="mb-1.5 flex items-center justify-between gap-2">
          <label htmlFor={`${id}-text`} className="text-sm font-medium text-slate-700">
            Header Text
          </label>
          <span className="text-xs text-slate-500 tabular-nums">
            {state.headerText.length}/{TEMPLATE_LIMITS.headerTextMaxLength}
          </span>
        </div>
        <textarea
          id={`${id}-text`}
          rows={2}
          maxLength={TEMPLATE_LIMITS.headerTextMaxLength}
          placeholder={TEMPLATE_UI_TEXT.headerTextPlaceholder}
          value={state.headerText}
          aria-invalid={textError ? true : undefined}
          onChange={(event) => changeText(event.target.value)}
          className={fieldClass(Boolean(textError))}
        />
        {textError ? <FieldMessage>{textError}</FieldMessage> : null}
      </div>

      <div className="flex flex-wrap items-center gap-4">
        {!hasVariable && !state.isDynamicHeader ? (
          <button
            type="button"
            className={smallButtonClass}
            onClick={() => onChange({ headerText: addHeaderVariable(state.headerText), headerValue: '' })}
          >
            <PlusIcon width={14} height={14} />
            {TEMPLATE_UI_TEXT.addVariable}
          </button>
        ) : null}
        <label className="inline-flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={state.isDynamicHeader}
            onChange={(event) => toggleDynamic(event.target.checked)}
            className="size-4 rounded border-slate-300 accent-emerald-600"
          />
          {TEMPLATE_UI_TEXT.useDynamicVariable}
        </label>
      </div>

      {hasVariable ? (
        <div>
          {state.isDynamicHeader ? (
            <select
              aria-label={TEMPLATE_UI_TEXT.selectCustomerParameter}
              aria-describedby={noteId}
              value={state.headerColumn}
              aria-invalid={variableError ? true : undefined}
              onChange={(event) => onChange({ headerColumn: event.target.value })}
              className={fieldClass(Boolean(variableError))}
            >
              <option value="">{TEMPLATE_UI_TEXT.selectCustomerParameter}</option>
              {columns.map((column) => (
                <option key={column} value={column}>
                  {column}
                </option>
              ))}
            </select>
          ) : (
            <div className="flex items-center gap-2">
              <span className="rounded bg-slate-100 px-2 py-1 font-mono text-xs text-slate-600">
                {'{{1}}'}
              </span>
              <input
                aria-label={TEMPLATE_UI_TEXT.headerValueFor}
                placeholder={TEMPLATE_UI_TEXT.headerValueFor}
                value={state.headerValue}
                aria-invalid={variableError ? true : undefined}
                onChange={(event) => onChange({ headerValue: event.target.value })}
                className={fieldClass(Boolean(variableError))}
              />
              <button
                type="button"
                aria-label="Remove header variable"
                title="Remove variable"
                className={iconButtonClass}
                onClick={() =>
                  onChange({ headerText: removeHeaderVariable(state.headerText), headerValue: '' })
                }
              >
                <CloseIcon width={18} height={18} />
              </button>
            </div>
          )}
          {variableError ? <FieldMessage>{variableError}</FieldMessage> : null}
          {state.isDynamicHeader ? <FlattenedVariableNote id={noteId} /> : null}
        </div>
      ) : null}
    </div>
  );
}

type TextInputProps = {
  label: string;
  value: string;
  error?: string | null | undefined;
  hint?: string;
  onChange: (value: string) => void;
};

function TextInput({ label, value, error, hint, onChange }: TextInputProps) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-note`}
        onChange={(event) => onChange(event.target.value)}
        className={fieldClass(Boolean(error))}
      />
      {error ? (
        <FieldMessage id={`${id}-note`}>{error}</FieldMessage>
      ) : hint ? (
        <p id={`${id}-note`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
