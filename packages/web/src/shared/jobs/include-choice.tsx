import { Checkbox, CheckboxGroup, Fieldset, Wrap } from '@chakra-ui/react';

/**
 * "What to include": one checkbox for each part of a source a job may cover (a mailbox's mail,
 * calendars, contacts and tasks; a site's libraries, lists and pages). A fieldset with its legend, so
 * that a screen reader names the group; each box is reached with Tab and toggled with Space.
 */
export function IncludeChoice<P extends string>({
  parts,
  value,
  onChange,
  legend,
  help,
  label,
  error,
}: {
  parts: readonly P[];
  value: readonly P[];
  onChange: (value: P[]) => void;
  legend: string;
  help?: string;
  label: (part: P) => string;
  /** Shown under the boxes, and marks the group invalid. */
  error?: string | null;
}) {
  return (
    <Fieldset.Root invalid={!!error}>
      <Fieldset.Legend fontWeight="medium" fontSize="sm">
        {legend}
      </Fieldset.Legend>
      {help ? <Fieldset.HelperText>{help}</Fieldset.HelperText> : null}
      <CheckboxGroup
        value={[...value]}
        // In the parts' own order, whatever order they were ticked in.
        onValueChange={(chosen) => onChange(parts.filter((p) => chosen.includes(p)))}
      >
        <Wrap gap="4">
          {parts.map((part) => (
            <Checkbox.Root key={part} value={part}>
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{label(part)}</Checkbox.Label>
            </Checkbox.Root>
          ))}
        </Wrap>
      </CheckboxGroup>
      {error ? <Fieldset.ErrorText>{error}</Fieldset.ErrorText> : null}
    </Fieldset.Root>
  );
}

/** The parts a job includes, in its parts' words: all of them when it names none. */
export function includedParts<P extends string>(include: readonly string[] | undefined, parts: readonly P[]): P[] {
  return include ? parts.filter((p) => include.includes(p)) : [...parts];
}
