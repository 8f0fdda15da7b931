// Herald's API in a process of its own for the benchmarks that measure it from outside (bench/api-server.ts),
// and a business signed up and signed in through it, the way the web gets one.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface ApiProcess {
  child: ChildProcess;
  pid: number;
  api: string;
  sandbox: string;
}

/** Starts bench/api-server.ts on the database; resolves once it listens (with its own sandbox). */
export async function startApiProcess(databaseUrl: string): Promise<ApiProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join('bench', 'api-server.ts'), databaseUrl],
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
  const business = (await (
    await fetch(`${sandbox}/__sandbox/wabas`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ business_name: 'Bench Co' }),
    })
  ).json()) as { waba_id: string; phone_number_id: string; code: string };
  const signup = await fetch(`${api}/api/auth/facebook/callback/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...business, email: 'bench@herald.test', password: 'correct horse' }),
  });
  if (signup.status !== 200) throw new Error(`sign-up: ${await signup.text()}`);
  const login = (await (
    await fetch(`${api}/api/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench@herald.test', password: 'correct horse' }),
    })
  ).json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${login.accessToken}`, 'x-waba-id': business.waba_id };
  return { business, headers };
}
