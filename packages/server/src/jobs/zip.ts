/**
 * A ZIP writer for restore downloads: entries are deflated (or stored when that is not smaller) and
 * written one after another to a file, so memory holds one entry at a time. Classic ZIP (no ZIP64):
 * an archive is limited to 4 GiB and 65535 entries, and says so rather than writing a broken file.
 */
import { open } from 'node:fs/promises';
import { crc32, deflateRawSync } from 'node:zlib';

const LIMIT = 0xffffffff;

function dosDateTime(d: Date) {
  const time = (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2);
  const date = ((Math.max(1980, d.getFullYear()) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate();
  return { time, date };
}

export interface ZipWriter {
  /** Adds a file; returns the name it has in the archive (made relative and unique). */
  add(name: string, bytes: Uint8Array, modified?: Date): Promise<string>;
  /** Writes the central directory; returns the archive's size in bytes. */
  close(): Promise<number>;
}

export async function createZip(path: string): Promise<ZipWriter> {
  const file = await open(path, 'w');
  const central: Buffer[] = [];
  let offset = 0;
  let entries = 0;
  const names = new Set<string>();

  const write = async (buffer: Buffer) => {
    if (offset + buffer.length > LIMIT)
      throw new Error('The download would exceed 4 GiB; restore fewer items at once.');
    await file.write(buffer);
    offset += buffer.length;
  };

  return {
    async add(rawName, bytes, modified = new Date()) {
      if (entries >= 0xffff) throw new Error('The download would exceed 65535 files; restore fewer items at once.');
      // Unique, relative, forward-slashed names: a second "a.txt" becomes "a (2).txt".
      let name = rawName
        .replace(/\\/g, '/')
        .replace(/^\/+/, '')
        .replace(/(^|\/)\.\.(?=\/|$)/g, '$1_');
      if (names.has(name)) {
        const dot = name.lastIndexOf('.');
        const [stem, ext] = dot > name.lastIndexOf('/') ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
        let n = 2;
        while (names.has(`${stem} (${n})${ext}`)) n += 1;
        name = `${stem} (${n})${ext}`;
      }
      names.add(name);
      const nameBytes = Buffer.from(name, 'utf8');
      const deflated = deflateRawSync(bytes);
      const stored = deflated.length >= bytes.length;
      const data = stored ? Buffer.from(bytes) : deflated;
      const crc = crc32(bytes);
      const { time, date } = dosDateTime(modified);
      const method = stored ? 0 : 8;
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(0x0800, 6);
      local.writeUInt16LE(method, 8);
      local.writeUInt16LE(time, 10);
      local.writeUInt16LE(date, 12);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(data.length, 18);
      local.writeUInt32LE(bytes.length, 22);
      local.writeUInt16LE(nameBytes.length, 26);
      local.writeUInt16LE(0, 28);
      const at = offset;
      await write(Buffer.concat([local, nameBytes]));
      await write(data);
      const entry = Buffer.alloc(46);
      entry.writeUInt32LE(0x02014b50, 0);
      entry.writeUInt16LE(20, 4);
      entry.writeUInt16LE(20, 6);
      entry.writeUInt16LE(0x0800, 8);
      entry.writeUInt16LE(method, 10);
      entry.writeUInt16LE(time, 12);
      entry.writeUInt16LE(date, 14);
      entry.writeUInt32LE(crc, 16);
      entry.writeUInt32LE(data.length, 20);
      entry.writeUInt32LE(bytes.length, 24);
      entry.writeUInt16LE(nameBytes.length, 28);
      entry.writeUInt32LE(at, 42);
      central.push(Buffer.concat([entry, nameBytes]));
      entries += 1;
      return name;
    },
    async close() {
      const start = offset;
      const directory = Buffer.concat(central);
      await write(directory);
      const end = Buffer.alloc(22);
      end.writeUInt32LE(0x06054b50, 0);
      end.writeUInt16LE(entries, 8);
      end.writeUInt16LE(entries, 10);
      end.writeUInt32LE(directory.length, 12);
      end.writeUInt32LE(start, 16);
      await write(end);
      await file.close();
      return offset;
    },
  };
}
