// npm run accounts -- create --email <email> --role <role> [--customer <id>]
// Creates an account on the stores the environment names, at any time (the first administrator
// too). The password is read from standard input (one line), never from the command line, where
// the shell's history and the process list would show it. Prints the account as JSON.
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { ROLES, serviceViewer, type Role } from '../write-side/kernel/access.js';
import { AccountService } from '../write-side/accounts/service.js';
import { CustomerService } from '../write-side/customers/service.js';
import { argon2Passwords } from '../write-side/adapters/argon2-passwords.js';
import { accountRepresentation } from '../read-side/accounts/views.js';
import { isKnownError } from '../write-side/kernel/errors.js';
import { configOrExit } from './config.js';
import { openEventStore } from './services.js';

const USAGE = `usage: npm run accounts -- create --email <email> --role <${ROLES.join('|')}> [--customer <id>]
The password is read from standard input, e.g.  read -rs PASSWORD && printf '%s\\n' "$PASSWORD" | npm run accounts -- create --email ada@shop.example --role admin`;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({ options: { email: { type: 'string' }, role: { type: 'string' }, customer: { type: 'string' } }, strict: true, allowPositionals: true });
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
const { positionals, values } = parsed;
if (positionals.join(' ') !== 'create' || !values.email || !values.role) fail(USAGE);
if (!(ROLES as readonly string[]).includes(values.role)) fail(`--role must be one of ${ROLES.join(', ')}`);

const config = configOrExit();
if (process.stdin.isTTY) console.error('Password (12 to 256 characters), then Enter:');
let input = '';
for await (const chunk of process.stdin) input += String(chunk);
// One line: its line end is not part of the password.
const password = input.replace(/\r?\n$/, '');
if (password.includes('\n')) fail('Give the password as one line on standard input.');

const logger = pino({ level: 'warn' }, pino.destination(2));
const events = await openEventStore(config, logger);
try {
  const accounts = new AccountService(events, argon2Passwords(), { customers: new CustomerService(events) });
  const result = await accounts.create(serviceViewer('accounts-cli'), { email: values.email, password, role: values.role as Role, customerId: values.customer ?? null }, { correlationId: 'accounts-cli' });
  if (result.state.status === 'absent' || result.revision === null) throw new Error('the account was not created');
  process.stdout.write(JSON.stringify(accountRepresentation(result.state, result.revision)) + '\n');
} catch (error) {
  if (!isKnownError(error)) throw error;
  await events.close();
  fail(`Not created: ${error.message}`, 1);
}
await events.close();
