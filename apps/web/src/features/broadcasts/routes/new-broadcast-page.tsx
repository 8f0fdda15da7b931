import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import toast from 'react-hot-toast';
import { BROADCAST_MESSAGES, numberSendability } from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { FormPreviewSwitch, useFormPreviewPane } from '../../../components/form-preview-switch';
import { LiveErrors } from '../../../components/live-errors';
import { PageHeader } from '../../../components/page-header';
import { useAppSelector } from '../../../lib/store-hooks';
import { fieldErrors } from '../../../lib/field-errors';
import { serverMessage } from '../../../lib/server-message';
import {
  useCreateBroadcastMutation,
  useGetBroadcastContactsQuery,
  useGetBroadcastNumbersQuery,
  useGetBroadcastReportQuery,
  useGetBroadcastTagsQuery,
  useGetBroadcastTemplateQuery,
  useGetBroadcastTemplatesQuery,
} from '../api';
import {
  INITIAL_BROADCAST_FORM,
  broadcastPayload,
  recipientCount,
  validateBroadcastForm,
} from '../broadcast-form';
import type { BroadcastFormErrors, BroadcastFormState } from '../broadcast-form';
import { formatCount, formatDateTime } from '../format';
import { retargetFromSearch, retargetFilterLabel } from '../retarget';
import { defaultNumberId } from '../send-from';
import { useGetBroadcastTemplateMediaQuery } from '../sending-api';
import { boundVariables, templatePreviewContent } from '../template-preview-content';
import { useBroadcastEstimate } from '../use-broadcast-estimate';
import { BoundVariablesNote } from '../components/bound-variables-note';
import { BroadcastDetailsSection } from '../components/broadcast-details-section';
import { BroadcastPreview } from '../components/broadcast-preview';
import { BroadcastSummary } from '../components/broadcast-summary';
import { ConfirmSendDialog } from '../components/confirm-send-dialog';
import { MessagingLimitNotice } from '../components/messaging-limit-notice';
import { CostEstimate } from '../components/cost-estimate';
import { RecipientsSection, RetargetRecipients } from '../components/recipients-section';
import { SelectedRecipientsSection } from '../components/selected-recipients-section';
import { SendFromField } from '../components/send-from-field';
import { SendTestDialog } from '../components/send-test-dialog';

/** Shown when /broadcast/new?retarget=… names no broadcast or a filter the report does not have. */
export const RETARGET_UNREADABLE =
  'The link to an earlier broadcast’s recipients cannot be read: choose the recipients below.';

/** New broadcast (/broadcast/new). */
export function NewBroadcastPage() {
  const wabaId = useAppSelector((state) => state.waba.selectedWabaAccount?.waba_id ?? null);
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  // A report's 'New broadcast to these recipients': its broadcast and filter, read once.
  const [searchParams, setSearchParams] = useSearchParams();
  const [fromUrl] = useState(() => retargetFromSearch(searchParams));
  const [state, setState] = useState<BroadcastFormState>(() => ({
    ...INITIAL_BROADCAST_FORM,
    retarget: fromUrl === 'invalid' ? null : fromUrl,
  }));
  const [confirming, setConfirming] = useState(false);
  const [testing, setTesting] = useState(false);
  // Messages show after the first attempt to send, then follow the fields as they are fixed.
  const [showErrors, setShowErrors] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  // The server's refusals that belong to a field of this screen (over the limit, a number it will not use).
  const [serverFieldErrors, setServerFieldErrors] = useState<BroadcastFormErrors>({});
  const [createBroadcast, { isLoading: sending }] = useCreateBroadcastMutation();

  const templatesQuery = useGetBroadcastTemplatesQuery(wabaId, { refetchOnMountOrArgChange: true });
  const tagsQuery = useGetBroadcastTagsQuery(wabaId, { refetchOnMountOrArgChange: true });
  const contactsQuery = useGetBroadcastContactsQuery(wabaId, { refetchOnMountOrArgChange: true });
  const templateQuery = useGetBroadcastTemplateQuery(Number(state.templateId), {
    skip: state.templateId === '',
  });
  const numbersQuery = useGetBroadcastNumbersQuery(wabaId, { refetchOnMountOrArgChange: true });
  const numbers = numbersQuery.data;
  const { retarget } = state;
  // The earlier broadcast's name, from its report (a 404 for one that is not this account's).
  const sourceQuery = useGetBroadcastReportQuery(
    retarget ? { id: retarget.broadcast_id, page: 1, outcome: null, wabaId } : skipToken,
  );

  // The user's pick while it is one of this account's sendable numbers, else the first sendable one.
  const picked = numbers?.find((number) => number.id === state.phoneNumberId);
  const phoneNumberId =
    picked && numberSendability(picked).sendable ? picked.id : numbers ? defaultNumberId(numbers) : '';
  const noSendableNumber = numbers !== undefined && numbers.length > 0 && phoneNumberId === '';
  const {
    estimate,
    usNumbers,
    failed: estimateFailed,
  } = useBroadcastEstimate({ ...state, phoneNumberId }, wabaId);
  // Left out only while the offer stands: a template that is not marketing keeps every recipient.
  const formState = { ...state, phoneNumberId, leaveOutUsNumbers: state.leaveOutUsNumbers && usNumbers > 0 };

  const approved = templatesQuery.data?.results.filter((t) => t.status.toUpperCase() === 'APPROVED');
  const chosenTemplate = approved?.find((t) => String(t.id) === state.templateId) ?? null;
  const total = contactsQuery.data?.count;
  const firstContact = contactsQuery.data?.results[0] ?? null;
  const tags = tagsQuery.data;
  const count = recipientCount(state, total, tags ?? []);
  const errors = {
    ...(showErrors ? validateBroadcastForm(state, noSendableNumber) : {}),
    ...serverFieldErrors,
  };
  const preview =
    templateQuery.currentData && state.templateId !== ''
      ? templatePreviewContent(templateQuery.currentData, firstContact)
      : null;
  // The template's own header image or video for the preview (the stored media the templates screen shows).
  const mediaUrl = templateQuery.currentData?.media_url ?? null;
  const mediaQuery = useGetBroadcastTemplateMediaQuery(
    mediaUrl && (preview?.headerFormat === 'image' || preview?.headerFormat === 'video')
      ? mediaUrl
      : skipToken,
  );
  const serverRecipients = estimate ? formatCount(estimate.recipients) : 'Counting…';
  const sourceName = sourceQuery.data?.broadcast.name;
  const retargetFrom =
    retarget && sourceName
      ? `from broadcast "${sourceName}" (${retargetFilterLabel(retarget.filter)})`
      : null;
  const retargetText = !retarget
    ? ''
    : sourceQuery.isError
      ? 'The broadcast these recipients come from was not found in this account.'
      : retargetFrom
        ? `Recipients: ${serverRecipients} ${retargetFrom}`
        : 'Loading the earlier broadcast’s recipients...';

  function change(patch: Partial<BroadcastFormState>) {
    setState((current) => ({ ...current, ...patch }));
    setServerError(null);
    setServerFieldErrors({});
  }

  // Once React has shown the messages (after an answer from the server too): take the user to the first field
  // to fix. A counter, so every attempt asks again.
  const [focusRequest, setFocusRequest] = useState(0);
  useEffect(() => {
    if (focusRequest > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);
  const focusFirstInvalid = () => setFocusRequest((n) => n + 1);

  function clearRetarget() {
    change({ retarget: null });
    setSearchParams({}, { replace: true });
  }

  function openTest() {
    if (state.templateId === '') {
      setServerFieldErrors({ template: BROADCAST_MESSAGES.templateRequired });
      focusFirstInvalid();
      return;
    }
    setTesting(true);
  }

  // The send (or schedule) is confirmed in a dialog naming what goes, to how many, and when.
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const problems = validateBroadcastForm(state, noSendableNumber);
    if (Object.keys(problems).length > 0) {
      setShowErrors(true);
      focusFirstInvalid();
      return;
    }
    setConfirming(true);
  }

  async function send() {
    setConfirming(false);
    try {
      await createBroadcast(broadcastPayload(formState)).unwrap();
      toast.success(BROADCAST_MESSAGES.created);
      void navigate('/broadcast');
    } catch (error) {
      console.error('Creating the broadcast failed', error);
      const fields = fieldErrors(error);
      if (fields.recipients || fields.phone_number_id || fields.spend_cap) {
        setServerFieldErrors({
          recipients: fields.recipients,
          number: fields.phone_number_id,
          spendCap: fields.spend_cap,
        });
        focusFirstInvalid();
      } else {
        setServerError(serverMessage(error, ['message', 'detail']) ?? BROADCAST_MESSAGES.failed);
      }
    }
  }

  const recipientsText = retarget
    ? `${serverRecipients} ${retargetFrom ?? ''}`.trim()
    : state.mode === 'all'
      ? `All Contacts, ${state.percentage}% (${formatCount(count.sampled)})`
      : state.tagIds.length === 0
        ? 'No tag selected'
        : `${state.tagIds.length} ${state.tagIds.length === 1 ? 'tag' : 'tags'}, ${state.percentage}% (${formatCount(count.sampled)})`;
  const sendingTime = !state.scheduled
    ? 'Immediately'
    : state.scheduledAt
      ? formatDateTime(state.scheduledAt)
      : 'Not selected';

  const limitNotice = (
    <MessagingLimitNotice
      estimate={estimate}
      usNumbers={usNumbers}
      failed={estimateFailed}
      spreadOverLimit={state.spreadOverLimit}
      onSpreadOverLimit={(spreadOverLimit) => change({ spreadOverLimit })}
      leaveOutUsNumbers={formState.leaveOutUsNumbers}
      onLeaveOutUsNumbers={(leaveOutUsNumbers) => change({ leaveOutUsNumbers })}
      error={errors.recipients}
    />
  );

  // On a phone the preview is one tap away instead of below the whole form.
  const { pane, setPane, formClass, previewClass } = useFormPreviewPane();

  return (
    <>
      <PageHeader
        title="New Broadcast"
        description="Send an approved template to all your contacts or to tagged ones, now or at a set time."
      />
      <form
        ref={formRef}
        noValidate
        onSubmit={handleSubmit}
        className="grid items-start gap-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,3fr)]"
      >
        <FormPreviewSwitch pane={pane} onChange={setPane} />
        <div className={`min-w-0 space-y-5 ${formClass}`}>
          <BroadcastDetailsSection state={state} onChange={change} errors={errors} templates={approved}>
            <SendFromField
              numbers={numbers}
              failed={numbersQuery.isError}
              value={phoneNumberId}
              onChange={(id) => change({ phoneNumberId: id })}
              error={errors.number}
            />
          </BroadcastDetailsSection>
          {fromUrl === 'invalid' ? <FormAlert>{RETARGET_UNREADABLE}</FormAlert> : null}
          {retarget ? (
            <RetargetRecipients line={retargetText} failed={sourceQuery.isError} onClear={clearRetarget}>
              {limitNotice}
            </RetargetRecipients>
          ) : (
            <>
              <RecipientsSection
                mode={state.mode}
                tagIds={state.tagIds}
                onMode={(mode) => change({ mode })}
                onTagIds={(tagIds) => change({ tagIds })}
                tags={tags}
                tagsFailed={tagsQuery.isError}
                total={total}
                error={errors.tags}
              />
              <SelectedRecipientsSection
                mode={state.mode}
                count={count}
                estimated={total === undefined}
                percentage={state.percentage}
                onPercentage={(percentage) => change({ percentage })}
              >
                {state.mode === 'all' || state.tagIds.length > 0 ? limitNotice : null}
              </SelectedRecipientsSection>
            </>
          )}
          <BroadcastSummary
            templateName={chosenTemplate?.template_name ?? null}
            recipients={recipientsText}
            sendingTime={sendingTime}
          />
          <CostEstimate
            state={{ ...state, phoneNumberId }}
            wabaId={wabaId}
            onSpendCap={(spendCap) => change({ spendCap })}
            spendCapError={errors.spendCap}
          />
          {serverError ? <FormAlert>{serverError}</FormAlert> : null}
          <LiveErrors count={Object.values(errors).filter(Boolean).length} />
          <div className="flex flex-wrap justify-end gap-2">
            <Link to="/broadcast" className={secondaryButtonClass}>
              Cancel
            </Link>
            <button type="button" className={secondaryButtonClass} onClick={openTest}>
              Send test
            </button>
            <button type="submit" className={primaryButtonClass} disabled={sending}>
              {sending ? 'Sending...' : state.scheduled ? 'Schedule Broadcast' : 'Send Broadcast'}
            </button>
          </div>
        </div>

        <aside className={`min-w-0 space-y-3 lg:sticky lg:top-20 ${previewClass}`}>
          <h2 className="text-sm font-semibold text-slate-900">Preview</h2>
          <BroadcastPreview
            content={preview}
            loading={templateQuery.isFetching}
            failed={templateQuery.isError && state.templateId !== ''}
            contactName={firstContact?.recipient_name ?? null}
            mediaSrc={mediaQuery.currentData ?? null}
          />
          {templateQuery.currentData && state.templateId !== '' ? (
            <BoundVariablesNote variables={boundVariables(templateQuery.currentData)} />
          ) : null}
        </aside>
      </form>
      {confirming ? (
        <ConfirmSendDialog
          templateName={chosenTemplate?.template_name ?? ''}
          recipients={estimate?.recipients ?? null}
          recipientsNote={retargetFrom ?? undefined}
          scheduledAt={state.scheduled ? state.scheduledAt : null}
          onConfirm={() => void send()}
          onClose={() => setConfirming(false)}
        />
      ) : null}
      {testing && chosenTemplate ? (
        <SendTestDialog
          templateId={chosenTemplate.id}
          templateName={chosenTemplate.template_name}
          phoneNumberId={phoneNumberId}
          fromNumber={numbers?.find((number) => number.id === phoneNumberId)?.display_phone_number ?? null}
          contacts={contactsQuery.data?.results ?? []}
          onClose={() => setTesting(false)}
        />
      ) : null}
    </>
  );
}
