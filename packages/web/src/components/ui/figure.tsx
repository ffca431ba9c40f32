import { Card, Text } from '@chakra-ui/react';

/** One dashboard figure: what it is, its value, and a note. */
export function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Card.Root size="sm">
      <Card.Body gap="1">
        <Text fontSize="sm" color="fg.muted">
          {label}
        </Text>
        <Text fontSize="2xl" fontWeight="semibold" data-testid={`figure-${label}`}>
          {value}
        </Text>
        {note ? (
          <Text fontSize="xs" color="fg.muted">
            {note}
          </Text>
        ) : null}
      </Card.Body>
    </Card.Root>
  );
}
