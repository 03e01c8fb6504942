#!/usr/bin/env node
// bloomcuckoo CLI: build, check, info and merge filter files; pull and push RedisBloom filters. `bloomcuckoo --help` for usage.
// Exit status: 0 ok, 1 `check` found an absent key, 2 an error (one line on stderr).
import { readFileSync } from 'node:fs';
import { CliError } from './lib/common.js';
import { build, check, info, merge } from './lib/commands.js';
import { redis } from './lib/redis.js';
import { HELP } from './lib/help.js';

const COMMANDS = { build, check, info, merge, redis };

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help') {
    process.stdout.write(HELP.main);
    return command === undefined ? 2 : 0;
  }
  if (command === 'help') {
    process.stdout.write(HELP[rest[0]] ?? HELP.main);
    return 0;
  }
  if (command === '-v' || command === '--version') {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  const run = COMMANDS[command];
  if (!run) throw new CliError(`unknown command '${command}' (commands: ${Object.keys(COMMANDS).join(', ')}; see 'bloomcuckoo --help')`);
  return run(rest);
}

// A closed stdout (e.g. `| head`) ends the program quietly.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof CliError) {
    process.stderr.write(`bloomcuckoo: ${err.message}\n`);
  } else {
    process.stderr.write(`bloomcuckoo: internal error: ${err?.stack ?? err}\n`);
  }
  process.exitCode = 2;
}
