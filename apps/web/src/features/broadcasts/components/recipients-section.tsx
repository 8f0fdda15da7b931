import { useId, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import type { Tag } from '@herald/contracts';
import { SearchIcon } from '../../../components/icons';
import type { RecipientMode } from '../broadcast-form';
import { formatCount } from '../format';
import { FieldError, SectionCard, inputClass } from './section-card';
import { SegmentPicker, type SegmentPickerProps } from './segment-picker';

type RecipientsSectionProps = {
  mode: RecipientMode;
  tagIds: number[];
  onMode: (mode: RecipientMode) => void;
  onTagIds: (tagIds: number[]) => void;
  /** The account's tags; undefined while loading. */
  tags: Tag[] | undefined;
  tagsFailed: boolean;
  /** The real contact total; undefined while unknown. */
  total: number | undefined;
  error?: string;
  /** The Segment mode's select. */
  segment: SegmentPickerProps;
};

const MODES: ReadonlyArray<{ mode: RecipientMode; label: string }> = [
  { mode: 'all', label: 'All Contacts' },
  { mode: 'filter', label: 'Filter by Tags' },
  { mode: 'segment', label: 'Segment' },
];

type RetargetRecipientsProps = {
  /** 'Recipients: 12 from broadcast "Spring Sale" (Not read)', or why it cannot be read. */
  line: string;
  failed: boolean;
  /** Back to all or tagged contacts. */
  onClear: () => void;
  /** Under the line: the messaging limit against them. */
  children?: ReactNode;
};

/**
 * New broadcast opened from a delivery report's filter sends to those recipients, frozen as a
 * list when it is created; the tabs give way to the line naming them.
 */
export function RetargetRecipients({ line, failed, onClear, children }: RetargetRecipientsProps) {
  return (
    <SectionCard
      title="Recipients"
      description="Recipients of an earlier broadcast, as its delivery report filtered them. Contacts who opted out are left out."
    >
      <p
        role="status"
        aria-label="Retarget recipients"
        className={`rounded-lg px-3 py-3 text-sm font-medium ${failed ? 'bg-red-50 text-red-700' : 'bg-slate-50 text-slate-800'}`}
      >
        {line}
      </p>
      {children}
      <button
        type="button"
        onClick={onClear}
        className="text-sm font-medium text-emerald-700 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-600"
      >
        Choose other recipients
      </button>
    </SectionCard>
  );
}

/**
 * New broadcast: the 'All Contacts', 'Filter by Tags' and 'Segment' tabs, with the tag search and list or the
 * saved segments.
 */
export function RecipientsSection(props: RecipientsSectionProps) {
  const { mode, onMode } = props;
  const id = useId();
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);

  function handleKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const at = MODES.findIndex((option) => option.mode === mode);
    const next = (at + (event.key === 'ArrowRight' ? 1 : MODES.length - 1)) % MODES.length;
    onMode(MODES[next]!.mode);
    tabs.current[next]?.focus();
  }

  return (
    <SectionCard
      title="Recipients"
      description="Send to every contact, to the contacts carrying chosen tags, or to a saved segment."
    >
      <div role="tablist" aria-label="Recipients" className="flex gap-1 rounded-lg bg-slate-100 p-1">
        {MODES.map((option, i) => (
          <button
            key={option.mode}
            ref={(element) => {
              tabs.current[i] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-${option.mode}-tab`}
            aria-selected={mode === option.mode}
            aria-controls={`${id}-panel`}
            tabIndex={mode === option.mode ? 0 : -1}
            onClick={() => onMode(option.mode)}
            onKeyDown={handleKeyDown}
            className={`flex-1 rounded-md px-3 py-2 text-sm font-medium transition focus-visible:outline-2 focus-visible:outline-emerald-600 ${
              mode === option.mode
                ? 'bg-white text-slate-900 shadow-xs'
                : 'text-slate-600 hover:text-slate-800'
            }`}
          >
            {option.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${mode}-tab`}>
        {mode === 'all' ? (
          <p className="rounded-lg bg-slate-50 px-3 py-3 text-sm text-slate-600">
            {props.total === undefined
              ? 'Every contact of this account receives the broadcast.'
              : `All ${formatCount(props.total)} contacts of this account, except those who opted out.`}
          </p>
        ) : mode === 'segment' ? (
          <SegmentPicker {...props.segment} />
        ) : (
          <TagFilter {...props} />
        )}
      </div>
    </SectionCard>
  );
}

function TagFilter({ tags, tagIds, onTagIds, tagsFailed, error }: RecipientsSectionProps) {
  const [query, setQuery] = useState('');
  const errorId = useId();
  const needle = query.trim().toLowerCase();
  const shown = tags?.filter((tag) => tag.name.toLowerCase().includes(needle)) ?? [];
  const chosen = new Set(tagIds);

  function toggle(tag: Tag, checked: boolean) {
    onTagIds(checked ? [...tagIds, tag.id] : tagIds.filter((tagId) => tagId !== tag.id));
  }

  return (
    <div className="space-y-3">
      <div className="relative">
        <SearchIcon
          width={16}
          height={16}
          className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-500"
        />
        <input
          type="search"
          aria-label="Search tags"
          placeholder="Search tags"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          className={`${inputClass()} pl-9`}
        />
      </div>
      {tagsFailed ? (
        <p role="alert" className="text-sm text-red-600">
          Failed to load tags.
        </p>
      ) : tags === undefined ? (
        <p className="text-sm text-slate-500">Loading tags...</p>
      ) : tags.length === 0 ? (
        <p className="text-sm text-slate-500">
          No tags yet. Tags are given to contacts when they are imported.
        </p>
      ) : shown.length === 0 ? (
        <p className="text-sm text-slate-500">No tags found matching &quot;{query.trim()}&quot;</p>
      ) : (
        <ul
          aria-label="Tags"
          aria-describedby={error ? errorId : undefined}
          className={`max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-lg border ${
            error ? 'border-red-300' : 'border-slate-200'
          }`}
        >
          {shown.map((tag) => (
            <li key={tag.id} className="flex items-center justify-between gap-3 px-3 py-2 hover:bg-slate-50">
              <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2.5 text-sm text-slate-800">
                <input
                  type="checkbox"
                  checked={chosen.has(tag.id)}
                  onChange={(event) => toggle(tag, event.target.checked)}
                  aria-invalid={error ? true : undefined}
                  className="size-4 rounded border-slate-300 accent-emerald-600"
                />
                <span className="truncate">{tag.name}</span>
              </label>
              <span className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">
                {formatCount(tag.count)} {tag.count === 1 ? 'contact' : 'contacts'}
              </span>
            </li>
          ))}
        </ul>
      )}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}
