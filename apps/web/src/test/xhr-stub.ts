import { vi } from 'vitest';

/** One request made through the stubbed XMLHttpRequest; the test answers it. */
export class FakeXhr {
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = undefined;
  status = 0;
  responseText = '';
  aborted = false;
  upload: {
    onprogress: ((event: Pick<ProgressEvent, 'lengthComputable' | 'loaded' | 'total'>) => void) | null;
  } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  send(body: unknown) {
    this.body = body;
  }

  abort() {
    this.aborted = true;
    this.onabort?.();
  }

  /** Reports `loaded` of `total` bytes sent. */
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }

  /** Answers with `body` as JSON. */
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    this.onload?.();
  }

  fail() {
    this.onerror?.();
  }
}

/**
 * Replaces XMLHttpRequest (undone after each test by the setup file). `onSend` sees each request as it is
 * sent and may answer it at once; `sent()` lists every request so far.
 */
export function stubXhr(onSend?: (xhr: FakeXhr) => void) {
  const sent: FakeXhr[] = [];
  class StubXhr extends FakeXhr {
    override send(body: unknown) {
      super.send(body);
      sent.push(this);
      onSend?.(this);
    }
  }
  vi.stubGlobal('XMLHttpRequest', StubXhr);
  return { sent: () => sent, last: () => sent[sent.length - 1] };
}
