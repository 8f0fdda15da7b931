import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import toast from 'react-hot-toast';
import { BROADCAST_MESSAGES, numberSendability, trackedButtonIndex } from '@herald/contracts';
import { useAppSelector } from '../../lib/store-hooks';
import { fieldErrors, nestedFieldErrors } from '../../lib/field-errors';
import { useGetLinkSettingsQuery } from '../../lib/link-settings-api';
import { serverMessage } from '../../lib/server-message';
import {
  useCreateBroadcastMutation,
  useGetBroadcastContactsQuery,
  useGetBroadcastNumbersQuery,
  useGetBroadcastReportQuery,
  useGetBroadcastTagsQuery,
  useGetBroadcastTemplateQuery,
  useGetBroadcastTemplatesQuery,
} from './api';
import {
  INITIAL_BROADCAST_FORM,
  broadcastPayload,
  recipientCount,
  withSentCount,
  validateBroadcastForm,
} from './broadcast-form';
import type { BroadcastFormErrors, BroadcastFormState } from './broadcast-form';
import {
  effectiveFollowUp,
  followUpAudiences,
  followUpConfirmText,
  followUpRequest,
  followUpServerErrors,
} from './follow-up-form';
import type { FollowUpDraft } from './follow-up-form';
import { formatCount } from './format';
import { retargetFromSearch } from './retarget';
import { defaultNumberId } from './send-from';
import { useGetBroadcastTemplateMediaQuery } from './sending-api';
import { boundVariables, templatePreviewContent } from './template-preview-content';
import { useBroadcastEstimate } from './use-broadcast-estimate';
import { useSegmentChoice } from './use-segment-choice';
import {
  retargetFromText,
  retargetLineText,
  segmentText,
  summaryRecipients,
  summarySendingTime,
} from './new-broadcast-text';

/** What the New broadcast screen's sections read and do. */
export type NewBroadcastForm = ReturnType<typeof useNewBroadcastForm>;

/**
 * The New broadcast screen's state, the account's data it is filled from, what follows from both (the number
 * to send from, the recipients and their estimate, the messages to show) and the send, confirm and test
 * actions; the page only lays the sections out over it.
 */
export function useNewBroadcastForm() {
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
  // What a tracked link button holds; without an answer no template is taken for one (the server still checks).
  const linkSettings = useGetLinkSettingsQuery(wabaId).data ?? null;
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
    current: estimateCurrent,
  } = useBroadcastEstimate({ ...state, phoneNumberId }, wabaId);
  // `currentData`: the chosen template's own answer, never the previous one's while the next loads.
  const template = state.templateId !== '' ? (templateQuery.currentData ?? null) : null;
  // A template whose URL button is Herald's tracked link needs a link destination (decision 091).
  const trackedLink =
    template !== null &&
    linkSettings !== null &&
    trackedButtonIndex(template.components, linkSettings.tracked_link_prefix) !== null;
  // Left out only while the offer stands: a template that is not marketing keeps every recipient. The link
  // destination only for a template with a tracked link.
  const formState = {
    ...state,
    phoneNumberId,
    leaveOutUsNumbers: state.leaveOutUsNumbers && usNumbers > 0,
    linkDestination: trackedLink ? state.linkDestination : '',
    followUp: effectiveFollowUp(state.followUp, trackedLink),
  };

  const approved = templatesQuery.data?.results.filter((t) => t.status.toUpperCase() === 'APPROVED');
  const chosenTemplate = approved?.find((t) => String(t.id) === state.templateId) ?? null;
  const followUpTemplate = approved?.find((t) => String(t.id) === state.followUp.templateId) ?? null;
  const followUp = followUpRequest(formState.followUp);
  const total = contactsQuery.data?.count;
  const contacts = contactsQuery.data?.results ?? [];
  const tags = tagsQuery.data;
  const segment = useSegmentChoice(state);
  // The preview's contact: a segment's first member in the Segment mode (someone it will reach), else the
  // account's first contact.
  const firstContact =
    !state.retarget && state.mode === 'segment'
      ? segment.firstContact
      : (contactsQuery.data?.results[0] ?? null);
  const count = withSentCount(
    recipientCount(state, total, tags ?? [], segment.contacts),
    state.mode,
    estimateCurrent && !state.retarget ? estimate?.recipients : undefined,
  );
  const errors = {
    ...(showErrors ? validateBroadcastForm(state, noSendableNumber, trackedLink) : {}),
    ...serverFieldErrors,
  };
  const preview = template ? templatePreviewContent(template, firstContact) : null;
  // The template's own header image or video for the preview (the stored media the templates screen shows).
  const mediaUrl = templateQuery.currentData?.media_url ?? null;
  const mediaQuery = useGetBroadcastTemplateMediaQuery(
    mediaUrl && (preview?.headerFormat === 'image' || preview?.headerFormat === 'video')
      ? mediaUrl
      : skipToken,
  );
  const serverRecipients = estimate ? formatCount(estimate.recipients) : 'Counting…';
  const retargetFrom = retargetFromText(retarget, sourceQuery.data?.broadcast.name);
  const segmentLine = segmentText(state, segment.chosen?.name);

  // A change clears the server's refusals: they were of the form as it was.
  function change(patch: Partial<BroadcastFormState>) {
    setState((current) => ({ ...current, ...patch }));
    setServerError(null);
    setServerFieldErrors({});
  }

  function changeFollowUp(patch: Partial<FollowUpDraft>) {
    setState((current) => ({ ...current, followUp: { ...current.followUp, ...patch } }));
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
    const problems = validateBroadcastForm(state, noSendableNumber, trackedLink);
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
      // The link destination's message goes under its field while it is shown, else above the buttons.
      const linkDestination = trackedLink ? fields.link_destination : undefined;
      // Sent only while ticked, so its fields are shown.
      const ofFollowUp = followUpServerErrors(nestedFieldErrors(error, 'follow_up'));
      if (
        fields.recipients ||
        fields.segment_id ||
        fields.phone_number_id ||
        fields.spend_cap ||
        linkDestination ||
        Object.keys(ofFollowUp).length > 0
      ) {
        setServerFieldErrors({
          recipients: fields.recipients,
          segment: fields.segment_id,
          number: fields.phone_number_id,
          spendCap: fields.spend_cap,
          linkDestination,
          ...ofFollowUp,
        });
        focusFirstInvalid();
      } else {
        setServerError(
          fields.link_destination ?? serverMessage(error, ['message', 'detail']) ?? BROADCAST_MESSAGES.failed,
        );
      }
    }
  }

  return {
    formRef,
    handleSubmit,
    wabaId,
    state,
    change,
    errors,
    serverError,
    /** The APPROVED templates; undefined while loading. */
    templates: approved,
    chosenTemplate,
    /** The chosen template has a tracked link button: the link destination is asked for, and sent. */
    trackedLink,
    followUp: {
      /** As sent: 'did not click' only while the broadcast's template has a tracked link. */
      draft: formState.followUp,
      change: changeFollowUp,
      audiences: followUpAudiences(trackedLink),
      /** The confirmation's line; null without a follow-up. */
      confirmLine:
        followUp && followUpTemplate ? followUpConfirmText(followUp, followUpTemplate.template_name) : null,
    },
    numbers,
    numbersFailed: numbersQuery.isError,
    /** The number the screen shows as chosen ('' when there is none to send from). */
    phoneNumberId,
    /** The number to send from as Meta displays it, when known. */
    fromNumber: numbers?.find((number) => number.id === phoneNumberId)?.display_phone_number ?? null,
    /** The link named an earlier broadcast's recipients in a way that cannot be read. */
    retargetUnreadable: fromUrl === 'invalid',
    retargetLine: retargetLineText(retarget, sourceQuery.isError, serverRecipients, retargetFrom),
    retargetFailed: sourceQuery.isError,
    /** 'from broadcast "Spring Sale" (Not read)' once the earlier broadcast is known. */
    retargetFrom,
    clearRetarget,
    tags,
    tagsFailed: tagsQuery.isError,
    /** The Segment mode's saved segments, the chosen one and its contacts. */
    segment,
    /** Where the recipients come from when it is not all or tagged contacts, for the confirmation. */
    recipientsNote: retargetFrom ?? (segmentLine ? `from ${segmentLine}` : null),
    /** The real contact total; undefined while unknown. */
    total,
    count,
    /**
     * The chosen contacts not sent to, and why (the server's count); null until it answers the form as it is
     * now, so a change of audience never shows the previous audience's reasons beside the new count.
     */
    leftOut: estimate && estimateCurrent && !state.retarget ? estimate.left_out : null,
    contacts,
    limit: {
      estimate,
      usNumbers,
      failed: estimateFailed,
      leaveOutUsNumbers: formState.leaveOutUsNumbers,
    },
    summary: {
      recipients: summaryRecipients(state, count, serverRecipients, retargetFrom, segmentLine),
      sendingTime: summarySendingTime(state),
    },
    preview: {
      content: preview,
      loading: templateQuery.isFetching,
      failed: templateQuery.isError && state.templateId !== '',
      contactName: firstContact?.recipient_name ?? null,
      mediaSrc: mediaQuery.currentData ?? null,
      variables: template ? boundVariables(template) : null,
    },
    sending,
    confirming,
    testing,
    openTest,
    send,
    closeConfirm: () => setConfirming(false),
    closeTest: () => setTesting(false),
  };
}
