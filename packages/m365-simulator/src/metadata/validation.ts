/**
 * The simulator checking its own answers (option `validate`, or M365_SIMULATOR_VALIDATE=1): each JSON
 * answer goes through the metadata checker; the figures and mismatches are kept in the simulator's
 * state and, when M365_SIMULATOR_VALIDATION_DIR names a directory, appended there as JSON lines (one
 * file per process), so that a test run spread over processes can add them up with
 * `summariseValidation(dir)`.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkGraphAnswer } from './check.js';

export const VALIDATE_ENV = 'M365_SIMULATOR_VALIDATE';
export const VALIDATION_DIR_ENV = 'M365_SIMULATOR_VALIDATION_DIR';

export interface ValidationMismatch {
  method: string;
  /** The request path below /v1.0, without its query. */
  path: string;
  /** The route's pattern, e.g. GET users/:user/drive, when a route answered. */
  route?: string;
  status: number;
  /** What the path resolves to in the model, e.g. Collection(microsoft.graph.driveItem). */
  expected: string;
  pointer: string;
  reason: string;
}

export interface ValidationState {
  /** JSON answers checked. */
  answers: number;
  /** Property values checked in them. */
  properties: number;
  /** The first 10,000 mismatches (`dropped` counts the rest). */
  mismatches: ValidationMismatch[];
  dropped: number;
}

const KEEP = 10_000;

export interface Validator {
  state: ValidationState;
  /** Checks one answer and records the outcome. */
  record(answer: { method: string; path: string; route?: string; status: number; json: unknown }): void;
}

export function createValidator(dir: string | undefined = process.env[VALIDATION_DIR_ENV]): Validator {
  const state: ValidationState = { answers: 0, properties: 0, mismatches: [], dropped: 0 };
  const file = dir ? join(dir, `validation-${process.pid}.jsonl`) : undefined;
  if (dir) mkdirSync(dir, { recursive: true });
  return {
    state,
    record(answer) {
      const path = answer.path.split('?')[0] ?? '';
      const result = checkGraphAnswer({ ...answer, path });
      const found = result.mismatches.map((m) => ({
        method: answer.method,
        path,
        ...(answer.route ? { route: answer.route } : {}),
        status: answer.status,
        expected: result.expected,
        pointer: m.pointer,
        reason: m.reason,
      }));
      state.answers += 1;
      state.properties += result.properties;
      for (const m of found) {
        if (state.mismatches.length < KEEP) state.mismatches.push(m);
        else state.dropped += 1;
      }
      if (file) {
        appendFileSync(file, `${JSON.stringify({ answers: 1, properties: result.properties, mismatches: found })}\n`);
      }
    },
  };
}

/** Whether the options or the environment ask for validation. */
export const validationWanted = (option: boolean | undefined) => option ?? process.env[VALIDATE_ENV] === '1';

export interface ValidationSummary {
  files: number;
  answers: number;
  properties: number;
  mismatches: number;
  /** Mismatches grouped by route (or path), pointer (array indexes as *) and reason, most frequent first. */
  groups: { where: string; pointer: string; reason: string; count: number; example: ValidationMismatch }[];
}

/** Adds up the validation files a run left in `dir` (every *.jsonl there). */
export function summariseValidation(dir: string): ValidationSummary {
  const summary: ValidationSummary = { files: 0, answers: 0, properties: 0, mismatches: 0, groups: [] };
  const groups = new Map<string, ValidationSummary['groups'][number]>();
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return summary;
  }
  for (const name of names) {
    summary.files += 1;
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let entry: { answers?: number; properties?: number; mismatches?: ValidationMismatch[] };
      try {
        entry = JSON.parse(line);
      } catch {
        // A line cut short by a process that was killed mid-write.
        continue;
      }
      summary.answers += entry.answers ?? 0;
      summary.properties += entry.properties ?? 0;
      for (const m of entry.mismatches ?? []) {
        summary.mismatches += 1;
        const where = `${m.method} ${m.route ?? m.path}`;
        const pointer = m.pointer.replace(/\/\d+(?=\/|$)/g, '/*');
        const key = `${where}\n${pointer}\n${m.reason}`;
        const group = groups.get(key);
        if (group) group.count += 1;
        else groups.set(key, { where, pointer, reason: m.reason, count: 1, example: m });
      }
    }
  }
  summary.groups = [...groups.values()].sort((a, b) => b.count - a.count);
  return summary;
}

/** One line for a test run's output, then the most frequent mismatches. */
export function formatValidationSummary(summary: ValidationSummary, groups = 20): string {
  const lines = [
    `Graph answers checked against the v1.0 metadata: answers ${summary.answers}, properties ${summary.properties}, mismatches ${summary.mismatches}`,
  ];
  for (const g of summary.groups.slice(0, groups)) lines.push(`  ${g.count} x ${g.where} ${g.pointer}: ${g.reason}`);
  return lines.join('\n');
}
