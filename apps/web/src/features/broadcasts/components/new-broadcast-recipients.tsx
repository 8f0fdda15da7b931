import { FormAlert } from '../../../components/form-alert';
import { audienceChosen } from '../broadcast-form';
import type { NewBroadcastForm } from '../use-new-broadcast-form';
import { MessagingLimitNotice } from './messaging-limit-notice';
import { RecipientsSection, RetargetRecipients } from './recipients-section';
import { SelectedRecipientsSection } from './selected-recipients-section';

/** Shown when /broadcast/new?retarget=… names no broadcast or a filter the report does not have. */
export const RETARGET_UNREADABLE =
  'The link to an earlier broadcast’s recipients cannot be read: choose the recipients below.';

type NewBroadcastRecipientsProps = {
  form: Pick<
    NewBroadcastForm,
    | 'state'
    | 'change'
    | 'errors'
    | 'retargetUnreadable'
    | 'retargetLine'
    | 'retargetFailed'
    | 'clearRetarget'
    | 'tags'
    | 'tagsFailed'
    | 'segment'
    | 'total'
    | 'count'
    | 'leftOut'
    | 'limit'
  >;
};

/**
 * New broadcast's recipients: an earlier broadcast's (from a report's link) or all, tagged or a segment's
 * contacts with the percentage, each with the messaging limit against them once there is an audience to hold it against.
 */
export function NewBroadcastRecipients({ form }: NewBroadcastRecipientsProps) {
  const { state, change, errors, limit } = form;
  const limitNotice = (
    <MessagingLimitNotice
      estimate={limit.estimate}
      usNumbers={limit.usNumbers}
      failed={limit.failed}
      spreadOverLimit={state.spreadOverLimit}
      onSpreadOverLimit={(spreadOverLimit) => change({ spreadOverLimit })}
      leaveOutUsNumbers={limit.leaveOutUsNumbers}
      onLeaveOutUsNumbers={(leaveOutUsNumbers) => change({ leaveOutUsNumbers })}
      error={errors.recipients}
    />
  );

  return (
    <>
      {form.retargetUnreadable ? <FormAlert>{RETARGET_UNREADABLE}</FormAlert> : null}
      {state.retarget ? (
        <RetargetRecipients
          line={form.retargetLine}
          failed={form.retargetFailed}
          onClear={form.clearRetarget}
        >
          {limitNotice}
        </RetargetRecipients>
      ) : (
        <>
          <RecipientsSection
            mode={state.mode}
            tagIds={state.tagIds}
            onMode={(mode) => change({ mode })}
            onTagIds={(tagIds) => change({ tagIds })}
            tags={form.tags}
            tagsFailed={form.tagsFailed}
            total={form.total}
            error={errors.tags}
            segment={{
              segmentId: state.segmentId,
              onSegmentId: (segmentId) => change({ segmentId }),
              segments: form.segment.segments,
              failed: form.segment.failed,
              error: errors.segment,
            }}
          />
          <SelectedRecipientsSection
            mode={state.mode}
            count={form.count}
            estimated={
              state.mode === 'segment' ? form.segment.contacts === undefined : form.total === undefined
            }
            percentage={state.percentage}
            onPercentage={(percentage) => change({ percentage })}
            leftOut={form.leftOut}
          >
            {audienceChosen(state) ? limitNotice : null}
          </SelectedRecipientsSection>
        </>
      )}
    </>
  );
}
