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

export class MediaStore {
  private readonly media = new Map<string, StoredMedia>();

  add(media: StoredMedia): void {
    this.media.set(media.id, media);
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
    return this.media.delete(id);
  }

  clear(): void {
    this.media.clear();
  }

  /** Every media record, for the state file (see persistence/); the sandbox keeps no media bytes. */
  records(): StoredMedia[] {
    return [...this.media.values()];
  }

  restore(records: StoredMedia[]): void {
    this.media.clear();
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
