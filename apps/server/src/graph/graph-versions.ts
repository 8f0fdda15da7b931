/**
 * The Graph API versions Herald knows and the day each stops working, from Meta's changelog
 * (developers.facebook.com/docs/graph-api/changelog/versions, read 2026-11-23). Meta serves a version for about
 * two years after the next one is released; after its end, calls to it are answered by the oldest version
 * still usable, so a forgotten setting silently changes behaviour rather than failing. Decision 024.
 */
export const GRAPH_API_VERSIONS: ReadonlyArray<{ version: string; endsOn: string | null }> = [
  { version: 'v26.0', endsOn: null }, // released 2026-07-29, end not announced yet
  { version: 'v25.0', endsOn: '2028-07-29' },
  { version: 'v24.0', endsOn: '2028-02-18' },
  { version: 'v23.0', endsOn: '2027-10-08' },
  { version: 'v22.0', endsOn: '2027-05-20' },
  { version: 'v21.0', endsOn: '2027-01-21' },
  { version: 'v20.0', endsOn: '2026-09-24' },
  { version: 'v19.0', endsOn: '2026-05-21' },
  { version: 'v18.0', endsOn: '2026-01-26' },
];

/** Herald's default: supported until 2028-07-29 (decision 024). */
export const DEFAULT_GRAPH_API_VERSION = 'v25.0';

/** How long before a version's end Herald starts warning at start. */
export const GRAPH_VERSION_WARNING_DAYS = 90;

const DAY_MS = 24 * 60 * 60 * 1000;

function versionNumber(version: string): number {
  return Number(version.replace(/^v/, ''));
}

/**
 * The warning to log at start for the configured version, or null when it is good for more than 90 days (or
 * is newer than any Herald knows). A version older than the oldest in the table ended long ago.
 */
export function graphVersionWarning(version: string, today: Date): string | null {
  const known = GRAPH_API_VERSIONS.find((v) => v.version === version);
  const oldest = GRAPH_API_VERSIONS[GRAPH_API_VERSIONS.length - 1]!;
  const advice = `set GRAPH_API_VERSION to ${DEFAULT_GRAPH_API_VERSION} or newer`;
  if (!known) {
    return versionNumber(version) < versionNumber(oldest.version)
      ? `GRAPH_API_VERSION ${version} is no longer served by Meta (it ended before ${oldest.endsOn}): ${advice}`
      : null;
  }
  if (!known.endsOn) return null;
  const daysLeft = Math.ceil((Date.parse(`${known.endsOn}T00:00:00Z`) - today.getTime()) / DAY_MS);
  if (daysLeft <= 0) {
    return `GRAPH_API_VERSION ${version} ended on ${known.endsOn}: Meta now answers its calls with another version; ${advice}`;
  }
  if (daysLeft <= GRAPH_VERSION_WARNING_DAYS) {
    return `GRAPH_API_VERSION ${version} ends on ${known.endsOn} (in ${daysLeft} days): ${advice}`;
  }
  return null;
}
