import { invalidParameter } from '../errors';

/** What happens to a template's held messages once Meta has assessed it. */
export interface PacingRule {
  /** Share of the template's sends answered `held_for_quality_assessment`. */
  heldShare: number;
  /** release: they go out (sent, delivered, read) after `afterMs`; drop: they fail then with 132015. */
  outcome: 'release' | 'drop';
  afterMs: number;
}

const MAX_AFTER_MS = 24 * 60 * 60 * 1000;

/** `POST /__sandbox/templates/{id}/pacing` `{held_share, outcome?, after_ms?}`, checked whole. */
export function parsePacingRule(params: Record<string, unknown>): PacingRule {
  const rawShare = params.held_share ?? params.heldShare;
  const share = typeof rawShare === 'string' && rawShare.trim() !== '' ? Number(rawShare) : rawShare;
  if (typeof share !== 'number' || !Number.isFinite(share) || share < 0 || share > 1) {
    throw invalidParameter('held_share must be a number from 0 to 1');
  }
  const outcome = params.outcome ?? 'release';
  if (outcome !== 'release' && outcome !== 'drop') {
    throw invalidParameter('outcome must be "release" or "drop"');
  }
  const rawAfter = params.after_ms ?? params.afterMs ?? 1000;
  const afterMs = typeof rawAfter === 'string' && rawAfter.trim() !== '' ? Number(rawAfter) : rawAfter;
  if (typeof afterMs !== 'number' || !Number.isInteger(afterMs) || afterMs < 0 || afterMs > MAX_AFTER_MS) {
    throw invalidParameter(`after_ms must be a whole number from 0 to ${MAX_AFTER_MS}`);
  }
  return { heldShare: share, outcome, afterMs };
}

/**
 * Template pacing, set per template by tests (Meta paces new, unpaused and not-GREEN templates; when is
 * its secret, so the sandbox paces only what a test asks for). Like faults, not kept across a restart; the
 * held messages' planned statuses are.
 */
export class Pacing {
  private readonly rules = new Map<string, PacingRule>();

  constructor(private readonly random: () => number = Math.random) {}

  set(templateId: string, rule: PacingRule): void {
    if (rule.heldShare === 0) this.rules.delete(templateId);
    else this.rules.set(templateId, rule);
  }

  get(templateId: string): PacingRule | undefined {
    return this.rules.get(templateId);
  }

  /** The rule when this send is held, else undefined. */
  hold(templateId: string): PacingRule | undefined {
    const rule = this.rules.get(templateId);
    return rule && this.random() < rule.heldShare ? rule : undefined;
  }

  clear(): void {
    this.rules.clear();
  }
}
