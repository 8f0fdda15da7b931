import { useState } from 'react';
import type { SegmentMatch } from '@herald/contracts';
import { emptyGroup, emptyRule } from './segment-draft';
import type { GroupDraft, RuleDraft, SegmentDraft } from './segment-draft';
import { rulePath, withoutErrors } from './segment-errors';
import type { SegmentErrors } from './segment-errors';

/**
 * The builder's segment and its messages, with the edits it allows. An edit answers the messages it could
 * have fixed: those of the changed input's rule (or the name), and the form's; adding or removing a rule or
 * group moves the others' places, so it drops every message but the name's.
 */
export function useSegmentDraft(initial: () => SegmentDraft) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<SegmentErrors>({});

  // The segment's match and a group's match answer only their own message, not those of the rules inside.
  const answer = (place: string, inside = true) =>
    setErrors((current) =>
      Object.fromEntries(
        Object.entries(inside ? withoutErrors(current, place) : current).filter(
          ([at]) => at !== place && at !== 'form' && at !== 'definition',
        ),
      ),
    );
  const reshape = () => setErrors((current): SegmentErrors => (current.name ? { name: current.name } : {}));

  function changeGroups(change: (groups: GroupDraft[]) => GroupDraft[]) {
    setDraft((current) => ({ ...current, groups: change(current.groups) }));
  }
  function changeGroup(index: number, change: (group: GroupDraft) => GroupDraft) {
    changeGroups((groups) => groups.map((group, at) => (at === index ? change(group) : group)));
  }

  return {
    draft,
    errors,
    setErrors,
    setName(name: string) {
      setDraft((current) => ({ ...current, name }));
      answer('name');
    },
    setMatch(match: SegmentMatch) {
      setDraft((current) => ({ ...current, match }));
      answer('definition');
    },
    setGroupMatch(index: number, match: SegmentMatch) {
      changeGroup(index, (group) => ({ ...group, match }));
      answer(`groups.${index}`, false);
    },
    changeRule(groupIndex: number, ruleIndex: number, patch: Partial<RuleDraft>) {
      changeGroup(groupIndex, (group) => ({
        ...group,
        rules: group.rules.map((rule, at) => (at === ruleIndex ? { ...rule, ...patch } : rule)),
      }));
      answer(rulePath(groupIndex, ruleIndex));
    },
    addRule(groupIndex: number) {
      changeGroup(groupIndex, (group) => ({ ...group, rules: [...group.rules, emptyRule()] }));
      reshape();
    },
    removeRule(groupIndex: number, ruleIndex: number) {
      changeGroup(groupIndex, (group) => ({
        ...group,
        rules: group.rules.filter((_, at) => at !== ruleIndex),
      }));
      reshape();
    },
    addGroup() {
      changeGroups((groups) => [...groups, emptyGroup()]);
      reshape();
    },
    removeGroup(index: number) {
      changeGroups((groups) => groups.filter((_, at) => at !== index));
      reshape();
    },
  };
}
