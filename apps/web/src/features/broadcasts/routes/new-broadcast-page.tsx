import { useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { BROADCAST_MESSAGES } from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { PageHeader } from '../../../components/page-header';
import { useAppSelector } from '../../../app/hooks';
import { serverMessage } from '../../../lib/server-message';
import {
  useCreateBroadcastMutation,
  useGetBroadcastContactsQuery,
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
import type { BroadcastFormState } from '../broadcast-form';
import { formatCount, formatDateTime } from '../format';
import { templatePreviewContent } from '../template-preview-content';
import { BroadcastDetailsSection } from '../components/broadcast-details-section';
import { BroadcastPreview } from '../components/broadcast-preview';
import { BroadcastSummary } from '../components/broadcast-summary';
import { RecipientsSection } from '../components/recipients-section';
import { SelectedRecipientsSection } from '../components/selected-recipients-section';

/** Spec §2 New broadcast (/broadcast/new). */
export function NewBroadcastPage() {
  const wabaId = useAppSelector((state) => state.waba.selectedWabaAccount?.waba_id ?? null);
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [state, setState] = useState<BroadcastFormState>(INITIAL_BROADCAST_FORM);
  // Messages show after the first attempt to send, then follow the fields as they are fixed.
  const [showErrors, setShowErrors] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [createBroadcast, { isLoading: sending }] = useCreateBroadcastMutation();

  const templatesQuery = useGetBroadcastTemplatesQuery(wabaId, { refetchOnMountOrArgChange: true });
  const tagsQuery = useGetBroadcastTagsQuery(wabaId, { refetchOnMountOrArgChange: true });
  const contactsQuery = useGetBroadcastContactsQuery(wabaId, { refetchOnMountOrArgChange: true });
  const templateQuery = useGetBroadcastTemplateQuery(Number(state.templateId), {
    skip: state.templateId === '',
  });

  const approved = templatesQuery.data?.results.filter((t) => t.status.toUpperCase() === 'APPROVED');
  const chosenTemplate = approved?.find((t) => String(t.id) === state.templateId) ?? null;
  const total = contactsQuery.data?.count;
  const firstContact = contactsQuery.data?.results[0] ?? null;
  const tags = tagsQuery.data;
  const count = recipientCount(state, total, tags ?? []);
  const errors = showErrors ? validateBroadcastForm(state) : {};
  const preview =
    templateQuery.currentData && state.templateId !== ''
      ? templatePreviewContent(templateQuery.currentData, firstContact)
      : null;

  function change(patch: Partial<BroadcastFormState>) {
    setState((current) => ({ ...current, ...patch }));
    setServerError(null);
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const problems = validateBroadcastForm(state);
    if (Object.keys(problems).length > 0) {
      setShowErrors(true);
      // After React shows the messages: take the user to the first field to fix.
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    try {
      await createBroadcast(broadcastPayload(state)).unwrap();
      toast.success(BROADCAST_MESSAGES.created);
      void navigate('/broadcast');
    } catch (error) {
      console.error('Creating the broadcast failed', error);
      setServerError(serverMessage(error, ['message', 'detail']) ?? BROADCAST_MESSAGES.failed);
    }
  }

  const recipientsText =
    state.mode === 'all'
      ? `All Contacts, ${state.percentage}% (${formatCount(count.sampled)})`
      : state.tagIds.length === 0
        ? 'No tag selected'
        : `${state.tagIds.length} ${state.tagIds.length === 1 ? 'tag' : 'tags'}, ${state.percentage}% (${formatCount(count.sampled)})`;
  const sendingTime = !state.scheduled
    ? 'Immediately'
    : state.scheduledAt
      ? formatDateTime(state.scheduledAt)
      : 'Not selected';

  return (
    <>
      <PageHeader
        title="New Broadcast"
        description="Send an approved template to all your contacts or to tagged ones, now or at a set time."
      />
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => void handleSubmit(event)}
        className="grid items-start gap-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,3fr)]"
      >
        <div className="min-w-0 space-y-5">
          <BroadcastDetailsSection state={state} onChange={change} errors={errors} templates={approved} />
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
          />
          <BroadcastSummary
            templateName={chosenTemplate?.template_name ?? null}
            recipients={recipientsText}
            sendingTime={sendingTime}
          />
          {serverError ? <FormAlert>{serverError}</FormAlert> : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Link to="/broadcast" className={secondaryButtonClass}>
              Cancel
            </Link>
            <button type="submit" className={primaryButtonClass} disabled={sending}>
              {sending ? 'Sending...' : state.scheduled ? 'Schedule Broadcast' : 'Send Broadcast'}
            </button>
          </div>
        </div>

        <aside className="min-w-0 space-y-3 lg:sticky lg:top-20">
          <h2 className="text-sm font-semibold text-slate-900">Preview</h2>
          <BroadcastPreview
            content={preview}
            loading={templateQuery.isFetching}
            failed={templateQuery.isError && state.templateId !== ''}
            contactName={firstContact?.recipient_name ?? null}
          />
        </aside>
      </form>
    </>
  );
}
