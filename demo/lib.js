// The one place the playground imports the library from, the way a user would.
// Switch this line to `from 'bloomcuckoo'` to run the playground against the published package.
export * from '../js/main/index.js';
