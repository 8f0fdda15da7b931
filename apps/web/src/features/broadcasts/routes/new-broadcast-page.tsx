import { FormAlert } from '../../../components/form-alert';
import { FormPreviewSwitch, useFormPreviewPane } from '../../../components/form-preview-switch';
import { LiveErrors } from '../../../components/live-errors';
import { PageHeader } from '../../../components/page-header';
import { BroadcastDetailsSection } from '../components/broadcast-details-section';
import { BroadcastSummary } from '../components/broadcast-summary';
import { CostEstimate } from '../components/cost-estimate';
import { FollowUpSection } from '../components/follow-up-section';
import { LinkDestinationField } from '../components/link-destination-field';
import { NewBroadcastActions, NewBroadcastDialogs } from '../components/new-broadcast-actions';
import { NewBroadcastPreviewPane } from '../components/new-broadcast-preview-pane';
import { NewBroadcastRecipients } from '../components/new-broadcast-recipients';
import { SendFromField } from '../components/send-from-field';
import { useNewBroadcastForm } from '../use-new-broadcast-form';

export { RETARGET_UNREADABLE } from '../components/new-broadcast-recipients';

/** New broadcast (/broadcast/new): the sections over one form, with the preview beside them. */
export function NewBroadcastPage() {
  const form = useNewBroadcastForm();
  const { state, change, errors } = form;
  // On a phone the preview is one tap away instead of below the whole form.
  const { pane, setPane, formClass, previewClass } = useFormPreviewPane();

  return (
    <>
      <PageHeader
        title="New Broadcast"
        description="Send an approved template to all your contacts, to tagged ones or to a segment, now or at a set time."
      />
      <form
        ref={form.formRef}
        noValidate
        onSubmit={form.handleSubmit}
        className="grid items-start gap-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,3fr)]"
      >
        <FormPreviewSwitch pane={pane} onChange={setPane} />
        <div className={`min-w-0 space-y-5 ${formClass}`}>
          <BroadcastDetailsSection state={state} onChange={change} errors={errors} templates={form.templates}>
            {form.trackedLink ? (
              <LinkDestinationField
                value={state.linkDestination}
                onChange={(linkDestination) => change({ linkDestination })}
                error={errors.linkDestination}
              />
            ) : null}
            <SendFromField
              numbers={form.numbers}
              failed={form.numbersFailed}
              value={form.phoneNumberId}
              onChange={(id) => change({ phoneNumberId: id })}
              error={errors.number}
            />
          </BroadcastDetailsSection>
          <NewBroadcastRecipients form={form} />
          <FollowUpSection
            draft={form.followUp.draft}
            onChange={form.followUp.change}
            errors={errors}
            templates={form.templates}
            audiences={form.followUp.audiences}
          />
          <BroadcastSummary
            templateName={form.chosenTemplate?.template_name ?? null}
            recipients={form.summary.recipients}
            sendingTime={form.summary.sendingTime}
          />
          <CostEstimate
            state={{ ...state, phoneNumberId: form.phoneNumberId }}
            wabaId={form.wabaId}
            onSpendCap={(spendCap) => change({ spendCap })}
            spendCapError={errors.spendCap}
          />
          {form.serverError ? <FormAlert>{form.serverError}</FormAlert> : null}
          <LiveErrors count={Object.values(errors).filter(Boolean).length} />
          <NewBroadcastActions form={form} />
        </div>
        <NewBroadcastPreviewPane preview={form.preview} className={previewClass} />
      </form>
      <NewBroadcastDialogs form={form} />
    </>
  );
}
