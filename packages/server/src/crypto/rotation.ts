/**
 * Rotation of PORTAL_SECRET_KEY: every value sealed with the previous key (tenant client secrets,
 * authenticator keys, storage location secrets, organisations' data keys) is opened and sealed again
 * with the new one. Blobs are not touched: they are encrypted under the organisations' data keys,
 * which stay the same and are only rewrapped. A value the new key opens already is left as it is, so
 * a rotation that stopped half-way is finished by running it again.
 */
import type { Database } from '../db/database.js';
import type { SecretBox } from './secret-box.js';

/** Where sealed values live: table, its key column, the sealed column. */
const SEALED = [
  ['tenants', 'tenant_id', 'client_secret_enc'],
  ['users', 'id', 'totp_secret'],
  ['locations', 'location_id', 'secret_sealed'],
  ['organisation_keys', 'organisation_id', 'wrapped_key'],
] as const;

export interface RotationReport {
  /** Values sealed again with the new key. */
  rewrapped: number;
  /** Values the new key already opened. */
  current: number;
  /** Values neither key opens, by table and row (left as they are). */
  unreadable: string[];
}

export async function rotateSecrets(db: Database, previous: SecretBox, next: SecretBox): Promise<RotationReport> {
  const report: RotationReport = { rewrapped: 0, current: 0, unreadable: [] };
  const opens = (box: SecretBox, sealed: string) => {
    try {
      return box.open(sealed);
    } catch {
      return undefined;
    }
  };
  for (const [table, key, column] of SEALED) {
    const rows = await db.query<{ id: string; sealed: string }>(
      `select ${key} as id, ${column} as sealed from ${table} where ${column} is not null`,
    );
    for (const row of rows) {
      if (opens(next, row.sealed) !== undefined) {
        report.current += 1;
        continue;
      }
      const plain = opens(previous, row.sealed);
      if (plain === undefined) {
        report.unreadable.push(`${table} ${row.id}`);
        continue;
      }
      // Only if nobody changed it meanwhile (a change seals with the new key already).
      await db.query(`update ${table} set ${column} = $3 where ${key} = $1 and ${column} = $2`, [
        row.id,
        row.sealed,
        next.seal(plain),
      ]);
      report.rewrapped += 1;
    }
  }
  return report;
}
