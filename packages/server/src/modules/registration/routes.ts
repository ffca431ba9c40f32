/**
 * Self-registration (apollo `POST /register`): a new account, the administrator of a customer
 * organisation made for it. A module of its own above identity and organisations, since it makes
 * both; neither of them imports it.
 */
import type { AppContext } from '../../context.js';
import { hashPassword } from '../../crypto/passwords.js';
import { validationProblem } from '../../errors.js';
import { routes } from '../../http/contract.js';
import { runAfterResponse } from '../identity/background.js';
import { mailConfirmation } from '../identity/mails.js';
import { assertPasswordRules, invalidEmail, isEmail, issueOneTimeCode, newId } from '../identity/service.js';
import { findUserByEmail, findUserById, insertUser } from '../identity/users.js';
import { createOrganisation } from '../organisations/repository.js';
import { assertStillOpen, registrationClosed, selfRegistrationOpen } from './service.js';

export function registrationRoutes(ctx: AppContext) {
  return routes({
    'apollo.auth.register': {
      validateBody: false,
      async handler({ body }, rc) {
        // A closed portal refuses every registration alike, before looking at the address.
        if (!(await selfRegistrationOpen(ctx))) throw registrationClosed();
        const { email, password } = (body ?? {}) as { email?: unknown; password?: unknown };
        if (!isEmail(email)) throw invalidEmail(email);
        assertPasswordRules(typeof password === 'string' ? password : '');
        // The contract answers a taken address with DuplicateUserName; a taken and a free one cost the
        // same work before the answer all the same: the password is hashed for both, the confirmation
        // mail leaves after the answer.
        const passwordHash = await hashPassword(password as string);
        const duplicate = () => validationProblem({ DuplicateUserName: [`Username '${email}' is already taken.`] });
        if (await findUserByEmail(ctx.db, email)) throw duplicate();
        const user = await ctx.db.transaction(async (tx) => {
          await assertStillOpen(ctx, tx);
          // Self-registration starts a customer organisation of its own on a trial licence.
          const domain = email.split('@')[1] ?? email;
          const { organisation } = await createOrganisation(tx, { name: domain, kind: 'customer', license: 'trial' });
          const id = newId();
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
              ip: rc.ip,
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
        return undefined;
      },
    },
  });
}
