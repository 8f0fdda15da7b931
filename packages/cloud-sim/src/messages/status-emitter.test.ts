import { describe, expect, it } from 'vitest';
import { StatusEmitter } from './status-emitter';
import type { MessageInfo } from './status-payload';

const message = (n: number): MessageInfo => ({
  wamid: `wamid.${n}`,
  phoneNumberId: 'p1',
  wabaId: 'w1',
  displayDigits: '15550783881',
  recipient: `165055501${n}`,
  bizOpaqueCallbackData: null,
  category: 'marketing',
  conversationId: 'c1',
});

const batch = () => ({ batchSize: 100, windowMs: 10 });

/** The (wamid, status) pairs in the order an emitter posted them. */
function recorder() {
  const posted: string[] = [];
  const sink = (_wabaId: string, payload: unknown) => {
    const { entry } = payload as {
      entry: Array<{ changes: Array<{ value: { statuses: Array<{ id: string; status: string }> } }> }>;
    };
    for (const s of entry.flatMap((e) => e.changes.flatMap((c) => c.value.statuses)))
      posted.push(`${s.id}:${s.status}`);
  };
  return { posted, sink };
}

describe('StatusEmitter across a restart', () => {
  it('a halted emitter posts nothing; its saved queue, restored, posts in due then planning order', async () => {
    const { posted, sink } = recorder();
    const before = new StatusEmitter(sink, batch);
    const now = Date.now();
    before.schedule(message(1), [
      { due: now + 40, status: 'sent', timestamp: 1 },
      { due: now + 80, status: 'read', timestamp: 1 },
      { due: now + 60, status: 'delivered', timestamp: 1 },
    ]);
    before.schedule(message(2), [{ due: now + 50, status: 'sent', timestamp: 1 }]);
    before.halt();
    await new Promise((r) => setTimeout(r, 120));
    expect(posted).toEqual([]);
    const saved = before.save();
    // Each message's details once, however many of its statuses wait.
    expect(saved.messages.map((m) => m.wamid).sort()).toEqual(['wamid.1', 'wamid.2']);
    expect(saved.queue).toHaveLength(4);

    const after = new StatusEmitter(sink, batch);
    after.restore(JSON.parse(JSON.stringify(saved)));
    await new Promise((r) => setTimeout(r, 40));
    expect(posted).toEqual(['wamid.1:sent', 'wamid.2:sent', 'wamid.1:delivered', 'wamid.1:read']);
  });

  it('restored statuses already due go out at once, each message in its order; later ones at their time', async () => {
    const { posted, sink } = recorder();
    const before = new StatusEmitter(() => undefined, batch);
    const now = Date.now();
    // Two messages planned before the restart with the same due time: planning order (seq) decides.
    before.schedule(message(1), [
      { due: now - 500, status: 'delivered', timestamp: 1 },
      { due: now - 200, status: 'read', timestamp: 1 },
    ]);
    before.schedule(message(2), [
      { due: now - 500, status: 'delivered', timestamp: 1 },
      { due: now + 150, status: 'read', timestamp: 1 },
    ]);
    before.halt();
    const saved = JSON.parse(JSON.stringify(before.save()));

    const after = new StatusEmitter(sink, batch);
    after.restore(saved);
    await new Promise((r) => setTimeout(r, 60));
    expect(posted).toEqual(['wamid.1:delivered', 'wamid.2:delivered', 'wamid.1:read']);
    await new Promise((r) => setTimeout(r, 200));
    expect(posted).toEqual(['wamid.1:delivered', 'wamid.2:delivered', 'wamid.1:read', 'wamid.2:read']);
    // New statuses number after the restored ones, so equal due times keep planning order.
    after.schedule(message(3), [{ due: Date.now() + 1000, status: 'sent', timestamp: 1 }]);
    const [, , , , newSeq] = after.save().queue[0]!;
    expect(newSeq).toBeGreaterThan(Math.max(...saved.queue.map((s: number[]) => s[4])));
    after.stop();
  });
});
