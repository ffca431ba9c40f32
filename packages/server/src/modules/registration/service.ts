/**
 * Self-registration (PORTAL_SELF_REGISTRATION): whether apollo `POST /register` creates accounts, what
 * the PWA's sign-up is told (`/app-config.json`), and the registration itself: a user and the
 * organisation made for it, so a module above both identity and organisations.
 */
import { randomUUID } from 'node:crypto';
import { errorTexts } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { hashPassword } from '../../crypto/passwords.js';
import type { Queryable } from '../../db/database.js';
import { HttpError, validationProblem } from '../../errors.js';
import { lockRegistrations } from '../identity/account-repository.js';
import { runAfterResponse } from '../identity/background.js';
import { issueOneTimeCode } from '../identity/codes.js';
import { mailConfirmation } from '../identity/mails.js';
import { assertPasswordRules } from '../identity/password.js';
import { findUserByEmail, findUserById, insertUser } from '../identity/users-repository.js';
import { createOrganisation, hasAnyOrganisation } from '../organisations/repository.js';

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
async function assertStillOpen(ctx: AppContext, tx: Queryable): Promise<void> {
  if (ctx.config.selfRegistration !== 'first') return;
  await lockRegistrations(tx);
  if (await hasAnyOrganisation(tx)) throw registrationClosed();
}

/**
 * Apollo's POST /register of a valid address (the caller checked that registration is open): a
 * customer organisation of its own on a trial licence, and its administrator, unconfirmed, who is
 * mailed the confirmation link after the answer. The contract answers a taken address with
 * DuplicateUserName; a taken and a free one cost the same work before the answer all the same: the
 * password is hashed for both, the confirmation mail leaves after the answer.
 */
export async function registerAccount(ctx: AppContext, email: string, password: unknown, ip: string): Promise<void> {
  const chosen = typeof password === 'string' ? password : '';
  assertPasswordRules(chosen);
  const passwordHash = await hashPassword(chosen);
  const duplicate = () => validationProblem({ DuplicateUserName: [`Username '${email}' is already taken.`] });
  if (await findUserByEmail(ctx.db, email)) throw duplicate();
  const user = await ctx.db.transaction(async (tx) => {
    await assertStillOpen(ctx, tx);
    const domain = email.split('@')[1] ?? email;
    const { organisation } = await createOrganisation(tx, { name: domain, kind: 'customer', license: 'trial' });
    const id = randomUUID();
    const stored = await insertUser(tx, {
      id,
      email,
      displayName: email,
      passwordHash,
      role: 'admin',
      organisationId: organisation.id,
      emailConfirmed: false,
    });
    // A concurrent registration of the address won the unique index: thrown, so that the
    // organisation made for this one is rolled back with it.
    if (!stored) throw duplicate();
    await ctx.audit(
      {
        actorUserId: id,
        actorEmail: email,
        organisationId: organisation.id,
        action: 'auth.register',
        outcome: 'success',
        ip,
      },
      tx,
    );
    return findUserById(tx, id);
  });
  if (user) {
    runAfterResponse(ctx, 'confirmation mail', async () =>
      mailConfirmation(ctx, user, user.email, await issueOneTimeCode(ctx, user.id, 'confirm')),
    );
  }
}
