// Bearer authentication and scope checks. The principal lands in ctx.state.principal.
import type { Middleware } from 'koa';
import { hasScope, Unauthenticated, type Principal, type Scope, type TokenVerifier } from '../auth.js';
import { HttpProblem } from '../problem.js';

declare module 'koa' {
  interface DefaultState {
    principal: Principal;
  }
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i;

export function authenticate(verifier: TokenVerifier): Middleware {
  const verified = async (ctx: Parameters<Middleware>[0], token: string) => {
    try {
      ctx.state.principal = await verifier.verify(token);
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
    if (principal) {
      ctx.state.principal = principal;
      return next();
    }
    return verified(ctx, match[1]!).then(() => next());
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
