// Usage texts of the CLI (--help on every command).
import { LIMIT_TEXT } from './memory.js';
import { MAX_KEY_TEXT } from './lines.js';
import { KIND_NAMES, KINDS } from './kinds.js';

// The --kind line (every kind, the first the default), wrapped under its column, and the
// "Per kind:" section: each kind's own lines, from its row in bin/lib/kinds.js.
const KIND_LINE = `${KIND_NAMES[0]} (default), ${KIND_NAMES.slice(1, -1).join(', ')} or ${KIND_NAMES.at(-1)}`
  .replace(/(.{1,64})(, |$)/g, (_, text, sep) => `${text}${sep.trim()}\n${' '.repeat(29)}`).trimEnd();
const PER_KIND = KIND_NAMES.map((name) => KINDS[name].help ?? '').join('');
export const HELP = {
  main: `Usage: bloomcuckoo <command> [options]

Build, query and inspect Bloom, Cuckoo and Binary Fuse filter files (one key per line).

Commands:
  build <input|-> -o <file>    build a filter from keys, one per line (streamed)
  check <file|-> [keys...]     print key<TAB>maybe|no; exit 0 if all maybe, 1 if any absent
  info <file|->                kind, options, size, bytes, bits/key, estimated FPR
  merge <a> <b> [...] -o <c>   union Bloom (or blocked Bloom) filters of the same shape
  redis pull <url> <key> -o <file>
                               copy a RedisBloom BF or CF filter from Redis into a file
  redis push <file> <url> <key>
                               load a redis-bloom or redis-cuckoo file into Redis

A filter given as '-' is read from stdin (check, info, merge), as far as its frame says.
Every command takes --json: one JSON document on stdout instead of the text (its fields: the
command's --help); errors stay one line on stderr.

Options:
  -h, --help                   help for bloomcuckoo or a command ('bloomcuckoo build --help')
  -v, --version                the version

Exit status: 0 ok; 1 check found an absent key; 2 an error (missing file, corrupt filter,
bad option), printed as one line on stderr.
`,

  build: `Usage: bloomcuckoo build <input|-> -o <file|-> [--kind K] [--capacity N] [--error-rate P] [options]

Builds a filter from <input> (one key per line; '-' reads stdin) and writes its bytes to <file>
('-' writes stdout). Input is streamed in batches of 16,384 keys (or 16 MiB of input): any number of
lines passes through bounded memory, except for --kind fuse (below). A key is a line's bytes
without the trailing \\n or \\r\\n; empty lines are skipped. A key longer than ${MAX_KEY_TEXT} is
refused (exit 2, naming its line number): the reader holds at most ${MAX_KEY_TEXT} of one line and
the keys of 16 MiB of input, whatever the input, and reads it in time linear in its size.

The input is read once. A regular file is counted first when --capacity is not given; '-', a
pipe, a FIFO or a process substitution (<(...)) cannot be read twice, so --capacity is
required for them (except for scalable and fuse).

Before reading any key it works out the wasm memory the build needs (the filter, plus what
writing the file takes, or for fuse the key hashes and the peeling) and says so on stderr
(with --progress or on a terminal; always for fuse and for large builds). A build that cannot
fit the wasm memory limit (${LIMIT_TEXT}) is refused right away, with the amount it would need.

Options:
  -o, --output <file>        where to write the filter (required)
  -k, --kind <kind>          ${KIND_LINE}
  --capacity <n>             expected keys. Default when <input> is a regular file: its number
                             of keys (counted in a first pass). Required with stdin or a pipe,
                             except for scalable (first layer 100,000) and fuse
  --error-rate <p>           wanted false-positive rate, e.g. 0.01, 1e-3 or 0.1% (default 0.01)
  --seed <n>                 32-bit hash seed, decimal or 0x hex (default 0x9747b28c)
  -q, --quiet                no notes, progress or summary on stderr
  --progress                 show progress and the summary even when stderr is not a terminal
                             (by default they are shown only on a terminal)
  --json                     print on stdout {command, input, output, kind, keysRead, size (keys
                             held), byteLength (in memory), fileBytes, bitsPerKey, estimatedFpr,
                             seconds}; needs -o <file>

Per kind:
${PER_KIND}
Examples:
  bloomcuckoo build urls.txt -o urls.bf --error-rate 0.001
  zcat keys.gz | bloomcuckoo build - -o keys.cf --kind cuckoo --capacity 10000000
`,

  check: `Usage: bloomcuckoo check <file|-> [keys...]
       bloomcuckoo check <file|-> --input <keys-file|->

Prints one line per key: key<TAB>maybe (may be in the set; false positives happen at the
filter's error rate) or key<TAB>no (certainly not in the set).
Keys starting with '-' go after '--': bloomcuckoo check f.bf -- -key.
<file> '-' reads the filter from stdin (then the keys cannot come from stdin too).

Options:
  -i, --input <file|->   read keys from a file, one per line ('-' = stdin), streamed; a key
                         longer than ${MAX_KEY_TEXT} is refused (exit 2, naming its line number)
  --json                 print one JSON document: {command, file, results: [{key, maybe}],
                         checked, maybe, absent}, written as keys are checked; a key that is
                         not valid UTF-8 also has keyBase64 (its exact bytes)

Exit status: 0 when every key is maybe-present, 1 when some key is absent, 2 on an error.
`,

  info: `Usage: bloomcuckoo info <file|-> [--json]

Prints the filter's kind, options, size (keys held), bytes (in memory and in the file),
bits per key and its estimated false-positive rate now (from the fill for Bloom kinds, from the
load factor for cuckoo, 2^-bits for fuse). '-' reads the filter from stdin.

Options:
  --json   print {command, file, every field of the filter's info(), fileBytes, bitsPerKey,
           estimatedFpr} as one JSON document instead
`,

  merge: `Usage: bloomcuckoo merge <a|-> <b> [more...] -o <file|->

Writes the union of Bloom filters: a key maybe-present in any input is maybe-present in the
result. All inputs must be of one kind, bloom or blocked, with the same shape (bits and hashes,
or blocks) and seed, e.g. built with the same --capacity, --error-rate and --seed.

Options:
  -o, --output <file>   where to write the merged filter (required; may be one of the inputs)
  -q, --quiet           no summary on stderr
  --progress            print the summary even when stderr is not a terminal
  --json                print {command, inputs, output, kind, byteLength, fileBytes,
                        estimatedSize, estimatedFpr} on stdout; needs -o <file>

One input may be '-': the filter is read from stdin.
`,

  redis: `Usage: bloomcuckoo redis pull <url> <key> -o <file|->
       bloomcuckoo redis push <file> <url> <key> [--replace]

Copies RedisBloom filters (the BF.* and CF.* types of the RedisBloom module, built into Redis 8)
between a Redis server and filter files, bit for bit.

  pull   reads <key> with BF.SCANDUMP or CF.SCANDUMP (by its TYPE) and writes a redis-bloom or
         redis-cuckoo filter file, which 'check', 'info' and the library read
         (RedisBloomFilter / RedisCuckooFilter.deserialize): the same answers as the server.
         A CF filter with no items has no dump on the server and cannot be pulled.
  push   loads a redis-bloom or redis-cuckoo file ('build --kind redis-bloom', or a pull) into
         <key> with BF.LOADCHUNK or CF.LOADCHUNK. It loads into a temporary key in the same
         hash slot, then renames it over <key>: readers never see a half-loaded filter, and a
         failed push leaves <key> as it was.

<url> is redis://[user:password@]host:port[/db] or rediss://... for TLS.

Options:
  -o, --output <file>   pull: where to write the filter (required; '-' writes stdout)
  --replace             push: overwrite <key> if it exists (default: refuse)
  -q, --quiet           no summary on stderr
  --json                pull: print {command, key, output, class, kind, items, byteLength,
                        fileBytes, seconds} (needs -o <file>); push: print {command, file, key,
                        class, kind, items, bytesSent, seconds}

Needs the 'redis' package (node-redis), an optional peer dependency: npm install redis where
bloomcuckoo is installed (npm install -g redis for a global bloomcuckoo)
`,
};
