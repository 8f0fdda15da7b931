import type { CallLog } from './call-log';
import type { SandboxState } from './state';

/** What every route module needs; passed explicitly rather than decorated onto Fastify. */
export interface SandboxContext {
  state: SandboxState;
  log: CallLog;
  appId: string;
  appSecret: string;
  appName: string;
  publicUrl: string | undefined;
}
