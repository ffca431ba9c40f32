import { Card, Heading, type HeadingProps } from '@chakra-ui/react';
import type { ComponentProps, ReactNode } from 'react';

export interface DashboardCardProps extends Omit<ComponentProps<typeof Card.Root>, 'title'> {
  /** The card's heading: what its figure, chart or list shows. */
  title: ReactNode;
  /** The heading level in the page's outline: h2 on a page whose sections are cards, h3 under a section. */
  as?: 'h2' | 'h3';
  /** Placed beside the heading (a link, a badge). */
  action?: ReactNode;
  headingProps?: HeadingProps;
  /** The space between the heading and what follows; 3 unless a card lists short lines. */
  gap?: '2' | '3';
  children: ReactNode;
}

/** One card of a dashboard: a heading and what it shows, spaced the same on every dashboard. */
export function DashboardCard({
  title,
  as = 'h3',
  action,
  headingProps,
  gap = '3',
  children,
  ...root
}: DashboardCardProps) {
  return (
    <Card.Root {...root}>
      <Card.Body gap={gap}>
        {action ? (
          <Card.Header p="0" flexDirection="row" alignItems="center" justifyContent="space-between" gap="2">
            <Heading as={as} size="sm" {...headingProps}>
              {title}
            </Heading>
            {action}
          </Card.Header>
        ) : (
          <Heading as={as} size="sm" {...headingProps}>
            {title}
          </Heading>
        )}
        {children}
      </Card.Body>
    </Card.Root>
  );
}
