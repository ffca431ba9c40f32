import { NativeSelect } from '@chakra-ui/react';

/** A list filter: a labelled select of values with their texts, optionally with an "all" choice first. */
export function FilterSelect<V extends string>({
  label,
  value,
  options,
  all,
  onChange,
  busy = false,
}: {
  label: string;
  value: V | '';
  options: readonly { value: V; label: string }[];
  /** The text of the empty choice (no filter); without it a value must be chosen. */
  all?: string;
  onChange: (value: V | '') => void;
  /** Its values are being loaded: it cannot be chosen from yet (the `all` text says so). */
  busy?: boolean;
}) {
  return (
    <NativeSelect.Root size="sm" width="auto" disabled={busy}>
      <NativeSelect.Field
        aria-label={label}
        aria-busy={busy || undefined}
        value={value}
        onChange={(e) => onChange(e.target.value as V | '')}
      >
        {all !== undefined ? <option value="">{all}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
