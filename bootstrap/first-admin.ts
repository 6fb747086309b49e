// The first administrator: on a start that finds no account at all, ADMIN_EMAIL/ADMIN_PASSWORD
// make one, under an idempotency key of its email, so that its id is the same on every start: a
// start killed halfway is finished by the next one (the email's claim is already that id's), and
// two processes starting at once make one account between them.
import type { Logger } from 'pino';
import { serviceViewer } from '../write-side/kernel/access.js';
import { normaliseEmail, type AccountService } from '../write-side/accounts/service.js';
import { EmailInUse } from '../write-side/kernel/errors.js';
import type { Config } from './config.js';

export async function createFirstAdmin(config: Config, accounts: AccountService, logger: Logger): Promise<void> {
  if (!config.admin || (await accounts.anyAccount())) return;
  try {
    const key = `first-admin:${normaliseEmail(config.admin.email)}`;
    const context = { correlationId: 'first-admin', idempotency: { key, fingerprint: key } };
    const result = await accounts.create(serviceViewer('bootstrap'), { ...config.admin, role: 'admin' }, context);
    if (result.state.status !== 'absent') logger.info({ accountId: result.state.id }, 'no account found: created the first administrator from ADMIN_EMAIL');
  } catch (error) {
    // Another account has this email already (made by `npm run accounts` and then left alone).
    if (!(error instanceof EmailInUse)) throw error;
    logger.warn('ADMIN_EMAIL names an email another account has: no first administrator made');
  }
}
