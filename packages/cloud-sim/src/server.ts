import { buildSandboxApp } from './app';
import type { SandboxOptions } from './app';

export interface StartSandboxOptions extends SandboxOptions {
  port: number;
  host?: string;
}

export interface RunningSandbox {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startSandbox({
  port,
  host = '127.0.0.1',
  ...options
}: StartSandboxOptions): Promise<RunningSandbox> {
  const app = buildSandboxApp(options);
  await app.listen({ port, host });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  // A wildcard bind is not an address a client can dial; loopback reaches it.
  const dialHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${dialHost}:${actualPort}`,
    port: actualPort,
    close: () => app.close(),
  };
}
