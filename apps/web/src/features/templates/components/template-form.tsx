import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { skipToken } from '@reduxjs/toolkit/query';
import {
  TEMPLATE_LIMITS,
  TEMPLATE_MESSAGES,
  TEMPLATE_UI_TEXT,
  validateTemplatePayload,
} from '@herald/contracts';
import type { RenumberNotice, TemplateFieldError, TemplateLanguageCode } from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { FormPreviewSwitch, useFormPreviewPane } from '../../../components/form-preview-switch';
import { useAppSelector } from '../../../lib/store-hooks';
import { errorText } from '../../../lib/error-text';
import { useGetLinkSettingsQuery } from '../../../lib/link-settings-api';
import { useGetMarketingMessagesQuery } from '../../../lib/marketing-messages-api';
import {
  useCreateTemplateMutation,
  useGetTemplateCustomerColumnsQuery,
  useGetTemplateMediaQuery,
  useUpdateTemplateMutation,
} from '../api';
import type { TemplateFormState } from '../template-form-state';
import { buildTemplatePayload, isMediaHeader, templateFormData } from '../template-payload';
import { useObjectUrl } from '../use-object-url';
import { BodySection } from './body-section';
import { ButtonsSection } from './buttons-section';
import { FooterSection } from './footer-section';
import { HeaderSection } from './header-section';
import { PayloadPreview } from './payload-preview';
import { TemplateConfigSection } from './template-config-section';
import { TemplatePreview } from './template-preview';

type TemplateFormProps = {
  initial: TemplateFormState;
  /** Lock name and language (a template Meta already has keeps them). */
  lockIdentity?: boolean;
  /** The account's default language (Message Settings): it arrives after the form shows. */
  defaultLanguage?: TemplateLanguageCode | null;
  /** Why the template cannot be submitted at all (Meta locked it): Submit is off, with this beside it. */
  submitBlockedReason?: string;
} & ({ mode: 'create' } | { mode: 'edit'; templateId: string });

/** Field names of the server's errors that the form shows under another name. */
const SERVER_FIELD_ALIASES: Record<string, string> = { header_file: 'header.file' };

/** Messages shown as soon as they apply; the rest wait for the first submit. */
function isLiveError(field: string, message: string): boolean {
  return (
    field === 'header.variable' ||
    field.startsWith('body.variables.') ||
    (field === 'name' && message === TEMPLATE_MESSAGES.nameInvalid)
  );
}

function firstByField(errors: readonly TemplateFieldError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { field, message } of errors) {
    const key = SERVER_FIELD_ALIASES[field] ?? field;
    out[key] ??= message;
  }
  return out;
}

function serverFieldErrors(error: unknown): TemplateFieldError[] {
  const data = (error as { data?: { errors?: unknown } } | null)?.data;
  return Array.isArray(data?.errors)
    ? (data.errors as unknown[]).filter(
        (e): e is TemplateFieldError =>
          typeof (e as TemplateFieldError)?.field === 'string' &&
          typeof (e as TemplateFieldError)?.message === 'string',
      )
    : [];
}

/**
 * Create template / Edit template: one form for both. Sections on the left (about 70%), the phone
 * preview and the JSON of the payload on the right (about 30%), stacked on narrow screens.
 */
export function TemplateForm(props: TemplateFormProps) {
  const { initial, lockIdentity = false, mode } = props;
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const blockedId = useId();
  const [state, setState] = useState(initial);
  const { pane, setPane, formClass, previewClass } = useFormPreviewPane();
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [focusRequest, setFocusRequest] = useState(0);
  const [notice, setNotice] = useState<{ text: RenumberNotice } | null>(null);

  // The default language fills the field until the user picks one; a later answer never undoes a choice.
  const languageChosen = useRef(false);
  const { defaultLanguage } = props;
  useEffect(() => {
    if (!defaultLanguage || languageChosen.current) return;
    setState((current) => ({ ...current, selectedLanguage: defaultLanguage }));
  }, [defaultLanguage]);

  const wabaId = useAppSelector((s) => s.waba.selectedWabaAccount?.waba_id ?? null);
  const columnsQuery = useGetTemplateCustomerColumnsQuery(wabaId);
  const columns = columnsQuery.data ?? [];
  // A failure to read the columns is only logged.
  useEffect(() => {
    if (columnsQuery.error) console.error('Loading the customer columns failed', columnsQuery.error);
  }, [columnsQuery.error]);

  // A max price needs the Marketing Messages API; without an answer the server decides on Save.
  const mmApi = useGetMarketingMessagesQuery(wabaId ?? '').data;
  const mmApiOnboarded = mmApi ? mmApi.state === 'onboarded' : null;

  // What a URL button holds to be a tracked link; without an answer none is offered.
  const trackedButtonUrl = useGetLinkSettingsQuery(wabaId).data?.tracked_button_url ?? null;

  const [createTemplate, createState] = useCreateTemplateMutation();
  const [updateTemplate, updateState] = useUpdateTemplateMutation();
  const saving = createState.isLoading || updateState.isLoading;

  // The renumbering notices vanish after 3 s; a new one restarts the clock.
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), TEMPLATE_LIMITS.noticeMs);
    return () => clearTimeout(timer);
  }, [notice]);

  useEffect(() => {
    if (focusRequest > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  const file = isMediaHeader(state) ? state.headerContent.file : null;
  const fileUrl = useObjectUrl(file);
  const keepsStoredMedia =
    mode === 'edit' &&
    state.mediaUrl !== null &&
    isMediaHeader(state) &&
    state.headerType === initial.headerType;
  const storedMedia = useGetTemplateMediaQuery(
    keepsStoredMedia && !file && state.headerType !== 'document' && state.mediaUrl
      ? state.mediaUrl
      : skipToken,
  );
  const mediaSrc = fileUrl ?? (keepsStoredMedia && !file ? (storedMedia.data ?? null) : null);

  const payload = useMemo(() => buildTemplatePayload(state), [state]);
  const hasHeaderFile = file !== null || keepsStoredMedia;
  const problems = useMemo(
    () => validateTemplatePayload(payload, { hasHeaderFile }),
    [payload, hasHeaderFile],
  );
  const byField = useMemo(() => firstByField(problems), [problems]);

  function errorFor(field: string): string | undefined {
    const server = serverErrors[field];
    if (server) return server;
    const message = byField[field];
    return message && (showErrors || isLiveError(field, message)) ? message : undefined;
  }

  function change(patch: Partial<TemplateFormState>) {
    if (patch.selectedLanguage !== undefined) languageChosen.current = true;
    setState((current) => ({ ...current, ...patch }));
    setServerErrors({});
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    setShowErrors(true);
    if (problems.length > 0) {
      setFocusRequest((n) => n + 1);
      return;
    }
    const body = templateFormData(payload, state);
    try {
      if (props.mode === 'create') {
        await createTemplate({ body }).unwrap();
        toast.success(TEMPLATE_MESSAGES.saved);
      } else {
        await updateTemplate({ id: props.templateId, body }).unwrap();
        toast.success(TEMPLATE_MESSAGES.updated);
      }
      void navigate('/template');
    } catch (error) {
      console.error('Saving the template failed', error);
      setServerErrors(firstByField(serverFieldErrors(error)));
      toast.error(
        props.mode === 'create'
          ? `${TEMPLATE_MESSAGES.saveFailed} ${errorText(error)}`
          : `${TEMPLATE_MESSAGES.updateFailed}: ${errorText(error)}`,
      );
    }
  }

  const idle = mode === 'create' ? TEMPLATE_UI_TEXT.saveButton : TEMPLATE_UI_TEXT.updateButton;
  const busy = mode === 'create' ? TEMPLATE_UI_TEXT.saving : TEMPLATE_UI_TEXT.updating;

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => void handleSubmit(event)}
      className="grid items-start gap-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,3fr)]"
    >
      <FormPreviewSwitch pane={pane} onChange={setPane} />
      <div className={`min-w-0 space-y-5 ${formClass}`}>
        <TemplateConfigSection
          state={state}
          onChange={change}
          errorFor={errorFor}
          lockIdentity={lockIdentity}
          hadMaxPrice={initial.maxPriceText.trim() !== ''}
          mmApiOnboarded={mmApiOnboarded}
        />
        <HeaderSection
          state={state}
          onChange={change}
          errorFor={errorFor}
          columns={columns}
          hasStoredMedia={keepsStoredMedia}
        />
        <BodySection
          state={state}
          onChange={change}
          errorFor={errorFor}
          columns={columns}
          notice={notice?.text ?? null}
          onNotice={(text) => setNotice({ text })}
        />
        <FooterSection
          footerText={state.footerText}
          error={errorFor('footer.text')}
          onChange={(footerText) => change({ footerText })}
        />
        <ButtonsSection
          buttons={state.buttons}
          onChange={(buttons) => change({ buttons })}
          errorFor={errorFor}
          trackedButtonUrl={trackedButtonUrl}
        />

        {showErrors && problems.length > 0 ? (
          <FormAlert>Please correct the highlighted fields before saving.</FormAlert>
        ) : null}
        {serverErrors.template_data ? <FormAlert>{serverErrors.template_data}</FormAlert> : null}
        <div className="flex flex-wrap items-center justify-end gap-2">
          {props.submitBlockedReason ? (
            <p id={blockedId} className="mr-auto text-sm text-slate-600">
              {props.submitBlockedReason}
            </p>
          ) : null}
          <Link to="/template" className={secondaryButtonClass}>
            Cancel
          </Link>
          <button
            type="submit"
            className={primaryButtonClass}
            disabled={saving || Boolean(props.submitBlockedReason)}
            aria-describedby={props.submitBlockedReason ? blockedId : undefined}
          >
            {saving ? busy : idle}
          </button>
        </div>
      </div>

      <aside className={`min-w-0 space-y-4 lg:sticky lg:top-20 ${previewClass}`}>
        <h2 className="text-sm font-semibold text-slate-900">Preview</h2>
        <TemplatePreview state={state} mediaSrc={mediaSrc} />
        <PayloadPreview payload={payload} />
      </aside>
    </form>
  );
}
