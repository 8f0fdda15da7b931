/** Media uploaded to a phone number for sending (`POST /{phone-number-id}/media`): ids usable in sends. */
export interface StoredMedia {
  id: string;
  phoneNumberId: string;
  mimeType: string;
  bytes: number;
  uploadedAt: number;
  /** Hex SHA-256 of the file, as `GET /{media-id}` answers it (absent in state files older than it). */
  sha256?: string;
}

/**
 * The Cloud API's send media limits, as Meta documents them: the types a header can carry and their sizes.
 * Audio and stickers are left out: template headers cannot use them.
 */
export const SEND_MEDIA_TYPES: Record<string, number> = {
  'image/jpeg': 5 * 1024 * 1024,
  'image/png': 5 * 1024 * 1024,
  'video/mp4': 16 * 1024 * 1024,
  'video/3gpp': 16 * 1024 * 1024,
  'application/pdf': 100 * 1024 * 1024,
};

/** The most uploaded bytes kept in memory for download; older files are let go first. */
const KEPT_BYTES_CAP = 64 * 1024 * 1024;

export class MediaStore {
  private readonly media = new Map<string, StoredMedia>();
  /** Uploaded bytes, for the media URL: memory only, oldest let go past the cap (Meta's URLs expire too). */
  private readonly contents = new Map<string, Buffer>();
  private keptBytes = 0;

  add(media: StoredMedia, content?: Buffer): void {
    this.media.set(media.id, media);
    if (content === undefined || content.length > KEPT_BYTES_CAP) return;
    this.contents.set(media.id, content);
    this.keptBytes += content.length;
    for (const [id, kept] of this.contents) {
      if (this.keptBytes <= KEPT_BYTES_CAP) break;
      this.contents.delete(id);
      this.keptBytes -= kept.length;
    }
  }

  /** The file's bytes while the sandbox still keeps them (not after a restart or past the memory cap). */
  contentOf(id: string): Buffer | undefined {
    return this.media.has(id) ? this.contents.get(id) : undefined;
  }

  /** The media with this id if the phone number uploaded it (another number's id is not usable). */
  findFor(id: string, phoneNumberId: string): StoredMedia | undefined {
    const found = this.media.get(id);
    return found?.phoneNumberId === phoneNumberId ? found : undefined;
  }

  has(id: string): boolean {
    return this.media.has(id);
  }

  find(id: string): StoredMedia | undefined {
    return this.media.get(id);
  }

  delete(id: string): boolean {
    this.dropContent(id);
    return this.media.delete(id);
  }

  private dropContent(id: string): void {
    const kept = this.contents.get(id);
    if (kept === undefined) return;
    this.contents.delete(id);
    this.keptBytes -= kept.length;
  }

  clear(): void {
    this.media.clear();
    this.contents.clear();
    this.keptBytes = 0;
  }

  /** Every media record, for the state file (see persistence/); the bytes are not written there. */
  records(): StoredMedia[] {
    return [...this.media.values()];
  }

  restore(records: StoredMedia[]): void {
    this.clear();
    for (const media of records) this.media.set(media.id, media);
  }

  snapshot() {
    return [...this.media.values()].map((m) => ({
      id: m.id,
      phone_number_id: m.phoneNumberId,
      mime_type: m.mimeType,
      bytes: m.bytes,
    }));
  }
}
