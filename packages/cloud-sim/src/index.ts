export { buildSandboxApp, DEFAULT_APP_ID, DEFAULT_APP_SECRET, DEFAULT_REVIEW_DELAY_MS } from './app';
export type { SandboxOptions } from './app';
export { startSandbox } from './server';
export type { RunningSandbox, StartSandboxOptions } from './server';
export type { GraphErrorBody } from './errors';
export type { SandboxSnapshot } from './state';
export type { SignUpResult } from './sign-up';
