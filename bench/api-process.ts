// Herald's API in a process of its own for the benchmarks that measure it from outside (bench/api-server.ts),
// and a business signed up and signed in through it, the way the web gets one.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { makeBusiness } from '../test-support/business';

export interface ApiProcess {
  child: ChildProcess;
  pid: number;
  api: string;
  sandbox: string;
}

/**
 * Starts bench/api-server.ts on the database; resolves once it listens. It talks to the sandbox at
 * `graphApiBase`, or starts one of its own without it.
 */
export async function startApiProcess(databaseUrl: string, graphApiBase?: string): Promise<ApiProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'api-server.ts'),
      databaseUrl,
      ...(graphApiBase ? [graphApiBase] : []),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`API process exited with ${code}`)));
  });
  const { api, sandbox } = JSON.parse(first) as { api: string; sandbox: string };
  return { child, pid: child.pid!, api, sandbox };
}

/** Signs a business up through the sandbox's Embedded Signup and in; answers its ids and request headers. */
export async function signUpBenchBusiness({ api, sandbox }: ApiProcess) {
  const { business, headers } = await makeBusiness(
    { url: api, sandboxUrl: sandbox },
    { email: 'bench@herald.test', password: 'correct horse', businessName: 'Bench Co' },
  );
  return { business, headers };
}
