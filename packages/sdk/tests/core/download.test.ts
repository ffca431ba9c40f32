import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveDownload } from '../../src/index.js';

describe('saveDownload', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('clicks a hidden link named after the download, then frees the object URL', () => {
    vi.useFakeTimers();
    const link = { href: '', download: '', rel: '', style: { display: '' }, click: vi.fn(), remove: vi.fn() };
    const append = vi.fn();
    vi.stubGlobal('document', { createElement: vi.fn(() => link), body: { append } });
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:portal/1');

    const name = saveDownload({ blob: new Blob(['x']), fileName: 'Report 2026_11.xlsx', contentType: undefined });
    expect(name).toBe('Report 2026_11.xlsx');
    expect(link.href).toBe('blob:portal/1');
    expect(link.download).toBe('Report 2026_11.xlsx');
    expect(append).toHaveBeenCalledWith(link);
    expect(link.click).toHaveBeenCalledTimes(1);
    expect(link.remove).toHaveBeenCalledTimes(1);
    expect(revoke).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(revoke).toHaveBeenCalledWith('blob:portal/1');
  });

  it('falls back to the given name', () => {
    const link = { href: '', download: '', rel: '', style: { display: '' }, click: vi.fn(), remove: vi.fn() };
    vi.stubGlobal('document', { createElement: () => link, body: { append: () => {} } });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:portal/2');
    expect(saveDownload({ blob: new Blob([]), fileName: undefined, contentType: undefined }, 'mailboxes.csv')).toBe(
      'mailboxes.csv',
    );
  });
});
