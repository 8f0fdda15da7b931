import { describe, expect, it } from 'vitest';
import { UploadStore } from './upload-store';

function session(store = new UploadStore()) {
  return {
    store,
    s: store.create({ appId: 'app', fileName: 'a.jpg', fileLength: 10, fileType: 'image/jpeg' }),
  };
}

describe('UploadStore', () => {
  it("names sessions like Meta's and finds them by id", () => {
    const { store, s } = session();
    expect(s.id).toMatch(/^upload:[A-Za-z0-9_-]+$/);
    expect(s.sig).toMatch(/^ARZ/);
    expect(store.find(s.id)).toBe(s);
  });

  it('takes bytes in order, resumes at the offset and gives a handle once complete', () => {
    const { store, s } = session();
    expect(store.append(s, 0, Buffer.alloc(4))).toMatchObject({ ok: true });
    expect(s.handle).toBeNull();
    expect(store.append(s, 0, Buffer.alloc(6))).toEqual({ ok: false, problem: 'offset-mismatch' });
    expect(store.append(s, 4, Buffer.alloc(7))).toEqual({ ok: false, problem: 'too-many-bytes' });
    expect(store.append(s, 4, Buffer.alloc(0))).toEqual({ ok: false, problem: 'empty' });
    expect(store.append(s, 4, Buffer.alloc(6))).toMatchObject({ ok: true });
    expect(s.offset).toBe(10);
    expect(s.handle).toMatch(/^4::/);
    expect(store.findByHandle(s.handle as string)).toBe(s);
  });

  it('lists sessions without their bytes', () => {
    const { store, s } = session();
    store.append(s, 0, Buffer.alloc(3));
    expect(store.snapshot()).toEqual([
      expect.objectContaining({ id: `${s.id}?sig=${s.sig}`, file_length: 10, file_offset: 3, handle: null }),
    ]);
    expect(JSON.stringify(store.snapshot())).not.toContain('chunks');
  });
});
