import { SEGMENT_EVENT_LABELS, SEGMENT_EVENTS, SEGMENT_LIMITS } from '@herald/contracts';
import type { SegmentEvent, SegmentFieldsResponse, SegmentTextOp } from '@herald/contracts';
import type { BroadcastName } from '../api';
import type { RuleDraft, TagMatch } from '../segment-draft';
import { CheckboxList, InputControl, SelectControl } from './controls';

/** What the rules can choose from; the broadcasts are left out while none are at hand. */
export type RuleChoices = {
  tags: ReadonlyArray<{ id: number; name: string }>;
  columns: SegmentFieldsResponse['columns'];
  markets: readonly string[];
  broadcasts: readonly BroadcastName[] | undefined;
};

export type RuleFieldsProps = {
  rule: RuleDraft;
  choices: RuleChoices;
  onChange: (patch: Partial<RuleDraft>) => void;
  /** The message for one of the rule's fields, by its name in the request ('tag_ids'). */
  errorOf: (field: string) => string | undefined;
};

const TAG_MATCH_LABELS: Record<TagMatch, string> = {
  any: 'has any of',
  all: 'has all of',
  none: 'has none of',
};

const TEXT_OP_LABELS: Record<SegmentTextOp, string> = {
  equals: 'equals',
  contains: 'contains',
  empty: 'is empty',
  not_empty: 'is not empty',
};

const fieldClass = 'w-full sm:w-44';
/**
 * A list of boxes fills what the row leaves, but drops to a line of its own rather than be squeezed beside the
 * selects into a column one word wide.
 */
const listClass = 'min-w-0 grow basis-56';

function ColumnSelect({
  rule,
  choices,
  onChange,
  errorOf,
  customOnly = false,
}: RuleFieldsProps & { customOnly?: boolean }) {
  const names = choices.columns.filter((column) => !customOnly || column.custom).map((column) => column.name);
  // A saved rule's column that is gone since (or not a custom one) stays selectable as it is.
  if (rule.column && !names.includes(rule.column)) names.push(rule.column);
  return (
    <SelectControl
      label="Column"
      className={fieldClass}
      value={rule.column}
      error={errorOf('column')}
      onChange={(event) => onChange({ column: event.target.value })}
    >
      <option value="" disabled>
        {names.length ? 'Choose a column' : customOnly ? 'No imported columns' : 'No columns'}
      </option>
      {names.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </SelectControl>
  );
}

function DateRange({ rule, onChange, errorOf }: RuleFieldsProps) {
  return (
    <>
      <InputControl
        label="From"
        type="date"
        className={fieldClass}
        value={rule.from}
        error={errorOf('from')}
        onChange={(event) => onChange({ from: event.target.value })}
      />
      <InputControl
        label="To"
        type="date"
        className={fieldClass}
        value={rule.to}
        error={errorOf('to')}
        onChange={(event) => onChange({ to: event.target.value })}
      />
    </>
  );
}

function TagsFields({ rule, choices, onChange, errorOf }: RuleFieldsProps) {
  const options = choices.tags.map((tag) => ({ value: tag.id, label: tag.name }));
  // A tag deleted since the segment was saved stays listed, so it can be unticked.
  for (const id of rule.tagIds)
    if (!options.some((option) => option.value === id)) options.push({ value: id, label: `#${id}` });
  return (
    <>
      <SelectControl
        label="Contact"
        className={fieldClass}
        value={rule.tagMatch}
        error={errorOf('match')}
        onChange={(event) => onChange({ tagMatch: event.target.value as TagMatch })}
      >
        {(Object.keys(TAG_MATCH_LABELS) as TagMatch[]).map((match) => (
          <option key={match} value={match}>
            {TAG_MATCH_LABELS[match]}
          </option>
        ))}
      </SelectControl>
      <CheckboxList
        legend="Tags"
        className={listClass}
        options={options}
        selected={rule.tagIds}
        emptyText="No tags yet: tag contacts on the Customers page."
        error={errorOf('tag_ids')}
        onChange={(tagIds) => onChange({ tagIds })}
      />
    </>
  );
}

function TextFields(props: RuleFieldsProps) {
  const { rule, onChange, errorOf } = props;
  return (
    <>
      <ColumnSelect {...props} />
      <SelectControl
        label="Condition"
        className={fieldClass}
        value={rule.op}
        error={errorOf('op')}
        onChange={(event) => onChange({ op: event.target.value as SegmentTextOp })}
      >
        {(Object.keys(TEXT_OP_LABELS) as SegmentTextOp[]).map((op) => (
          <option key={op} value={op}>
            {TEXT_OP_LABELS[op]}
          </option>
        ))}
      </SelectControl>
      {rule.op === 'equals' || rule.op === 'contains' ? (
        <InputControl
          label="Value"
          className={fieldClass}
          value={rule.value}
          maxLength={200}
          autoComplete="off"
          error={errorOf('value')}
          onChange={(event) => onChange({ value: event.target.value })}
        />
      ) : null}
    </>
  );
}

function NumberFields(props: RuleFieldsProps) {
  const { rule, onChange, errorOf } = props;
  return (
    <>
      <ColumnSelect {...props} />
      <InputControl
        label="Min"
        type="number"
        inputMode="decimal"
        className={fieldClass}
        value={rule.min}
        error={errorOf('min')}
        onChange={(event) => onChange({ min: event.target.value })}
      />
      <InputControl
        label="Max"
        type="number"
        inputMode="decimal"
        className={fieldClass}
        value={rule.max}
        error={errorOf('max')}
        onChange={(event) => onChange({ max: event.target.value })}
      />
    </>
  );
}

function MarketFields({ rule, choices, onChange, errorOf }: RuleFieldsProps) {
  const markets = [...choices.markets, ...rule.markets.filter((market) => !choices.markets.includes(market))];
  return (
    <CheckboxList
      legend="Countries or regions"
      className={listClass}
      options={markets.map((market) => ({ value: market, label: market }))}
      selected={rule.markets}
      emptyText="No countries or regions to choose from."
      error={errorOf('markets')}
      onChange={(selected) => onChange({ markets: selected })}
    />
  );
}

function EngagementFields({ rule, choices, onChange, errorOf }: RuleFieldsProps) {
  const broadcasts = choices.broadcasts ? [...choices.broadcasts] : undefined;
  const chosen = Number(rule.broadcastId);
  if (broadcasts && rule.broadcastId && !broadcasts.some((broadcast) => broadcast.id === chosen))
    broadcasts.push({ id: chosen, name: `#${chosen}` });
  return (
    <>
      <SelectControl
        label="Contact"
        className="w-full sm:w-32"
        value={rule.did ? 'did' : 'did_not'}
        error={errorOf('did')}
        onChange={(event) => onChange({ did: event.target.value === 'did' })}
      >
        {/* "has" reads with every activity's past participle: "has not replied to a broadcast". */}
        <option value="did">has</option>
        <option value="did_not">has not</option>
      </SelectControl>
      <SelectControl
        label="Activity"
        className="w-full sm:w-64"
        value={rule.event}
        error={errorOf('event')}
        onChange={(event) => onChange({ event: event.target.value as SegmentEvent })}
      >
        {SEGMENT_EVENTS.map((event) => (
          <option key={event} value={event}>
            {SEGMENT_EVENT_LABELS[event]}
          </option>
        ))}
      </SelectControl>
      <InputControl
        label="In the last (days)"
        type="number"
        inputMode="numeric"
        min={1}
        max={SEGMENT_LIMITS.days}
        step={1}
        placeholder="Ever"
        className="w-full sm:w-32"
        value={rule.withinDays}
        error={errorOf('within_days')}
        onChange={(event) => onChange({ withinDays: event.target.value })}
      />
      {broadcasts?.length ? (
        <SelectControl
          label="Of broadcast"
          className={fieldClass}
          value={rule.broadcastId}
          error={errorOf('broadcast_id')}
          onChange={(event) => onChange({ broadcastId: event.target.value })}
        >
          <option value="">Any broadcast</option>
          {broadcasts.map((broadcast) => (
            <option key={broadcast.id} value={String(broadcast.id)}>
              {broadcast.name}
            </option>
          ))}
        </SelectControl>
      ) : null}
    </>
  );
}

/** The inputs of one rule, by its kind. */
export function RuleFields(props: RuleFieldsProps) {
  switch (props.rule.kind) {
    case 'tags':
      return <TagsFields {...props} />;
    case 'text':
      return <TextFields {...props} />;
    case 'number':
      return <NumberFields {...props} />;
    case 'date':
      return (
        <>
          <ColumnSelect {...props} customOnly />
          <DateRange {...props} />
        </>
      );
    case 'market':
      return <MarketFields {...props} />;
    case 'opted_in':
      return <DateRange {...props} />;
    case 'engagement':
      return <EngagementFields {...props} />;
  }
}
