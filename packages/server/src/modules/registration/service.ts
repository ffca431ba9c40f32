/**
 * Self-registration (PORTAL_SELF_REGISTRATION): whether apollo `POST /register` creates accounts, and
 * what the PWA's sign-up is told (`/app-config.json`).
 */
import { errorTexts } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { HttpError } from '../../errors.js';
import { hasAnyOrganisation } from '../organisations/repository.js';

/** Serialises `first`-mode registrations, so that two sign-ups of an empty portal do not both pass. */
const FIRST_ORGANISATION_LOCK = 72365;

/**
 * Whether someone may sign up now: `open` always, `closed` never, `first` while the portal has no
 * organisation.
 */
export async function selfRegistrationOpen(ctx: AppContext, db: Queryable = ctx.db): Promise<boolean> {
  const mode = ctx.config.selfRegistration;
  if (mode === 'first') return !(await hasAnyOrganisation(db));
  return mode === 'open';
}

/**
 * The identity contract has no answer of its own for a server that takes no registrations: it is
 * refused as ASP.NET Identity refuses a user its validators reject, a validation problem (400) with an
 * error code of its own (`RegistrationClosed`), and the SDK's refusal `code` beside it. A client of the
 * contract shows it as it shows `DuplicateUserName`; nothing about any address is said.
 */
export const registrationClosed = () =>
  new HttpError(400, 'One or more validation errors occurred.', {
    errors: { RegistrationClosed: [errorTexts.registrationClosed()] },
    code: 'registrationClosed',
  });

/**
 * Inside the registration's transaction: in `first` mode, takes the lock and checks again that no
 * organisation exists, so that of two sign-ups of an empty portal at the same moment one wins.
 */
export async function assertStillOpen(ctx: AppContext, tx: Queryable): Promise<void> {
  if (ctx.config.selfRegistration !== 'first') return;
  await tx.query('select pg_advisory_xact_lock($1)', [FIRST_ORGANISATION_LOCK]);
  if (await hasAnyOrganisation(tx)) throw registrationClosed();
}
