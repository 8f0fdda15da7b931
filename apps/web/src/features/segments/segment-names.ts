import { segmentDescription } from '@herald/contracts';
import type { Segment, SegmentNames } from '@herald/contracts';

/** The names a segment's words need, from the lists at hand (either may still be loading). */
export function segmentNames(
  tags: ReadonlyArray<{ id: number; name: string }> | undefined,
  broadcasts: ReadonlyArray<{ id: number; name: string }> | undefined,
): SegmentNames {
  return {
    tags: new Map((tags ?? []).map((tag) => [tag.id, tag.name])),
    broadcasts: new Map((broadcasts ?? []).map((broadcast) => [broadcast.id, broadcast.name])),
  };
}

/**
 * A saved segment's rules in words, a line per group. Said here so a renamed tag reads at once; when a rule
 * names a tag or broadcast these lists lack (an older broadcast, tags still loading), the server's words,
 * which know every name, stand in rather than a bare "#12".
 */
export function segmentLines(segment: Segment, names: SegmentNames): string[] {
  const unnamed = segment.definition.groups.some((group) =>
    group.rules.some(
      (rule) =>
        (rule.kind === 'tags' && rule.tag_ids.some((id) => !names.tags.has(id))) ||
        (rule.kind === 'engagement' &&
          rule.broadcast_id !== undefined &&
          !names.broadcasts.has(rule.broadcast_id)),
    ),
  );
  return unnamed && segment.description.length
    ? segment.description
    : segmentDescription(segment.definition, names);
}
