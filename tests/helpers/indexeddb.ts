/**
 * IndexedDB for a unit test file, as a browser has it: fake-indexeddb's classes on globalThis and
 * an `indexedDB` of the file's own, new and empty. A file that uses IndexedDB imports this first.
 * The unit tier's files share a worker one after another (tests/unit/setup.ts takes the globals
 * away before each file), so a file that does not import it sees no IndexedDB, and one that does
 * never sees another file's databases.
 */
import * as fake from 'fake-indexeddb'

const { default: _instance, indexedDB: _shared, ...classes } = fake
Object.assign(globalThis, classes, { indexedDB: new fake.IDBFactory() })
