import { SEGMENT_LIMITS } from '@herald/contracts';
import type { SegmentMatch } from '@herald/contracts';
import { secondaryButtonClass } from '../../../components/button-classes';
import { PlusIcon, TrashIcon } from '../../../components/icons';
import { RULE_KIND_LABELS } from '../segment-draft';
import type { GroupDraft, RuleDraft, RuleKind } from '../segment-draft';
import { groupPath, rulePath } from '../segment-errors';
import type { SegmentErrors } from '../segment-errors';
import { ErrorNote, SelectControl } from './controls';
import { RuleFields } from './rule-fields';
import type { RuleChoices } from './rule-fields';

const smallButtonClass =
  'inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-emerald-600 disabled:cursor-not-allowed disabled:opacity-60';

type SegmentGroupCardProps = {
  group: GroupDraft;
  index: number;
  choices: RuleChoices;
  errors: SegmentErrors;
  onMatch: (match: SegmentMatch) => void;
  onRule: (ruleIndex: number, patch: Partial<RuleDraft>) => void;
  onAddRule: () => void;
  onRemoveRule: (ruleIndex: number) => void;
  onRemove: () => void;
};

/** One group of rules: how they combine, each rule's inputs, and adding or removing rules and the group. */
export function SegmentGroupCard({
  group,
  index,
  choices,
  errors,
  onMatch,
  onRule,
  onAddRule,
  onRemoveRule,
  onRemove,
}: SegmentGroupCardProps) {
  const groupError = errors[groupPath(index)];
  return (
    <section
      aria-label={`Group ${index + 1}`}
      className="rounded-xl border border-slate-200 bg-slate-50/60 p-4"
    >
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <SelectControl
          label={`Group ${index + 1}`}
          className="w-full sm:w-56"
          value={group.match}
          onChange={(event) => onMatch(event.target.value as SegmentMatch)}
        >
          <option value="all">All of these rules</option>
          <option value="any">Any of these rules</option>
        </SelectControl>
        <button
          type="button"
          className={`${smallButtonClass} text-slate-600 hover:bg-slate-100 hover:text-red-700`}
          onClick={onRemove}
        >
          <TrashIcon width={16} height={16} />
          Remove group
        </button>
      </div>

      {group.rules.length ? (
        <ol className="space-y-2">
          {group.rules.map((rule, ruleIndex) => {
            const path = rulePath(index, ruleIndex);
            return (
              <li key={rule.key}>
                {ruleIndex > 0 ? (
                  <p className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">
                    {group.match === 'all' ? 'and' : 'or'}
                  </p>
                ) : null}
                <div
                  role="group"
                  aria-label={`Rule ${ruleIndex + 1}`}
                  className="rounded-lg border border-slate-200 bg-white p-3"
                >
                  {/* The inputs wrap among themselves; beside them from sm up, the remove button keeps to the
                      top right instead of wrapping onto a line of its own under a long rule. */}
                  <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
                    <div className="flex min-w-0 flex-1 flex-wrap items-start gap-3">
                      <SelectControl
                        label="Rule"
                        className="w-full sm:w-52"
                        value={rule.kind}
                        onChange={(event) => onRule(ruleIndex, { kind: event.target.value as RuleKind })}
                      >
                        {(Object.keys(RULE_KIND_LABELS) as RuleKind[]).map((kind) => (
                          <option key={kind} value={kind}>
                            {RULE_KIND_LABELS[kind]}
                          </option>
                        ))}
                      </SelectControl>
                      <RuleFields
                        rule={rule}
                        choices={choices}
                        onChange={(patch) => onRule(ruleIndex, patch)}
                        errorOf={(field) => errors[`${path}.${field}`]}
                      />
                    </div>
                    <button
                      type="button"
                      className={`${smallButtonClass} shrink-0 self-end text-slate-600 hover:bg-slate-100 hover:text-red-700 sm:mt-5 sm:self-start`}
                      onClick={() => onRemoveRule(ruleIndex)}
                    >
                      <TrashIcon width={16} height={16} />
                      Remove rule
                    </button>
                  </div>
                  <ErrorNote id={`${path}-error`} error={errors[path]} />
                </div>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="text-sm text-slate-500">No rules in this group yet.</p>
      )}

      <ErrorNote id={`${groupPath(index)}-error`} error={groupError} />
      <button
        type="button"
        className={`${secondaryButtonClass} mt-3`}
        disabled={group.rules.length >= SEGMENT_LIMITS.rules}
        onClick={onAddRule}
      >
        <PlusIcon width={16} height={16} />
        Add rule
      </button>
    </section>
  );
}
