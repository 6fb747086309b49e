// The `all` role's services opened on a fresh data folder per test, closed and the folder removed after each.
import { pino } from 'pino';
import { afterEach } from 'vitest';
import { parseConfig } from '../../bootstrap/config.js';
import { openServices, type ServiceOverrides, type Services } from '../../bootstrap/services.js';
import { tempDir } from './event-stores.js';

const silent = pino({ level: 'silent' });

/** Call at the top of a test file: a function that opens the services with the environment `env` on top of `overrides`. */
export function servicesInTempDirs(prefix: string, overrides: ServiceOverrides): (env?: Record<string, string>) => Promise<Services> {
  const opened: Array<{ services: Services; remove(): void }> = [];
  afterEach(async () => {
    for (const { services, remove } of opened.splice(0)) {
      await services.close();
      remove();
    }
  });
  return async (env = {}) => {
    const dir = tempDir(prefix);
    const services = await openServices(parseConfig({ DATA_DIR: dir.path, ...env }), silent, 'all', overrides);
    opened.push({ services, remove: dir.remove });
    return services;
  };
}
