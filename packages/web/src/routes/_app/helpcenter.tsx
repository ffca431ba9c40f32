import { createFileRoute } from '@tanstack/react-router';
import { helpcenterSearch } from '../../components/help/search';
import { HelpcenterPage } from '../../features/account/helpcenter-page';

function Helpcenter() {
  const search = Route.useSearch();
  // Each asked-for topic and article opens the page afresh, expanded and scrolled there.
  return <HelpcenterPage key={`${search.topic}.${search.article}`} search={search} />;
}

// Signed in, with or without a selected client: partner setup and the account settings link here too.
export const Route = createFileRoute('/_app/helpcenter')({ validateSearch: helpcenterSearch, component: Helpcenter });
