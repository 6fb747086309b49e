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
  return async (ctx, next) => {
    const match = BEARER.exec(ctx.get('Authorization'));
    if (!match) throw unauthenticated('Send a bearer token in the Authorization header.');
    try {
      ctx.state.principal = await verifier.verify(match[1]!);
    } catch (error) {
      if (!(error instanceof Unauthenticated)) throw error;
      ctx.state.log.info({ reason: error.reason }, 'token refused');
      throw unauthenticated('The bearer token is not valid.', 'invalid_token');
    }
    await next();
  };
}

export function requireScope(scope: Scope): Middleware {
  return async (ctx, next) => {
    if (!hasScope(ctx.state.principal, scope)) throw new HttpProblem(403, 'forbidden', `This operation needs the ${scope} scope.`, { requiredScope: scope });
    await next();
  };
}

function unauthenticated(detail: string, error?: string): HttpProblem {
  const challenge = error ? `Bearer realm="orders", error="${error}"` : 'Bearer realm="orders"';
  return new HttpProblem(401, 'unauthenticated', detail, {}, { 'WWW-Authenticate': challenge });
}
