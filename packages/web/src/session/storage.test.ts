import { describe, expect, it } from 'vitest';
import { testWorker } from '../testing/fixtures';
import {
  clearTrialDialogFlag,
  clearUserData,
  markTrialDialogSeen,
  readCookie,
  readStoredUser,
  readWorker,
  storeUser,
  storeWorker,
  trialDialogSeen,
} from './storage';

const worker = testWorker({ stagingtenant_id: 'tenant-guid', cloud_portal_license: 'TRIAL' as 'trial' });

describe('session storage', () => {
  it('keeps the user in the user cookie and in local storage', () => {
    storeUser({ token: 't', user: { email: 'a@b.example', role: 'admin' } });
    expect(JSON.parse(localStorage.getItem('user') ?? '')).toEqual({
      token: 't',
      user: { email: 'a@b.example', role: 'admin' },
    });
    expect(JSON.parse(readCookie('user') ?? '')).toMatchObject({ token: 't' });
    expect(readStoredUser()?.token).toBe('t');
    localStorage.removeItem('user');
    expect(readStoredUser()?.token).toBe('t');
  });

  it('keeps the worker in the worker cookie with tenant_id and a lower-case licence', () => {
    storeWorker(worker);
    expect(readWorker()).toMatchObject({
      tenant_id: 'tenant-guid',
      stagingtenant_id: 'tenant-guid',
      cloud_portal_license: 'trial',
    });
  });

  it('clears worker and user data, and the trial flag', () => {
    storeUser({ token: 't', user: { email: 'a@b.example', role: 'admin' } });
    storeWorker(worker);
    markTrialDialogSeen(worker.workerId);
    clearUserData();
    clearTrialDialogFlag();
    expect(readStoredUser()).toBeNull();
    expect(readWorker()).toBeNull();
    expect(trialDialogSeen(worker.workerId)).toBe(false);
  });

  it('remembers the trial dialog for each organisation until logout, and survives a damaged value', () => {
    markTrialDialogSeen('w1');
    markTrialDialogSeen('w1');
    expect(trialDialogSeen('w1')).toBe(true);
    expect(trialDialogSeen('w2')).toBe(false);
    markTrialDialogSeen('w2');
    expect(JSON.parse(localStorage.getItem('trialDialogSeen') ?? '')).toEqual(['w1', 'w2']);
    localStorage.setItem('trialDialogSeen', 'true');
    expect(trialDialogSeen('w1')).toBe(false);
    clearTrialDialogFlag();
    expect(localStorage.getItem('trialDialogSeen')).toBeNull();
  });

  it('ignores damaged stored values', () => {
    localStorage.setItem('user', '{not json');
    expect(readStoredUser()).toBeNull();
    localStorage.setItem('user', JSON.stringify({ token: '', user: {} }));
    expect(readStoredUser()).toBeNull();
  });
});
