import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createZip } from '../src/jobs/zip.js';
import { readZip } from './zip-reader.js';

describe('the restore ZIP writer', () => {
  it('writes deflated and stored entries that read back byte for byte, with safe unique names', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'zip-')), 'restore.zip');
    const zip = await createZip(path);
    const text = Buffer.from('Quarterly report '.repeat(500));
    const random = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 2654435761) % 251));
    await zip.add('/Documents/Report.docx', text);
    await zip.add('Documents/Report.docx', Buffer.from('second'));
    await zip.add('../../etc/passwd', Buffer.from('nope'));
    await zip.add('Bilder/Übersicht.png', random);
    const size = await zip.close();
    const bytes = readFileSync(path);
    expect(bytes.length).toBe(size);
    const files = readZip(bytes);
    expect([...files.keys()]).toEqual([
      'Documents/Report.docx',
      'Documents/Report (2).docx',
      '_/_/etc/passwd',
      'Bilder/Übersicht.png',
    ]);
    expect(files.get('Documents/Report.docx')).toEqual(text);
    expect(files.get('Bilder/Übersicht.png')).toEqual(random);
    expect(bytes.length).toBeLessThan(text.length);
  });
});
