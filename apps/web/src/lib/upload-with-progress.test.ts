import { describe, expect, it, vi } from 'vitest';
import { makeStore } from './store';
import type { PreloadedState } from './store';
import { expIn, fakeJwt } from '../test/fake-jwt';
import { json, pathOf, stubFetch } from '../test/fetch-stub';
import { stubXhr } from '../test/xhr-stub';
import { REFRESH_PATH } from './base-query';
import { uploadWithProgress } from './upload-with-progress';

const account = { waba_id: '111', details: [] };
const liveRefresh = fakeJwt({ sid: 's1', exp: expIn(3600) });

function session(refreshToken: string | null): PreloadedState {
  return {
    auth: { accessToken: 'old-access', refreshToken },
    waba: { wabaAccounts: [account], selectedWabaAccount: account },
  };
}

function upload(store: ReturnType<typeof makeStore>, onProgress = vi.fn()) {
  return uploadWithProgress({ url: '/recipient/import/', body: new FormData(), session: store, onProgress });
}

describe('uploadWithProgress (the base query’s headers and refresh, over XMLHttpRequest)', () => {
  it('answers the status and the parsed body, reporting progress as a fraction', async () => {
    const onProgress = vi.fn();
    stubXhr((xhr) => {
      xhr.progress(1, 4);
      xhr.respond(201, { created: 1 });
    });
    const answer = await upload(makeStore(session(liveRefresh)), onProgress);
    expect(answer).toEqual({ status: 201, data: { created: 1 } });
    expect(onProgress).toHaveBeenCalledWith(0.25);
  });

  it('on a 401 refreshes once, stores the new tokens and repeats the upload with the new token', async () => {
    const rotated = fakeJwt({ sid: 's1', exp: expIn(7200) });
    const fetch = stubFetch(() => json({ access: 'new-access', refresh: rotated }));
    const xhr = stubXhr((request) =>
      request.headers.Authorization === 'Bearer new-access'
        ? request.respond(201, { created: 1 })
        : request.respond(401, { detail: 'Token expired' }),
    );
    const store = makeStore(session(liveRefresh));

    const answer = await upload(store);

    expect(answer.status).toBe(201);
    expect(store.getState().auth).toEqual({ accessToken: 'new-access', refreshToken: rotated });
    expect(fetch.requests().map(pathOf)).toEqual([REFRESH_PATH]);
    expect(xhr.sent().map((r) => [r.headers.Authorization, r.headers['X-WABA-ID']])).toEqual([
      ['Bearer old-access', '111'],
      ['Bearer new-access', '111'],
    ]);
  });

  it('signs out on a 401 when the refresh token has expired, without refreshing', async () => {
    const fetch = stubFetch(() => json({}));
    stubXhr((request) => request.respond(401, { detail: 'Token expired' }));
    const store = makeStore(session(fakeJwt({ exp: expIn(-60) })));

    const answer = await upload(store);

    expect(answer).toEqual({ status: 401, data: { detail: 'Token expired' } });
    expect(store.getState().auth.accessToken).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('rejects when nothing was answered', async () => {
    stubXhr((request) => request.fail());
    await expect(upload(makeStore(session(liveRefresh)))).rejects.toThrow('Network error during upload');
  });
});
