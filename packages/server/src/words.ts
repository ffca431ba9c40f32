/**
 * A count with its noun in English, singular for exactly one ("1 file", "3 files"): the run messages,
 * job names and command output the server writes, never "file(s)".
 */
export function counted(n: number, one: string, other = `${one}s`): string {
  return `${n} ${n === 1 ? one : other}`;
}
