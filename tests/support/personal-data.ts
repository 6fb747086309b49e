// Personal data for tests that build parts of the service by hand: keys in an in-memory SQLite key store.
import { OpenedViews } from '../../read-side/orders/opened-views.js';
import { SqliteKeyStore } from '../../write-side/adapters/sqlite-key-store.js';
import { Keyring } from '../../write-side/personal-data/keyring.js';
import { PersonalData } from '../../write-side/personal-data/personal-data.js';

export function inMemoryPersonalData() {
  const keys = new SqliteKeyStore(':memory:');
  const keyring = new Keyring(keys);
  const personal = new PersonalData(keyring);
  return { keys, keyring, personal, views: new OpenedViews(personal), exports: { views: new OpenedViews(personal), erasures: keys } };
}
