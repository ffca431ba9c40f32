/**
 * The eDiscovery search language: words, "phrases", AND / OR / NOT (or a leading -), and the fields
 * from:, to:, subject: (a word or a "phrase") and has:attachment. Fields become filters; the rest is
 * full text in web-search syntax. Over calendar events (search.ts) from: is the organiser, to: an
 * attendee, subject: the subject, has:attachment an event with attachments, and the full text their
 * subject, location, organiser and attendees; an event's body is not searched.
 */
export interface ParsedQuery {
  /** Full text for websearch_to_tsquery: words, "phrases", or, -word. */
  text: string;
  sender?: string;
  recipient?: string;
  subject?: string;
  hasAttachments?: boolean;
}

const FIELD = /(?:^|\s)(-?)(from|to|subject|has):(?:"([^"]*)"|(\S+))/gi;

export function parseQuery(input: string): ParsedQuery {
  const parsed: ParsedQuery = { text: '' };
  const rest = input.replace(FIELD, (_all, _neg: string, field: string, quoted?: string, bare?: string) => {
    const value = (quoted ?? bare ?? '').trim();
    switch (field.toLowerCase()) {
      case 'from':
        if (value) parsed.sender = value;
        break;
      case 'to':
        if (value) parsed.recipient = value;
        break;
      case 'subject':
        if (value) parsed.subject = value;
        break;
      case 'has':
        if (/^attachments?$/i.test(value)) parsed.hasAttachments = true;
        break;
    }
    return ' ';
  });
  // AND is what words next to each other mean; NOT is websearch's leading minus; OR stays.
  parsed.text = rest
    .replace(/\bAND\b/g, ' ')
    .replace(/\bNOT\s+("[^"]*"|\S+)/g, '-$1')
    .replace(/\s+/g, ' ')
    .trim();
  return parsed;
}
