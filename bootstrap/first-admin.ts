// The first administrator: on a start that finds no account at all, ADMIN_EMAIL/ADMIN_PASSWORD
// make one. Two processes starting at once cannot make two: the email is claimed by one of them.
import type { Logger } from 'pino';
import { serviceViewer } from '../write-side/access.js';
import type { AccountService } from '../write-side/account-service.js';
import { EmailInUse } from '../write-side/errors.js';
import type { Config } from './config.js';

export async function createFirstAdmin(config: Config, accounts: AccountService, logger: Logger): Promise<void> {
  if (!config.admin || (await accounts.anyAccount())) return;
  try {
    const result = await accounts.create(serviceViewer('bootstrap'), { ...config.admin, role: 'admin' }, { correlationId: 'first-admin' });
    if (result.state.status !== 'absent') logger.info({ accountId: result.state.id }, 'no account found: created the first administrator from ADMIN_EMAIL');
  } catch (error) {
    // Another process starting beside this one made it first.
    if (!(error instanceof EmailInUse)) throw error;
  }
}
