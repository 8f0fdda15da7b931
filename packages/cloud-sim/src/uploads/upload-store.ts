import { randomAlphanumeric } from '../random-strings';

export const UPLOAD_FILE_TYPES = ['application/pdf', 'image/jpeg', 'image/jpg', 'image/png', 'video/mp4'];
/** The largest file a session may announce: Meta's document limit, the biggest header media. */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

export interface UploadSession {
  /** "upload:<opaque>", the part of Meta's id before "?sig=". */
  id: string;
  sig: string;
  appId: string;
  fileName: string;
  fileLength: number;
  fileType: string;
  /** The bytes received so far, kept in memory (never more than fileLength). */
  chunks: Buffer[];
  offset: number;
  handle: string | null;
  createdAt: string;
}

type AppendResult =
  | { ok: true; session: UploadSession }
  | { ok: false; problem: 'offset-mismatch' | 'too-many-bytes' | 'empty' };

/** Resumable upload sessions and the handles their finished files answer. */
export class UploadStore {
  private readonly sessions = new Map<string, UploadSession>();

  clear(): void {
    this.sessions.clear();
  }

  create(input: { appId: string; fileName: string; fileLength: number; fileType: string }): UploadSession {
    const opaque = Buffer.from(`1:${randomAlphanumeric(24)}`).toString('base64url');
    const session: UploadSession = {
      id: `upload:${opaque}`,
      sig: `ARZ${randomAlphanumeric(20)}`,
      ...input,
      chunks: [],
      offset: 0,
      handle: null,
      createdAt: new Date().toISOString(),
    };
    this.sessions.set(session.id, session);
    return session;
  }

  find(id: string): UploadSession | undefined {
    return this.sessions.get(id);
  }

  /** Bytes must continue exactly where the session stands, as Meta's resumable upload requires. */
  append(session: UploadSession, fileOffset: number, bytes: Buffer): AppendResult {
    if (fileOffset !== session.offset) return { ok: false, problem: 'offset-mismatch' };
    if (bytes.length === 0 && session.handle === null) return { ok: false, problem: 'empty' };
    if (session.offset + bytes.length > session.fileLength) return { ok: false, problem: 'too-many-bytes' };
    if (bytes.length > 0) session.chunks.push(bytes);
    session.offset += bytes.length;
    if (session.offset === session.fileLength && session.handle === null) {
      session.handle = `4::${Buffer.from(session.fileType).toString('base64')}:${randomAlphanumeric(64)}`;
    }
    return { ok: true, session };
  }

  /** Every session, bytes included, for the state file (see persistence/). */
  records(): UploadSession[] {
    return [...this.sessions.values()];
  }

  /** Replaces every session with what a state file kept. */
  restore(sessions: UploadSession[]): void {
    this.sessions.clear();
    for (const session of sessions) this.sessions.set(session.id, session);
  }

  findByHandle(handle: string): UploadSession | undefined {
    return [...this.sessions.values()].find((s) => s.handle !== null && s.handle === handle);
  }

  snapshot() {
    return [...this.sessions.values()].map((s) => ({
      id: `${s.id}?sig=${s.sig}`,
      app_id: s.appId,
      file_name: s.fileName,
      file_type: s.fileType,
      file_length: s.fileLength,
      file_offset: s.offset,
      handle: s.handle,
      created_at: s.createdAt,
    }));
  }
}
