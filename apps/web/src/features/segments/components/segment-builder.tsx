import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import toast from 'react-hot-toast';
import { SEGMENT_LIMITS, SegmentRequestSchema } from '@herald/contracts';
import type { Segment, SegmentMatch } from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { FormField } from '../../../components/form-field';
import { PlusIcon } from '../../../components/icons';
import { errorText } from '../../../lib/error-text';
import { fieldErrorEntries } from '../../../lib/field-errors';
import {
  useCreateSegmentMutation,
  useSegmentFieldsQuery,
  useUpdateSegmentMutation,
} from '../../../lib/segments-api';
import { definitionInput, emptyDraft, segmentDraft, validDefinition } from '../segment-draft';
import { placeErrors } from '../segment-errors';
import { useSegmentDraft } from '../use-segment-draft';
import { ErrorNote, SelectControl } from './controls';
import type { RuleChoices } from './rule-fields';
import { SegmentCount } from './segment-count';
import { SegmentGroupCard } from './segment-group-card';

type SegmentBuilderProps = {
  /** The segment to edit; none: a new one. */
  segment?: Segment;
  /** The account's tags and the latest broadcasts, for the rules to choose from. */
  tags: RuleChoices['tags'];
  broadcasts: RuleChoices['broadcasts'];
  onClose: () => void;
};

/**
 * Builds a segment: its name, its groups of rules and how they combine, with the live count of who matches.
 * Saving checks the segment as the server will, so most mistakes show at once under their inputs; the server's
 * own 400s land in the same places.
 */
export function SegmentBuilder({ segment, tags, broadcasts, onClose }: SegmentBuilderProps) {
  const headingId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const builder = useSegmentDraft(() =>
    segment ? segmentDraft(segment.name, segment.definition) : emptyDraft(),
  );
  const { draft, errors, setErrors } = builder;
  const { data: fields } = useSegmentFieldsQuery();
  const [createSegment, created] = useCreateSegmentMutation();
  const [updateSegment, updated] = useUpdateSegmentMutation();
  const saving = created.isLoading || updated.isLoading;
  // Bumped by each refused save, so the first input with a message takes the focus once it has rendered.
  const [refusals, setRefusals] = useState(0);

  useEffect(() => {
    if (!refusals) return;
    const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    // A list of boxes is marked as a whole; its first box takes the focus.
    (invalid?.matches('fieldset') ? invalid.querySelector<HTMLElement>('input') : invalid)?.focus();
  }, [refusals]);

  const choices: RuleChoices = {
    tags,
    columns: fields?.columns ?? [],
    markets: fields?.markets ?? [],
    broadcasts,
  };

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const request = SegmentRequestSchema.safeParse({ name: draft.name, definition: definitionInput(draft) });
    if (!request.success) {
      const entries = request.error.issues.map((issue) => ({
        field: issue.path.map(String).join('.'),
        message: issue.message,
      }));
      setErrors(placeErrors(entries, draft));
      setRefusals((count) => count + 1);
      return;
    }
    try {
      if (segment) await updateSegment({ id: segment.id, request: request.data }).unwrap();
      else await createSegment(request.data).unwrap();
      toast.success('Segment saved');
      onClose();
    } catch (failure) {
      console.error('Saving the segment failed', failure);
      const placed = placeErrors(fieldErrorEntries(failure), draft);
      setErrors(Object.keys(placed).length ? placed : { form: errorText(failure) });
      setRefusals((count) => count + 1);
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className="mb-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id={headingId} className="mb-4 text-lg font-semibold text-slate-900">
        {segment ? 'Edit segment' : 'New segment'}
      </h2>
      <form ref={formRef} noValidate onSubmit={(event) => void handleSubmit(event)} className="space-y-4">
        <FormField
          label="Segment name"
          // The button that opened the builder goes away: typing starts here.
          autoFocus
          className="max-w-md"
          value={draft.name}
          maxLength={SEGMENT_LIMITS.name}
          autoComplete="off"
          error={errors.name}
          onChange={(event) => builder.setName(event.target.value)}
        />

        {draft.groups.length > 1 ? (
          <SelectControl
            label="Groups"
            className="w-full sm:w-56"
            value={draft.match}
            onChange={(event) => builder.setMatch(event.target.value as SegmentMatch)}
          >
            <option value="all">Match all groups</option>
            <option value="any">Match any group</option>
          </SelectControl>
        ) : null}

        <div className="space-y-2">
          {draft.groups.map((group, index) => (
            <div key={group.key}>
              {index > 0 ? (
                <p className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">
                  {draft.match === 'all' ? 'and' : 'or'}
                </p>
              ) : null}
              <SegmentGroupCard
                group={group}
                index={index}
                choices={choices}
                errors={errors}
                onMatch={(match) => builder.setGroupMatch(index, match)}
                onRule={(ruleIndex, patch) => builder.changeRule(index, ruleIndex, patch)}
                onAddRule={() => builder.addRule(index)}
                onRemoveRule={(ruleIndex) => builder.removeRule(index, ruleIndex)}
                onRemove={() => builder.removeGroup(index)}
              />
            </div>
          ))}
        </div>
        {draft.groups.length ? null : <p className="text-sm text-slate-500">No rules yet: add a group.</p>}
        <ErrorNote id={`${headingId}-definition`} error={errors.definition} />

        <button
          type="button"
          className={secondaryButtonClass}
          disabled={draft.groups.length >= SEGMENT_LIMITS.groups}
          onClick={builder.addGroup}
        >
          <PlusIcon width={16} height={16} />
          Add group
        </button>

        {errors.form ? <FormAlert>{errors.form}</FormAlert> : null}

        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4">
          <SegmentCount definition={validDefinition(draft)} />
          <div className="flex gap-2">
            <button type="button" className={secondaryButtonClass} disabled={saving} onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className={primaryButtonClass} disabled={saving}>
              {saving ? 'Saving...' : 'Save segment'}
            </button>
          </div>
        </div>
      </form>
    </section>
  );
}
