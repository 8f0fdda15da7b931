/** Saves `url` (an object URL) as `filename` through a temporary link, then lets the browser drop the blob. */
export function saveDownload(url: string, filename: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: the click has handed the blob to the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

const FILENAME = /filename="([^"]+)"/;

/**
 * An RTK Query responseHandler for a file download: an object URL and the server's file name (else `fallback`).
 * An error answer is read as JSON when it is (the one error shape), so the error shows the server's words.
 */
export function downloadHandler(fallback: string) {
  return async (response: Response) => {
    if (!response.ok) {
      const text = await response.text();
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    }
    const filename = FILENAME.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallback;
    return { url: URL.createObjectURL(await response.blob()), filename };
  };
}

/** A downloaded file: an object URL for saveDownload, and its name. */
export type Download = { url: string; filename: string };
