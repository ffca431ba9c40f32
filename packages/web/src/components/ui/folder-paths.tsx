import { CloseButton, Field, HStack, Input, Tag, Wrap } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rules, useValidator } from './validation';

/** A folder path as typed: trimmed, single slashes, none at either end ("Inbox / TestOrder/" → "Inbox/TestOrder"). */
export function normaliseFolderPath(text: string): string {
  return text
    .split('/')
    .map((part) => part.trim())
    .filter(Boolean)
    .join('/');
}

/**
 * Mail folders chosen by typing their full path and confirming with Enter; a path already in the list
 * (whatever its case) is refused with "This folder name is already used".
 */
export function FolderPaths({ value, onChange }: { value: readonly string[]; onChange: (next: string[]) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const check = useValidator();
  const add = () => {
    const path = normaliseFolderPath(draft);
    if (!path) return;
    if (value.some((v) => v.toLowerCase() === path.toLowerCase())) {
      setError(t('folders:duplicate'));
      return;
    }
    const tooLong = check(path, rules.maxLength(400));
    if (tooLong) {
      setError(tooLong);
      return;
    }
    setError(null);
    setDraft('');
    onChange([...value, path]);
  };
  return (
    <Field.Root invalid={!!error}>
      <Field.Label>{t('folders:label')}</Field.Label>
      <Input
        value={draft}
        placeholder={t('folders:placeholder')}
        onChange={(e) => {
          setDraft(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
      />
      {error ? <Field.ErrorText>{error}</Field.ErrorText> : <Field.HelperText>{t('folders:help')}</Field.HelperText>}
      <Wrap gap="2" mt="2" aria-live="polite" data-testid="folder-paths">
        {value.length === 0 ? (
          <Tag.Root colorPalette="gray">
            <Tag.Label>{t('folders:all')}</Tag.Label>
          </Tag.Root>
        ) : (
          value.map((path) => (
            <Tag.Root key={path}>
              <HStack gap="1">
                <Tag.Label>{path}</Tag.Label>
                <CloseButton
                  size="2xs"
                  aria-label={t('folders:remove', { path })}
                  onClick={() => onChange(value.filter((v) => v !== path))}
                />
              </HStack>
            </Tag.Root>
          ))
        )}
      </Wrap>
    </Field.Root>
  );
}
