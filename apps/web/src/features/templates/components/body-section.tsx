import { useId } from 'react';
import {
  TEMPLATE_LIMITS,
  TEMPLATE_MESSAGES,
  TEMPLATE_UI_TEXT,
  appendBodyVariable,
  countVariables,
  deleteBodyVariable,
  distinctVariables,
  hasIncompleteVariable,
  renumberBodyVariables,
} from '@herald/contracts';
import type { RenumberNotice } from '@herald/contracts';
import { PlusIcon, TrashIcon } from '../../../components/icons';
import { FieldMessage, FormSection } from './form-section';
import { FlattenedVariableNote } from './flattened-variable-note';
import { fieldClass, iconButtonClass, smallButtonClass } from './field-classes';
import { emptyBodyParam } from '../template-form-state';
import type { BodyParam, TemplateFormState } from '../template-form-state';

type BodySectionProps = {
  state: TemplateFormState;
  onChange: (patch: Partial<TemplateFormState>) => void;
  errorFor: (field: string) => string | undefined;
  columns: readonly string[];
  notice: RenumberNotice | null;
  onNotice: (notice: RenumberNotice) => void;
};

/** Body section: the text, its variables and their rules. */
export function BodySection({ state, onChange, errorFor, columns, notice, onNotice }: BodySectionProps) {
  const id = useId();
  const count = countVariables(state.bodyText);
  const atMax = count >= TEMPLATE_LIMITS.maxBodyVariables;
  const numbers = distinctVariables(state.bodyText)
    .filter((n) => n >= 1 && n <= TEMPLATE_LIMITS.maxBodyVariables)
    .sort((a, b) => a - b);
  const textError = hasIncompleteVariable(state.bodyText)
    ? TEMPLATE_MESSAGES.incompleteVariable
    : errorFor('body.text');

  function changeText(typed: string) {
    const result = renumberBodyVariables(typed);
    let bodyParams = state.bodyParams;
    if (result.moves.length > 0) {
      // Each row's value and toggle move with its marker.
      const moved: BodyParam[] = [];
      for (const move of result.moves) {
        if (move.to !== null) moved[move.to - 1] = state.bodyParams[move.from - 1] ?? emptyBodyParam();
      }
      bodyParams = Array.from(moved, (param) => param ?? emptyBodyParam());
    }
    onChange({ bodyText: result.text, bodyParams });
    if (result.notice) onNotice(result.notice);
  }

  function addVariable() {
    const bodyText = appendBodyVariable(state.bodyText);
    const bodyParams = [...state.bodyParams];
    bodyParams[count] = emptyBodyParam();
    onChange({ bodyText, bodyParams: Array.from(bodyParams, (param) => param ?? emptyBodyParam()) });
  }

  function deleteVariable(n: number) {
    onChange({
      bodyText: deleteBodyVariable(state.bodyText, n),
      bodyParams: state.bodyParams.filter((_, i) => i !== n - 1),
    });
  }

  function setParam(n: number, patch: Partial<BodyParam>) {
    const bodyParams = Array.from({ length: Math.max(state.bodyParams.length, n) }, (_, i) => {
      const param = state.bodyParams[i] ?? emptyBodyParam();
      return i === n - 1 ? { ...param, ...patch } : param;
    });
    onChange({ bodyParams });
  }

  return (
    <FormSection
      title={TEMPLATE_UI_TEXT.bodyTitle}
      description={TEMPLATE_UI_TEXT.bodySubtitle}
      actions={
        <>
          <span className="rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-600 tabular-nums">
            {TEMPLATE_UI_TEXT.variablesCounter(count)}
          </span>
          <button type="button" className={smallButtonClass} disabled={atMax} onClick={addVariable}>
            <PlusIcon width={14} height={14} />
            {atMax ? TEMPLATE_UI_TEXT.maxVariables : TEMPLATE_UI_TEXT.addVariable}
          </button>
        </>
      }
    >
      <div>
        <div className="mb-1.5 flex items-center justify-between gap-2">
          <div className="flex items-center gap-2">
            <label htmlFor={`${id}-text`} className="text-sm font-medium text-slate-700">
              Body Text
            </label>
            {state.bodyText.length === 0 ? (
              <span className="rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700 ring-1 ring-red-200">
                {TEMPLATE_UI_TEXT.required}
              </span>
            ) : null}
          </div>
          <span className="text-xs text-slate-500 tabular-nums">
            {state.bodyText.length}/{TEMPLATE_LIMITS.bodyMaxLength}
          </span>
        </div>
        <textarea
          id={`${id}-text`}
          rows={6}
          maxLength={TEMPLATE_LIMITS.bodyMaxLength}
          placeholder={TEMPLATE_UI_TEXT.bodyPlaceholder}
          value={state.bodyText}
          aria-invalid={textError ? true : undefined}
          onChange={(event) => changeText(event.target.value)}
          className={fieldClass(Boolean(textError))}
        />
        {textError ? <FieldMessage>{textError}</FieldMessage> : null}
        {notice ? (
          <p
            role="status"
            className="mt-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-800"
          >
            {notice}
          </p>
        ) : null}
      </div>

      {numbers.length > 0 ? (
        <div>
          <h3 className="mb-2 text-sm font-semibold text-slate-800">
            {TEMPLATE_UI_TEXT.variableConfiguration}
          </h3>
          <div className="space-y-2">
            {numbers.map((n) => (
              <VariableRow
                key={n}
                n={n}
                param={state.bodyParams[n - 1] ?? emptyBodyParam()}
                columns={columns}
                error={errorFor(`body.variables.${n}`)}
                onChange={(patch) => setParam(n, patch)}
                onDelete={() => deleteVariable(n)}
              />
            ))}
          </div>
        </div>
      ) : null}
    </FormSection>
  );
}

type VariableRowProps = {
  n: number;
  param: BodyParam;
  columns: readonly string[];
  error: string | undefined;
  onChange: (patch: Partial<BodyParam>) => void;
  onDelete: () => void;
};

const toggleClass = (active: boolean) =>
  `px-2.5 py-1 text-xs font-semibold transition focus-visible:outline-2 focus-visible:outline-emerald-600 ${
    active ? 'bg-emerald-700 text-white' : 'bg-white text-slate-600 hover:bg-slate-50'
  }`;

/** One row of 'Variable Configuration': a value or a customer column, the Static/Dynamic toggle, delete. */
function VariableRow({ n, param, columns, error, onChange, onDelete }: VariableRowProps) {
  const marker = `{{${n}}}`;
  const noteId = useId();
  return (
    <div
      role="group"
      aria-label={`Variable ${marker}`}
      className={`rounded-lg border p-3 ${error ? 'border-red-400 bg-red-50/40' : 'border-slate-200 bg-slate-50'}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="rounded bg-white px-2 py-1 font-mono text-xs text-slate-600 ring-1 ring-slate-200">
          {marker}
        </span>
        <div className="min-w-48 flex-1">
          {param.isDynamic ? (
            <select
              aria-label={`${TEMPLATE_UI_TEXT.selectField} for ${marker}`}
              aria-describedby={noteId}
              value={param.column}
              aria-invalid={error ? true : undefined}
              onChange={(event) => onChange({ column: event.target.value })}
              className={fieldClass(Boolean(error))}
            >
              <option value="">{TEMPLATE_UI_TEXT.selectField}</option>
              {columns.map((column) => (
                <option key={column} value={column}>
                  {column}
                </option>
              ))}
            </select>
          ) : (
            <input
              aria-label={TEMPLATE_UI_TEXT.bodyValueFor(n)}
              placeholder={TEMPLATE_UI_TEXT.bodyValueFor(n)}
              value={param.text}
              aria-invalid={error ? true : undefined}
              onChange={(event) => onChange({ text: event.target.value })}
              className={fieldClass(Boolean(error))}
            />
          )}
        </div>
        <div className="inline-flex overflow-hidden rounded-lg border border-slate-300">
          <button
            type="button"
            aria-pressed={!param.isDynamic}
            className={toggleClass(!param.isDynamic)}
            onClick={() => onChange({ isDynamic: false })}
          >
            {TEMPLATE_UI_TEXT.static}
          </button>
          <button
            type="button"
            aria-pressed={param.isDynamic}
            className={toggleClass(param.isDynamic)}
            onClick={() => onChange({ isDynamic: true })}
          >
            {TEMPLATE_UI_TEXT.dynamic}
          </button>
        </div>
        <button
          type="button"
          aria-label={`Delete variable ${marker}`}
          title="Delete variable"
          className={iconButtonClass}
          onClick={onDelete}
        >
          <TrashIcon width={18} height={18} />
        </button>
      </div>
      {param.isDynamic ? (
        <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
          <select
            aria-label={`Example for ${marker}`}
            value={param.exampleMode}
            onChange={(event) => onChange({ exampleMode: event.target.value as BodyParam['exampleMode'] })}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs"
          >
            <option value="default">Default</option>
            <option value="custom">Custom</option>
          </select>
          {param.exampleMode === 'custom' ? (
            <input
              aria-label={`Custom example for ${marker}`}
              placeholder="Example shown to WhatsApp's reviewers"
              value={param.example}
              onChange={(event) => onChange({ example: event.target.value })}
              className="min-w-48 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-xs"
            />
          ) : (
            <span>Reviewers see the field&apos;s sample value.</span>
          )}
        </div>
      ) : null}
      {param.isDynamic ? <FlattenedVariableNote id={noteId} /> : null}
      {error ? <FieldMessage>{error}</FieldMessage> : null}
    </div>
  );
}
