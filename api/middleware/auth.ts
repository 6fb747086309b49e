// Bearer authentication and scope checks. The principal lands in ctx.state.principal.
import type { Middleware } from 'koa';
import type { TokenStanding } from '../../write-side/accounts/service.js';
import { hasScope, Unauthenticated, type Principal, type Scope, type TokenVerifier } from '../auth.js';
import { HttpProblem } from '../problem.js';

declare module 'koa' {
  interface DefaultState {
    principal: Principal;
  }
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i;

/**
 * Whether an account's tokens stand: the version they must carry and whether it is disabled, as
 * known now without waiting (undefined: ask `standing`), or asked for (null: no such account).
 */
export interface AccountStandings {
  knownStanding(accountId: string): TokenStanding | null | undefined;
  standing(accountId: string): Promise<TokenStanding | null>;
}

export function authenticate(verifier: TokenVerifier, accounts?: AccountStandings): Middleware {
  /** A token issued to an account stands while the account is enabled and at the version the token carries. */
  const stands = (principal: Principal, standing: TokenStanding | null) =>
    standing !== null && !standing.disabled && standing.tokenVersion === principal.accountVersion;
  const refused = (ctx: Parameters<Middleware>[0]) => {
    ctx.state.log.info({ reason: 'account disabled, or its token version has moved on' }, 'token refused');
    return unauthenticated('The bearer token is not valid.', 'invalid_token');
  };
  const admit = (ctx: Parameters<Middleware>[0], principal: Principal, next: () => Promise<unknown>): Promise<unknown> => {
    if (principal.accountVersion === undefined || !accounts) {
      ctx.state.principal = principal;
      return next();
    }
    const known = accounts.knownStanding(principal.sub);
    if (known !== undefined) {
      if (!stands(principal, known)) return Promise.reject(refused(ctx));
      ctx.state.principal = principal;
      return next();
    }
    return accounts.standing(principal.sub).then((standing) => {
      if (!stands(principal, standing)) throw refused(ctx);
      ctx.state.principal = principal;
      return next();
    });
  };
  const verified = async (ctx: Parameters<Middleware>[0], token: string): Promise<Principal> => {
    try {
      return await verifier.verify(token);
    } catch (error) {
      if (!(error instanceof Unauthenticated)) throw error;
      ctx.state.log.info({ reason: error.reason }, 'token refused');
      throw unauthenticated('The bearer token is not valid.', 'invalid_token');
    }
  };
  // Not async: a token seen before (nearly every request) goes on without a promise of its own.
  return (ctx, next) => {
    const match = BEARER.exec(ctx.get('Authorization'));
    if (!match) return Promise.reject(unauthenticated('Send a bearer token in the Authorization header.'));
    const principal = verifier.known?.(match[1]!);
    if (principal) return admit(ctx, principal, next) as Promise<void>;
    return verified(ctx, match[1]!).then((p) => admit(ctx, p, next)) as Promise<void>;
  };
}

export function requireScope(scope: Scope): Middleware {
  return (ctx, next) => {
    if (!hasScope(ctx.state.principal, scope)) {
      return Promise.reject(new HttpProblem(403, 'forbidden', `This operation needs the ${scope} scope.`, { requiredScope: scope }));
    }
    return next();
  };
}

function unauthenticated(detail: string, error?: string): HttpProblem {
  const challenge = error ? `Bearer realm="orders", error="${error}"` : 'Bearer realm="orders"';
  return new HttpProblem(401, 'unauthenticated', detail, {}, { 'WWW-Authenticate': challenge });
}
