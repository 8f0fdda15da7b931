import { describe, expect, it } from 'vitest';
import { pickFields } from './fields';

const node = { id: '1', name: 'n', status: 'CONNECTED', throughput: { level: 'STANDARD' } };

describe('pickFields', () => {
  it('answers the whole node without fields=', () => {
    expect(pickFields(node, undefined)).toBe(node);
    expect(pickFields(node, ' ')).toBe(node);
  });

  it('keeps only the named fields, always with the id, ignoring unknown names and spaces', () => {
    expect(pickFields(node, 'status, throughput,nope')).toEqual({
      id: '1',
      status: 'CONNECTED',
      throughput: { level: 'STANDARD' },
    });
    expect(pickFields(node, 'name')).toEqual({ id: '1', name: 'n' });
  });
});
