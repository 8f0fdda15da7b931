// Graph serves every version at once (/v18.0/…, /v25.0/…) and also accepts unversioned paths. A version past
// its end is not refused by Meta either: its calls are answered by the oldest version still served, so the
// sandbox, which models one behaviour for all versions, answers every version alike.
const VERSION_PREFIX = /^\/v\d+\.\d+(?=\/|\?|$)/;

/** The path routes are matched against: the URL without its Graph version prefix. */
export function stripGraphVersion(url: string): string {
  const stripped = url.replace(VERSION_PREFIX, '');
  return stripped === '' || stripped.startsWith('?') ? `/${stripped}` : stripped;
}
