import { describe, expect, it } from 'vitest';
import { leaseSurelyHeldUntil, whileLeased } from './sender-lease';

const unreachable = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('a batch written while its lease holds', () => {
  it('counts the deadline from the lease’s latest renewal, less the margin', () => {
    expect(leaseSurelyHeldUntil({ renewedAt: 1_000_000 }, 15)).toBe(1_000_000 + 15_000 - 3_000);
  });

  it('writes again while the database is unreachable, then succeeds', async () => {
    let tries = 0;
    await whileLeased(Date.now() + 5_000, async () => {
      tries += 1;
      if (tries < 3) throw unreachable();
    });
    expect(tries).toBe(3);
  });

  it('gives up once the next wait would pass the deadline, with the database’s error', async () => {
    let tries = 0;
    const started = Date.now();
    const write = whileLeased(started + 250, async () => {
      tries += 1;
      throw unreachable();
    });
    await expect(write).rejects.toThrow('ECONNREFUSED');
    // 100 ms, then 200 ms would pass the deadline: two tries, well before a full second.
    expect(tries).toBe(2);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('does not retry an error that is not the database being away', async () => {
    let tries = 0;
    const write = whileLeased(Date.now() + 5_000, async () => {
      tries += 1;
      throw Object.assign(new Error('duplicate key'), { code: '23505' });
    });
    await expect(write).rejects.toThrow('duplicate key');
    expect(tries).toBe(1);
  });
});
