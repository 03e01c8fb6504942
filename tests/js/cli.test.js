// The bloomcuckoo CLI (bin/bloomcuckoo.js), run as a child process on temporary files:
// build → check → info → merge for every kind js/main/index.js exports, exit codes 0/1/2, --help,
// stdin input, corrupt/missing files, bad options, and streaming under a small heap limit.
import { spawn } from 'node:child_process';
import { closeSync, ftruncateSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as lib from '../../js/main/index.js';
import { KINDS } from '../../js/main/kinds.js';

const BIN = fileURLToPath(new URL('../../bin/bloomcuckoo.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bloomcuckoo-cli-'));
const p = (name) => join(dir, name);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the CLI; `input`: a string/Buffer or a Readable for stdin. Resolves { code, stdout, stderr,
 * timedOut }: a child still running after `timeout` ms is killed (code null, timedOut true), so a
 * CLI that hangs fails its test instead of the run.
 */
function cli(args, { input, nodeArgs = [], env, timeout = 60_000 } = {}) {
  return run(process.execPath, [...nodeArgs, BIN, ...args], { input, env, timeout });
}

/** Runs `bash -c script` with BC the CLI command (for pipes, process substitution, FIFOs); as cli(). */
function sh(script, { input, timeout = 60_000 } = {}) {
  return run('bash', ['-c', `BC() { "$NODE" "$BIN" "$@"; }\n${script}`], { input, env: { NODE: process.execPath, BIN }, timeout });
}

function run(command, args, { input, env, timeout }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: dir, env: { ...process.env, ...env }, detached: true });
    const out = [];
    const err = [];
    let timedOut = false;
    const timer = setTimeout(() => {   // the whole group: bash and what it started
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { child.kill('SIGKILL'); }
    }, timeout);
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
    child.stdin.on('error', () => {}); // the CLI may exit before reading stdin
    if (input instanceof Readable) input.pipe(child.stdin);
    else child.stdin.end(input ?? '');
  });
}

const KEYS = Array.from({ length: 5000 }, (_, i) => `key-${i}`);
writeFileSync(p('keys.txt'), `${KEYS.join('\n')}\n`);
writeFileSync(p('few.txt'), 'alpha\r\nbeta\n\ngamma'); // CRLF, an empty line, no final newline
const ABSENT = Array.from({ length: 200 }, (_, i) => `absent-${i}`);

// every kind of the kind table, by name, with its class
const CLASS_OF = Object.fromEntries(KINDS.map(([, name, Cls]) => [name, Cls]));
const ALL = Object.keys(CLASS_OF);

beforeAll(() => lib.init());

describe.each(ALL)('--kind %s', (kind) => {
  const file = p(`${kind}.filter`);

  test('build from a file (capacity = its line count), then info and check', async () => {
    const b = await cli(['build', 'keys.txt', '-o', file, '--kind', kind]);
    expect(b.stderr).toEqual(kind === 'fuse' ? expect.stringMatching(/^memory: a fuse filter for 5,000 keys: about [\d.]+ KiB of filter memory \(\+ [\d.]+ KiB while building: the key hashes and the peeling\); the wasm memory limit is \d+ GiB\n$/) : '');
    expect(b.code).toBe(0);
    expect(b.stdout).toBe('');

    const f = lib.deserialize(readFileSync(file));
    expect(f.info().kind).toBe(kind);
    expect(f.hasAll(KEYS).every((x) => x === 1)).toBe(true);
    if (kind !== 'fuse' && kind !== 'redis-cuckoo') expect(f.info().capacity).toBe(KEYS.length);
    f.free();

    const i = await cli(['info', file]);
    expect(i.code).toBe(0);
    expect(i.stdout).toMatch(new RegExp(`^kind +${kind} \\(${CLASS_OF[kind].name}\\)$`, 'm'));
    for (const row of ['file', 'options', 'size', 'bytes', 'bits/key', 'est. FPR']) {
      expect(i.stdout).toMatch(new RegExp(`^${row.replace('.', '\\.')} +\\S`, 'm'));
    }
    const json = JSON.parse((await cli(['info', file, '--json'])).stdout);
    expect(json).toMatchObject({ kind, file });
    expect(json.bitsPerKey).toBeGreaterThan(4);
    expect(json.estimatedFpr).toBeGreaterThan(0);
    expect(json.estimatedFpr).toBeLessThan(0.05);

    const all = await cli(['check', file, 'key-0', 'key-4999']);
    expect(all).toMatchObject({ code: 0, stdout: 'key-0\tmaybe\nkey-4999\tmaybe\n' });

    const some = await cli(['check', file, '--input', '-'], { input: `key-1\n${ABSENT.join('\n')}\n` });
    expect(some.code).toBe(1);
    const lines = some.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + ABSENT.length);
    expect(lines[0]).toBe('key-1\tmaybe');
    expect(lines.filter((l) => l.endsWith('\tno')).length).toBeGreaterThan(ABSENT.length * 0.9);
  });

  test('build from stdin gives the same bytes as from the file', async () => {
    const capacity = kind === 'fuse' ? [] : ['--capacity', String(KEYS.length)];
    const s = await cli(['build', '-', '-o', '-', '--kind', kind, '-q', ...capacity], { input: readFileSync(p('keys.txt')) });
    expect(s.code).toBe(0);
    expect(s.stderr).toBe('');
    // -o - writes the bytes to stdout; compare them through the library
    const fromFile = (await cli(['build', 'keys.txt', '-o', '-', '--kind', kind, '-q'])).stdout;
    expect(s.stdout.length).toBeGreaterThan(0);
    expect(s.stdout).toBe(fromFile);
  });

  test('keys are the lines: CRLF and a missing final newline handled, empty lines skipped', async () => {
    const out = p(`${kind}-few.filter`);
    expect((await cli(['build', 'few.txt', '-o', out, '--kind', kind, '-q'])).code).toBe(0);
    const f = lib.deserialize(readFileSync(out));
    expect(Array.from(f.hasAll(['alpha', 'beta', 'gamma']))).toEqual([1, 1, 1]);
    if (['bloom', 'blocked', 'counting', 'redis-bloom'].includes(kind)) expect(f.info().capacity).toBe(3);
    expect(f.size).toBe(3);
    f.free();
  });
});

// Issue 34 item 3: the input is read once. A pipe, a FIFO or a process substitution cannot be
// read twice (to count its keys, then to add them): --capacity is required for them, as for stdin.
describe('input that is not a regular file is read once', () => {
  const keysOf = (file) => {
    const f = lib.deserialize(readFileSync(p(file)));
    const r = { size: f.size, has: Array.from(f.hasAll(['alpha', 'beta'])) };
    f.free();
    return r;
  };
  const notRegular = /^bloomcuckoo: build: --capacity is required when the input is not a regular file \('[^']+' is a (pipe or FIFO|character device|socket)[^\n]*\n$/;

  test('process substitution: without --capacity a clear error, with it every key', async () => {
    const without = await sh(`BC build -o ps.bloom <(printf 'alpha\\nbeta\\n')`, { timeout: 15_000 });
    expect(without).toMatchObject({ code: 2, timedOut: false, stdout: '' });
    expect(without.stderr).toMatch(notRegular);
    const withCap = await sh(`BC build -o ps.bloom --capacity 2 <(printf 'alpha\\nbeta\\n')`, { timeout: 15_000 });
    expect(withCap).toMatchObject({ code: 0, timedOut: false, stderr: '' });
    expect(keysOf('ps.bloom')).toEqual({ size: 2, has: [1, 1] });
    // scalable and fuse need no --capacity (as on stdin): they get every key too
    for (const kind of ['scalable', 'fuse']) {
      const r = await sh(`BC build -o ps.${kind} --kind ${kind} -q <(printf 'alpha\\nbeta\\n')`, { timeout: 15_000 });
      expect(r).toMatchObject({ code: 0, timedOut: false });
      expect(keysOf(`ps.${kind}`)).toEqual({ size: 2, has: [1, 1] });
    }
  }, 60_000);

  test('a FIFO with a writer: no hang; without --capacity a clear error, with it every key', async () => {
    const script = (capacity) => `rm -f k.fifo && mkfifo k.fifo
      (printf 'alpha\\nbeta\\n' > k.fifo) >/dev/null 2>&1 &
      writer=$!
      BC build k.fifo -o fifo.bloom -q ${capacity}; code=$?
      kill $writer 2>/dev/null; wait; exit $code`;
    const without = await sh(script(''), { timeout: 15_000 });
    expect(without).toMatchObject({ code: 2, timedOut: false, stdout: '' });
    expect(without.stderr).toMatch(notRegular);
    const withCap = await sh(script('--capacity 2'), { timeout: 15_000 });
    expect(withCap).toMatchObject({ code: 0, timedOut: false, stderr: '' });
    expect(keysOf('fifo.bloom')).toEqual({ size: 2, has: [1, 1] });
  }, 60_000);

  test('/dev/stdin and - on a pipe; /dev/stdin redirected from a regular file is counted', async () => {
    const devWithout = await sh("printf 'alpha\\nbeta\\n' | BC build /dev/stdin -o dev.bloom", { timeout: 15_000 });
    expect(devWithout).toMatchObject({ code: 2, timedOut: false });
    expect(devWithout.stderr).toMatch(notRegular);
    for (const input of ['/dev/stdin', '-']) {
      const r = await sh(`printf 'alpha\\nbeta\\n' | BC build ${input} -o dev.bloom --capacity 2`, { timeout: 15_000 });
      expect(r).toMatchObject({ code: 0, timedOut: false, stderr: '' });
      expect(keysOf('dev.bloom')).toEqual({ size: 2, has: [1, 1] });
    }
    // a parent process's stdin pipe may be a socket, which cannot be opened by name: /dev/stdin
    // is read as stdin; /proc/self/fd/0 is one clear line
    const socket = await cli(['build', '/dev/stdin', '-o', 'dev.bloom', '--capacity', '2'], { input: 'alpha\nbeta\n', timeout: 15_000 });
    expect(socket).toMatchObject({ code: 0, stderr: '' });
    expect(keysOf('dev.bloom')).toEqual({ size: 2, has: [1, 1] });
    const proc = await cli(['build', '/proc/self/fd/0', '-o', 'dev.bloom', '--capacity', '2'], { input: 'alpha\n', timeout: 15_000 });
    expect(proc.code).toBe(2);
    expect(proc.stderr).toMatch(/^bloomcuckoo: cannot read input '\/proc\/self\/fd\/0': [^\n]*use - for stdin\)\n$/);
    writeFileSync(p('ab.txt'), 'alpha\nbeta\n');
    const file = await sh('BC build /dev/stdin -o dev.bloom --progress < ab.txt', { timeout: 15_000 });
    expect(file).toMatchObject({ code: 0, timedOut: false });
    expect(file.stderr).toMatch(/capacity: 2 \(the number of keys in \/dev\/stdin\)/);
    expect(keysOf('dev.bloom')).toEqual({ size: 2, has: [1, 1] });
  }, 60_000);
});

// Issue 34 item 4: lines are read in linear time, and a line longer than the key limit is refused
// with one line naming it (the reader holds at most the limit, never the whole line).
describe('long lines', () => {
  const MiB = 2 ** 20;
  const LIMIT = 16 * MiB;   // the limit --help states (bin/lib/lines.js MAX_KEY_BYTES)
  const tooLong = (line) => new RegExp(`^bloomcuckoo: (build|check): line ${line} is longer than the key limit of 16 MiB `
    + '\\(16,777,216 bytes\\); a key is one line of the input[^\\n]*\\n$');
  const rss = ['--import', `data:text/javascript,process.on('exit', () => process.stderr.write('maxrss ' + process.resourceUsage().maxRSS * 1024 + '\\n'))`];

  /** stdin of `first` then `mib` MiB of 'a' with no newline, made as it is read (never held whole). */
  function longLine(first, mib) {
    const block = Buffer.alloc(MiB, 'a');
    let sent = -1;
    return new Readable({
      read() {
        if (sent === -1) this.push(first);
        else if (sent < mib) this.push(block);
        else this.push(null);
        sent++;
      },
    });
  }

  test('a 256 MB line through a pipe: the clear error in bounded time and memory', async () => {
    const r = await cli(['build', '-', '-o', 'long.bloom', '--capacity', '10'],
      { input: longLine('alpha\n', 256), nodeArgs: rss, timeout: 30_000 });
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr.replace(/maxrss \d+\n/, '')).toMatch(tooLong(2));
    expect(Number(/maxrss (\d+)/.exec(r.stderr)[1])).toBeLessThan(200 * MiB);
    expect(() => readFileSync(p('long.bloom'))).toThrow();
    expect((await cli(['build', 'keys.txt', '-o', 'keys.bloom'])).code).toBe(0);
    const c = await cli(['check', 'keys.bloom', '--input', '-'], { input: longLine('key-1\n\n', 256), timeout: 30_000 });
    expect(c).toMatchObject({ code: 2, timedOut: false });
    expect(c.stderr).toMatch(tooLong(3));
  }, 90_000);

  test('a batch holds the keys of at most 16 MiB of input: keys far apart do not keep their chunks', async () => {
    // 4,096 keys, each after 64 KiB of empty lines (256 MB in all): a batch of 16,384 views into
    // the chunks they came in would hold every chunk
    const keysApart = 4096;
    let sent = 0;
    const input = new Readable({
      read() {
        if (sent === keysApart) { this.push(null); return; }
        const block = Buffer.alloc(65536, 10);
        block.write(`far-${sent}`, 0, 'latin1');
        sent++;
        this.push(block);
      },
    });
    const r = await cli(['build', '-', '-o', 'apart.bloom', '--capacity', String(keysApart)], { input, nodeArgs: rss, timeout: 60_000 });
    expect(r).toMatchObject({ code: 0, timedOut: false });
    expect(Number(/maxrss (\d+)/.exec(r.stderr)[1])).toBeLessThan(200 * MiB);
    const f = lib.deserialize(readFileSync(p('apart.bloom')));
    expect([f.size, f.has('far-0'), f.has(`far-${keysApart - 1}`)]).toEqual([keysApart, true, true]);
    f.free();
  }, 90_000);

  test('a 256 MB file without a newline: refused while counting, in bounded time', async () => {
    const fd = openSync(p('one-line.txt'), 'w');
    ftruncateSync(fd, 256 * MiB);   // sparse: 256 MB of NUL bytes, no newline, no disk
    closeSync(fd);
    const r = await cli(['build', 'one-line.txt', '-o', 'long.bloom'], { timeout: 30_000 });
    expect(r).toMatchObject({ code: 2, timedOut: false, stdout: '' });
    expect(r.stderr).toMatch(tooLong(1));
    rmSync(p('one-line.txt'));
  }, 60_000);

  test('a key at the limit works (also with CRLF); one byte more is refused', async () => {
    const key = Buffer.alloc(LIMIT, 'k');
    writeFileSync(p('at-limit.txt'), Buffer.concat([Buffer.from('alpha\n'), key, Buffer.from('\r\nbeta\n')]));
    const b = await cli(['build', 'at-limit.txt', '-o', 'at-limit.bloom'], { timeout: 30_000 });
    expect(b).toMatchObject({ code: 0, stderr: '' });
    const f = lib.deserialize(readFileSync(p('at-limit.bloom')));
    expect(f.size).toBe(3);
    expect(f.has(key)).toBe(true);
    f.free();
    const c = await cli(['check', 'at-limit.bloom', '--input', 'at-limit.txt'], { timeout: 30_000 });
    expect(c).toMatchObject({ code: 0, stderr: '' });
    expect(c.stdout.endsWith('\tmaybe\nbeta\tmaybe\n')).toBe(true);
    writeFileSync(p('over-limit.txt'), Buffer.concat([Buffer.from('alpha\n\n'), key, Buffer.from('k\nbeta\n')]));
    const over = await cli(['build', 'over-limit.txt', '-o', 'x.bloom', '--capacity', '3'], { timeout: 30_000 });
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(tooLong(3));
    rmSync(p('at-limit.txt'));
    rmSync(p('over-limit.txt'));
  }, 60_000);

  test('--help states the key limit and the bounded memory', async () => {
    const h = (await cli(['build', '--help'])).stdout;
    expect(h).toMatch(/longer than 16 MiB/);
    expect(h).toMatch(/line number/);
  });
});

// Issue 34 item 5: a cuckoo build keeps every line (add, a multiset) by default. As a set
// (addUnique) a key whose fingerprint collides with a key already present is not stored, and
// removing that other key later makes it read absent: --unique opts into that, knowingly.
describe('cuckoo builds keep every line', () => {
  const N = 100_000;
  const keys = Array.from({ length: N }, (_, i) => `user-${i}@example.com`);
  beforeAll(() => writeFileSync(p('many.txt'), `${keys.join('\n')}\n`));

  /**
   * Builds, removes every 10th key with the library; returns how many of those removals found
   * nothing (notFound) and how many of the other keys then read absent (lost).
   */
  async function lostAfterRemoval(kind, extra) {
    const b = await cli(['build', 'many.txt', '-o', `many.${kind}`, '--kind', kind, '-q', ...extra]);
    expect(b).toMatchObject({ code: 0, stderr: '' });
    const f = lib.deserialize(readFileSync(p(`many.${kind}`)));
    try {
      const kept = [];
      let notFound = 0;
      for (let i = 0; i < N; i++) {
        if (i % 10 !== 0) kept.push(keys[i]);
        else if (!f.remove(keys[i])) notFound++;
      }
      return { notFound, lost: kept.length - f.hasAll(kept).reduce((a, x) => a + x, 0) };
    } finally {
      f.free();
    }
  }

  test.each(['cuckoo', 'redis-cuckoo'])('--kind %s: 10%% removed, 0 false negatives among the other 90%%', async (kind) => {
    expect(await lostAfterRemoval(kind, [])).toEqual({ notFound: 0, lost: 0 });
    expect(await lostAfterRemoval(kind, ['--multiset'])).toEqual({ notFound: 0, lost: 0 });   // the old flag: the default now
  }, 60_000);

  test('--unique builds a set (duplicate lines stored once) and has the hazard --help states', async () => {
    writeFileSync(p('dups.txt'), 'alpha\nbeta\nalpha\nalpha\n');
    for (const [flags, size] of [[[], 4], [['--unique'], 2]]) {
      expect((await cli(['build', 'dups.txt', '-o', 'dups.cuckoo', '--kind', 'cuckoo', ...flags])).code).toBe(0);
      const f = lib.deserialize(readFileSync(p('dups.cuckoo')));
      expect(f.size).toBe(size);
      f.free();
    }
    for (const kind of ['cuckoo', 'redis-cuckoo']) expect((await lostAfterRemoval(kind, ['--unique'])).lost).toBeGreaterThan(0);
    // every line is stored: a line repeated more than 2 x bucket-size times fills its buckets
    writeFileSync(p('repeated.txt'), `${'alpha\n'.repeat(1000)}${keys.slice(0, 5000).join('\n')}\n`);
    const full = await cli(['build', 'repeated.txt', '-o', 'x.cuckoo', '--kind', 'cuckoo']);
    expect(full.code).toBe(2);
    expect(full.stderr).toMatch(/^bloomcuckoo: build: the cuckoo filter is full after [\d,]+ keys; raise --capacity or --expansion; every line is added: .*repeated.*sort -u.*--unique[^\n]*\n$/);
    expect((await cli(['build', 'repeated.txt', '-o', 'x.cuckoo', '--kind', 'cuckoo', '--unique'])).code).toBe(0);
    const help = (await cli(['build', '--help'])).stdout;
    expect(help).toMatch(/--unique/);
    expect(help).toMatch(/false negatives/);
    expect((await cli(['build', 'dups.txt', '-o', 'x', '--unique'])).stderr).toMatch(/--unique applies to --kind cuckoo and redis-cuckoo only/);
    expect((await cli(['build', 'dups.txt', '-o', 'x', '--kind', 'cuckoo', '--unique', '--multiset'])).stderr).toMatch(/--unique and --multiset/);
  }, 60_000);
});

// Issue 34 item 6: a filter can come from stdin ('-', /dev/stdin, a pipe) in check, info and
// merge; every command has --json: one JSON document on stdout.
describe('filters from stdin, and --json', () => {
  const oneLine = (r) => {
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^bloomcuckoo: [^\n]+\n$/);
    return r.stderr;
  };
  beforeAll(async () => {
    writeFileSync(p('fruit.txt'), 'apple\nbanana\n');
    writeFileSync(p('more.txt'), 'cherry\n');
    for (const [txt, out] of [['fruit.txt', 'fruit.bloom'], ['more.txt', 'more.bloom']]) {
      expect((await cli(['build', txt, '-o', out, '--capacity', '100', '-q'])).code).toBe(0);
    }
  });

  test('build -o - | check -, and info - / /dev/stdin / a process substitution', async () => {
    const piped = await sh('BC build fruit.txt -o - -q | BC check - apple banana nope', { timeout: 20_000 });
    expect(piped).toMatchObject({ code: 1, stdout: 'apple\tmaybe\nbanana\tmaybe\nnope\tno\n', stderr: '' });
    const bytes = readFileSync(p('fruit.bloom'));
    for (const file of ['-', '/dev/stdin']) {
      const i = await cli(['info', file], { input: bytes, timeout: 20_000 });
      expect(i).toMatchObject({ code: 0, stderr: '' });
      expect(i.stdout).toMatch(new RegExp(`^file +${file}\n`));
      expect(i.stdout).toMatch(/^size +2 keys$/m);
      expect(i.stdout).toMatch(new RegExp(`^bytes .*, ${bytes.length} in the file$`, 'm'));
    }
    const sub = await sh('BC info --json <(cat fruit.bloom)', { timeout: 20_000 });
    expect(sub.code).toBe(0);
    expect(JSON.parse(sub.stdout)).toMatchObject({ kind: 'bloom', size: 2, fileBytes: bytes.length });
  }, 60_000);

  test('merge takes - as one input', async () => {
    const m = await cli(['merge', '-', 'more.bloom', '-o', 'merged.bloom'], { input: readFileSync(p('fruit.bloom')), timeout: 20_000 });
    expect(m).toMatchObject({ code: 0, stderr: '' });
    const c = await cli(['check', 'merged.bloom', 'apple', 'banana', 'cherry']);
    expect(c).toMatchObject({ code: 0, stdout: 'apple\tmaybe\nbanana\tmaybe\ncherry\tmaybe\n' });
  });

  test('stdin read twice, or not a filter: one line, exit 2', async () => {
    const bytes = readFileSync(p('fruit.bloom'));
    expect(oneLine(await cli(['check', '-', '--input', '-'], { input: bytes }))).toMatch(/stdin can be read only once/);
    expect(oneLine(await cli(['merge', '-', '-', '-o', 'x.bloom'], { input: bytes }))).toMatch(/stdin can be read only once/);
    expect(oneLine(await cli(['check', '/dev/stdin', '--input', '-'], { input: bytes }))).toMatch(/stdin can be read only once/);
    expect(oneLine(await cli(['info', '-'], { input: 'hello\n' }))).toMatch(/^bloomcuckoo: '-' \(stdin\) is not a valid bloomcuckoo filter \(CORRUPT_DATA/);
    expect(oneLine(await cli(['info', '-'], { input: '' }))).toMatch(/is not a valid bloomcuckoo filter \(CORRUPT_DATA/);
    expect(oneLine(await cli(['info', '-'], { input: bytes.subarray(0, bytes.length - 3) }))).toMatch(/CORRUPT_DATA/);
  });

  test('a filter on stdin is read only as far as its frame says: endless or oversized input is refused at once', async () => {
    const endless = (head) => {
      const zeros = Buffer.alloc(65536);
      let first = true;
      return new Readable({ read() { this.push(first ? head : zeros); first = false; } });
    };
    const frame = (bodyLength) => {
      const h = Buffer.alloc(20);
      h.write('BCFL', 0, 'latin1');
      h.writeUInt16LE(1, 4);
      h[6] = 1;
      h[7] = 1;
      h.writeBigUInt64LE(BigInt(bodyLength), 12);
      return h;
    };
    const zeros = await cli(['info', '-'], { input: endless(Buffer.alloc(0)), timeout: 15_000 });
    expect(zeros).toMatchObject({ code: 2, timedOut: false });
    expect(zeros.stderr).toMatch(/^bloomcuckoo: '-' \(stdin\) is not a valid bloomcuckoo filter \(CORRUPT_DATA[^\n]*\n$/);
    const huge = await cli(['info', '-'], { input: endless(frame(2 ** 40)), timeout: 15_000 });
    expect(huge).toMatchObject({ code: 2, timedOut: false });
    expect(huge.stderr).toMatch(/^bloomcuckoo: '-' \(stdin\) is not a bloomcuckoo filter this version can hold: its frame claims 1,099,511,627,800 bytes, more than 4 GiB[^\n]*\n$/);
    const longer = await cli(['check', '-', 'k'], { input: endless(frame(1000)), timeout: 15_000 });
    expect(longer).toMatchObject({ code: 2, timedOut: false });
    expect(longer.stderr).toMatch(/^bloomcuckoo: '-' \(stdin\) is not a valid bloomcuckoo filter \(CORRUPT_DATA[^\n]*\n$/);
  }, 60_000);

  test('--json: build, check, info, merge', async () => {
    const b = await cli(['build', 'fruit.txt', '-o', 'json.bloom', '--json', '--error-rate', '0.001']);
    expect(b).toMatchObject({ code: 0, stderr: '' });
    const built = JSON.parse(b.stdout);
    const f = lib.deserialize(readFileSync(p('json.bloom')));
    expect(built).toEqual({
      command: 'build', input: 'fruit.txt', output: 'json.bloom', kind: 'bloom', keysRead: 2, size: 2,
      byteLength: f.byteLength, fileBytes: readFileSync(p('json.bloom')).length,
      bitsPerKey: (f.byteLength * 8) / 2, estimatedFpr: f.estimatedErrorRate(), seconds: expect.any(Number),
    });
    f.free();
    expect(oneLine(await cli(['build', 'fruit.txt', '-o', '-', '--json']))).toMatch(/--json needs -o <file>/);

    const c = await cli(['check', 'json.bloom', 'apple', 'nope', '--json']);
    expect(c.code).toBe(1);
    expect(JSON.parse(c.stdout)).toEqual({
      command: 'check', file: 'json.bloom', results: [{ key: 'apple', maybe: true }, { key: 'nope', maybe: false }],
      checked: 2, maybe: 1, absent: 1,
    });
    const streamed = await cli(['check', '-', '--input', 'fruit.txt', '--json'], { input: readFileSync(p('json.bloom')) });
    expect(streamed.code).toBe(0);
    expect(JSON.parse(streamed.stdout)).toMatchObject({ file: '-', checked: 2, maybe: 2, absent: 0 });
    writeFileSync(p('binary.txt'), Buffer.from([0x61, 0xff, 0x0a]));
    const bin = JSON.parse((await cli(['check', 'json.bloom', '--input', 'binary.txt', '--json'])).stdout);
    expect(bin.results).toEqual([{ key: 'a\ufffd', keyBase64: Buffer.from([0x61, 0xff]).toString('base64'), maybe: expect.any(Boolean) }]);

    const i = JSON.parse((await cli(['info', 'json.bloom', '--json'])).stdout);
    expect(i).toMatchObject({ command: 'info', file: 'json.bloom', kind: 'bloom', size: 2, errorRate: 0.001 });

    const m = await cli(['merge', 'fruit.bloom', 'more.bloom', '-o', 'm.bloom', '--json']);
    expect(m).toMatchObject({ code: 0, stderr: '' });
    const merged = lib.deserialize(readFileSync(p('m.bloom')));
    expect(JSON.parse(m.stdout)).toEqual({
      command: 'merge', inputs: ['fruit.bloom', 'more.bloom'], output: 'm.bloom', kind: 'bloom',
      byteLength: merged.byteLength, fileBytes: readFileSync(p('m.bloom')).length,
      estimatedSize: merged.estimatedSize(), estimatedFpr: merged.estimatedErrorRate(),
    });
    merged.free();
    expect(oneLine(await cli(['merge', 'fruit.bloom', 'more.bloom', '-o', '-', '--json']))).toMatch(/--json needs -o <file>/);
    for (const command of ['build', 'check', 'info', 'merge', 'redis']) {
      expect((await cli([command, '--help'])).stdout).toMatch(/--json/);
    }
  });
});

describe('merge', () => {
  const mergeable = ['bloom', 'blocked'];

  test.each(mergeable)('unions two %s filters of the same shape', async (kind) => {
    writeFileSync(p('a.txt'), 'apple\nbanana\n');
    writeFileSync(p('b.txt'), 'cherry\ndate\n');
    const opts = ['--kind', kind, '--capacity', '1000', '--error-rate', '0.001'];
    expect((await cli(['build', 'a.txt', '-o', `a.${kind}`, ...opts])).code).toBe(0);
    expect((await cli(['build', 'b.txt', '-o', `b.${kind}`, ...opts])).code).toBe(0);
    const m = await cli(['merge', `a.${kind}`, `b.${kind}`, '-o', `ab.${kind}`]);
    expect(m).toMatchObject({ code: 0, stderr: '' });
    const c = await cli(['check', `ab.${kind}`, 'apple', 'banana', 'cherry', 'date']);
    expect(c).toMatchObject({ code: 0, stdout: 'apple\tmaybe\nbanana\tmaybe\ncherry\tmaybe\ndate\tmaybe\n' });
    const single = await cli(['check', `a.${kind}`, 'cherry']);
    expect(single).toMatchObject({ code: 1, stdout: 'cherry\tno\n' });
  });

  test('different shapes, other kinds and too few inputs exit 2 with one line', async () => {
    writeFileSync(p('a.txt'), 'apple\nbanana\n');
    await cli(['build', 'a.txt', '-o', 'small.bloom', '--capacity', '10']);
    await cli(['build', 'a.txt', '-o', 'big.bloom', '--capacity', '100000']);
    const shape = await cli(['merge', 'small.bloom', 'big.bloom', '-o', 'x.bloom']);
    expect(shape.code).toBe(2);
    expect(shape.stderr).toMatch(/^bloomcuckoo: merge: 'big.bloom' \(.*bits=.*\) cannot be merged with 'small.bloom' .*same shape and seed\n$/);
    const seed = await cli(['build', 'a.txt', '-o', 'seeded.bloom', '--capacity', '10', '--seed', '7']);
    expect(seed.code).toBe(0);
    expect((await cli(['merge', 'small.bloom', 'seeded.bloom', '-o', 'x.bloom'])).code).toBe(2);
    expect((await cli(['merge', 'small.bloom', '-o', 'x.bloom'])).code).toBe(2);
    expect((await cli(['merge', 'small.bloom', 'small.bloom'])).stderr).toMatch(/-o <file> is required/);
    await cli(['build', 'a.txt', '-o', 'a.cuckoo', '--kind', 'cuckoo']);
    const other = await cli(['merge', 'a.cuckoo', 'a.cuckoo', '-o', 'x']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/is a cuckoo filter; only bloom and blocked filters can be merged/);
  });
});

describe('errors: one line on stderr, exit 2', () => {
  const oneLine = (r) => {
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^bloomcuckoo: [^\n]+\n$/);
    expect(r.stdout).toBe('');
    return r.stderr;
  };

  beforeAll(() => cli(['build', 'keys.txt', '-o', 'good.bloom', '-q']));

  test('missing files', async () => {
    expect(oneLine(await cli(['build', 'nope.txt', '-o', 'x']))).toMatch(/cannot read input 'nope.txt': no such file/);
    expect(oneLine(await cli(['check', 'nope.bf', 'k']))).toMatch(/cannot read filter 'nope.bf': no such file/);
    expect(oneLine(await cli(['info', 'nope.bf']))).toMatch(/cannot read filter 'nope.bf'/);
    expect(oneLine(await cli(['check', 'good.bloom', '--input', 'nope.txt']))).toMatch(/cannot read input 'nope.txt'/);
    expect(oneLine(await cli(['info', '.']))).toMatch(/is a directory/);
  });

  test('corrupt, truncated and foreign filter files', async () => {
    const good = readFileSync(p('good.bloom'));
    const flipped = Buffer.from(good);
    flipped[flipped.length >> 1] ^= 0xff;
    writeFileSync(p('flipped.bloom'), flipped);
    writeFileSync(p('truncated.bloom'), good.subarray(0, good.length - 7));
    writeFileSync(p('text.bloom'), 'hello world\n');
    writeFileSync(p('empty.bloom'), '');
    for (const f of ['flipped.bloom', 'truncated.bloom', 'text.bloom', 'empty.bloom']) {
      expect(oneLine(await cli(['info', f]))).toMatch(new RegExp(`'${f}' is not a valid bloomcuckoo filter \\(CORRUPT_DATA`));
      expect((await cli(['check', f, 'k'])).code).toBe(2);
    }
  });

  test('bad options and usage', async () => {
    expect(oneLine(await cli(['build', 'keys.txt', '-o', 'x', '--frobnicate']))).toMatch(/build: unknown option --frobnicate/);
    const unknown = 'no-such-kind'; // a name js/shared/kind-table.js will never have
    expect(KINDS.map(([, name]) => name)).not.toContain(unknown);
    expect(oneLine(await cli(['build', 'keys.txt', '-o', 'x', '--kind', unknown]))).toMatch(/unknown --kind 'no-such-kind'/);
    expect(oneLine(await cli(['build', 'keys.txt', '-o', 'x', '--capacity', 'lots']))).toMatch(/--capacity must be a positive integer, got 'lots'/);
    expect(oneLine(await cli(['build', 'keys.txt', '-o', 'x', '--capacity', '0']))).toMatch(/--capacity must be a positive integer/);
    expect(oneLine(await cli(['build', 'keys.txt', '-o', 'x', '--error-rate', '1.5']))).toMatch(/--error-rate must be a number between 0 and 1/);
    expect(oneLine(await cli(['build', 'keys.txt', '-o', 'x', '--bucket-size', '4']))).toMatch(/--bucket-size does not apply to --kind bloom/);
    expect(oneLine(await cli(['build', 'keys.txt', '-o', 'x', '--bits', '1000', '--capacity', '10']))).toMatch(/not both/);
    expect(oneLine(await cli(['build', 'keys.txt']))).toMatch(/-o <file> is required/);
    expect(oneLine(await cli(['build', 'keys.txt', '-o']))).toMatch(/option --output needs a value/);
    expect(oneLine(await cli(['build', '-o', 'x']))).toMatch(/exactly one input/);
    expect(oneLine(await cli(['build', '-', '-o', 'x'], { input: 'a\n' }))).toMatch(/--capacity is required when reading stdin/);
    expect(oneLine(await cli(['build', 'keys.txt', '-o', 'x', '--seed', '-1']))).toMatch(/seed/);
    expect(oneLine(await cli(['build', 'keys.txt', '-o', join('no-such-dir', 'x')]))).toMatch(/cannot write/);
    expect(oneLine(await cli(['check', 'good.bloom']))).toMatch(/give keys to check, or --input/);
    expect(oneLine(await cli(['frobnicate']))).toMatch(/unknown command 'frobnicate'/);
    expect(oneLine(await cli(['build', 'keys.txt', '-o', 'x', '--kind', 'cuckoo', '--bucket-size', '3'])))
      .toMatch(/bucketSize must be 1, 2, 4 or 8, got 3/);
    expect(oneLine(await cli(['build', 'keys.txt', '-o', 'x', '--kind', 'fuse', '--capacity', '9']))).toMatch(/--capacity does not apply to --kind fuse/);
  });

  test('a filter that fills up says so', async () => {
    const scalable = await cli(['build', 'keys.txt', '-o', 'x', '--kind', 'scalable', '--capacity', '100', '--non-scaling', '-q']);
    expect(oneLine(scalable)).toMatch(/scalable filter is full after .* keys; raise --capacity/);
    const cuckoo = await cli(['build', 'keys.txt', '-o', 'x', '--kind', 'cuckoo', '--capacity', '100', '--expansion', '0', '-q']);
    expect(oneLine(cuckoo)).toMatch(/cuckoo filter is full after .* keys; raise --capacity or --expansion/);
  });
});

describe('memory: said before the build, refused when it cannot fit', () => {
  let memory;
  beforeAll(async () => { memory = await import('../../bin/lib/memory.js'); });

  test('the limit is the maximum memory dist/wasm/bloomcuckoo.wasm declares', () => {
    expect(memory.WASM_MEMORY_LIMIT).toBe(wasmMaximumMemory(readFileSync(new URL('../../dist/wasm/bloomcuckoo.wasm', import.meta.url))));
    expect(memory.LIMIT_TEXT).toBe(`${memory.WASM_MEMORY_LIMIT / 2 ** 30} GiB`);
  });

  test.each(ALL)('--kind %s says the filter memory before it starts, as the filter it then makes', async (kind) => {
    const r = await cli(['build', 'keys.txt', '-o', `mem.${kind}`, '--kind', kind, '--progress']);
    expect(r.code).toBe(0);
    const f = lib.deserialize(readFileSync(p(`mem.${kind}`)));
    const line = r.stderr.split(/[\r\n]/).find((l) => l.startsWith('memory: '));
    const options = kind === 'fuse' ? {} : { capacity: KEYS.length, ...(kind === 'redis-cuckoo' ? {} : { errorRate: 0.01 }) };
    expect(line).toBe(memory.memoryNote(memory.buildMemory(kind, options, KEYS.length)));
    expect(line).toContain(`about ${bytesText(f.byteLength)} of filter memory`);
    expect(r.stderr.indexOf(line)).toBeLessThan(r.stderr.indexOf('[')); // before the first progress bar
    f.free();
  });

  test('the estimates are the sizes the library allocates', () => {
    for (const kind of ALL.filter((k) => k !== 'fuse')) { // made from options (fuse: below, from keys)
      for (const capacity of [100_000, 1_000_000, 3_000_000]) {
        for (const errorRate of kind === 'redis-cuckoo' ? [undefined] : [0.01, 0.001]) {
          for (const extra of kind === 'cuckoo' ? [{}, { bucketSize: 2 }, { bucketSize: 8, fingerprintBits: 16 }] : [{}]) {
            const options = { capacity, ...(errorRate ? { errorRate } : {}), ...extra };
            const f = new CLASS_OF[kind](options);
            expect([kind, options, memory.buildMemory(kind, options).filter]).toEqual([kind, options, f.byteLength]);
            f.free();
          }
        }
      }
    }
    for (const n of [1000, 50_000, 300_000]) {
      for (const fingerprintBits of [8, 16]) {
        const f = lib.BinaryFuseFilter.build(Array.from({ length: n }, (_, i) => `k${i}`), { fingerprintBits });
        expect([n, fingerprintBits, memory.buildMemory('fuse', { fingerprintBits }, n).filter]).toEqual([n, fingerprintBits, f.byteLength]);
        f.free();
      }
    }
  });

  const endless = () => new Readable({ read() {} }); // stdin that never ends: a build that read it would hang
  test.each([
    ['bloom', ['--capacity', '1e10']],
    ['blocked', ['--blocks', '200000000']],
    ['counting', ['--capacity', '1e9', '--error-rate', '0.001']],
    ['scalable', ['--capacity', '4e9']],
    ['cuckoo', ['--capacity', '4e9']],
    ['redis-bloom', ['--capacity', '4e9']],
    ['redis-cuckoo', ['--capacity', '3e9']],
  ])('--kind %s %j is refused before reading stdin, with what it needs', async (kind, opts) => {
    const r = await cli(['build', '-', '-o', `huge.${kind}`, '--kind', kind, ...opts], { input: endless() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^bloomcuckoo: build: a ${kind} filter (for [\\d,]+ keys )?needs about [\\d.]+ GiB of wasm memory `
      + `\\([\\d.]+ GiB of filter \\+ [\\d.]+ [KMG]iB while building\\), more than the ${memory.LIMIT_TEXT} a wasm module can have; [^\\n]+\\n$`));
    expect(() => readFileSync(p(`huge.${kind}`))).toThrow();
  }, 30000);

  test('fuse: from a file, the build and its hashes count; from stdin, it says how many keys fit', async () => {
    // from a file the keys are counted first and the hashes reserved: 10^8 keys fit, not 1.5 * 10^8
    const e8 = memory.buildMemory('fuse', {}, 1e8);
    expect(e8.building).toBeGreaterThan(20 * e8.filter);         // building dwarfs the filter
    expect(memory.fits(e8)).toBe(true);
    const big = memory.buildMemory('fuse', {}, 1.5e8);
    expect(memory.fits(big)).toBe(false);
    expect(memory.refusal(big)).toMatch(/^a fuse filter for 150,000,000 keys needs about [\d.]+ GiB of wasm memory .*; at most [\d,]+ keys fit: split the keys/);
    const fromFile = memory.fuseMaxKeys();
    expect(memory.fits(memory.buildMemory('fuse', {}, fromFile))).toBe(true);
    expect(memory.fits(memory.buildMemory('fuse', {}, fromFile + 1))).toBe(false);
    expect(memory.fuseMaxKeys(16)).toBeLessThan(fromFile);
    // from stdin the hashes' buffer doubles as keys arrive: fewer fit
    const stdin = { reserved: false };
    const most = memory.fuseMaxKeys(8, false);
    expect(most).toBeLessThan(fromFile);
    expect(memory.fits(memory.buildMemory('fuse', {}, most, stdin))).toBe(true);
    expect(memory.fits(memory.buildMemory('fuse', {}, most + 1, stdin))).toBe(false);
    expect(memory.fits(memory.buildMemory('fuse', {}, 1e8, stdin))).toBe(false);
    const r = await cli(['build', '-', '-o', 'stdin.fuse', '--kind', 'fuse'], { input: 'a\nb\nc\n' });
    expect(r.code).toBe(0);
    const [first, second] = r.stderr.trimEnd().split('\n');
    expect(first).toMatch(new RegExp(`^memory: a fuse filter is built from all keys at once; from stdin .* at most ${most.toLocaleString('en-US')} keys fit in the ${memory.LIMIT_TEXT} wasm memory limit$`));
    expect(second).toMatch(/^memory: a fuse filter for 3 keys: /);
  });
});

/** Bytes as the CLI prints them (bin/lib/common.js `bytes`). */
function bytesText(n) {
  if (n < 1024) return `${n} B`;
  let v = n / 1024;
  let unit = 'KiB';
  for (const next of ['MiB', 'GiB']) { if (v < 1024) break; v /= 1024; unit = next; }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${unit}`;
}

/** The maximum of the memory a wasm binary defines or imports, in bytes (null when it has none). */
function wasmMaximumMemory(wasm) {
  let pos = 8;
  const leb = () => {
    let result = 0;
    let shift = 0;
    let byte;
    do {
      byte = wasm[pos++];
      result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return result;
  };
  const limits = () => {
    const flags = leb();
    leb();
    return flags & 1 ? leb() * 65536 : null;
  };
  while (pos < wasm.length) {
    const id = wasm[pos++];
    const end = leb() + pos;
    if (id === 5 && leb() > 0) return limits();                  // memory section
    if (id === 2) {                                                // import section
      for (let i = leb(); i > 0; i--) {
        for (let k = 0; k < 2; k++) { const len = leb(); pos += len; }   // module and field names
        const kind = wasm[pos++];
        if (kind === 2) return limits();
        if (kind === 0) leb();
        else if (kind === 1) { pos++; limits(); } else if (kind === 3) pos += 2;
        else break;
      }
    }
    pos = end;
  }
  return null;
}

describe('help, version, quiet output', () => {
  test.each(['build', 'check', 'info', 'merge'])('%s --help prints its usage and exits 0', async (command) => {
    for (const args of [[command, '--help'], [command, '-h'], ['help', command]]) {
      const r = await cli(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: bloomcuckoo ${command} `));
      expect(r.stderr).toBe('');
    }
  });

  test('bloomcuckoo --help lists the commands; no command prints it and exits 2', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['build', 'check', 'info', 'merge']) expect(r.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect((await cli([])).code).toBe(2);
    const v = await cli(['--version']);
    expect(v.stdout.trim()).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url))).version);
  });

  test('stderr is quiet when not a terminal; --progress shows rate, count and ETA', async () => {
    const quiet = await cli(['build', 'keys.txt', '-o', 'q.bloom']);
    expect(quiet).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const loud = await cli(['build', 'keys.txt', '-o', 'q.bloom', '--progress']);
    expect(loud.code).toBe(0);
    expect(loud.stderr).toMatch(/capacity: 5,000 \(the number of keys in keys.txt\)/);
    expect(loud.stderr).toMatch(/\[#+\] +100\.0% {2}5,000 keys {2}.*keys\/s {2}ETA 0:00/);
    expect(loud.stderr).toMatch(/bloom: 5,000 keys read in .* → q.bloom: 5,000 held, .* bits\/key, est\. FPR/);
  });

  test('--error-rate accepts percentages; --seed accepts hex', async () => {
    expect((await cli(['build', 'keys.txt', '-o', 'pct.bloom', '--error-rate', '0.1%', '--seed', '0x2a'])).code).toBe(0);
    const json = JSON.parse((await cli(['info', 'pct.bloom', '--json'])).stdout);
    expect(json).toMatchObject({ errorRate: 0.001, seed: 42 });
  });

  test('check keys after -- may start with a dash; tabs and unicode pass through', async () => {
    writeFileSync(p('odd.txt'), '-dash\nünïcödé\n');
    await cli(['build', 'odd.txt', '-o', 'odd.bloom', '--capacity', '100']);
    const r = await cli(['check', 'odd.bloom', '--', '-dash', 'ünïcödé']);
    expect(r).toMatchObject({ code: 0, stdout: '-dash\tmaybe\nünïcödé\tmaybe\n' });
  });
});

test('streams: 1.5 million stdin lines through a 40 MB JS heap', async () => {
  const n = 1_500_000;
  function* lines() {
    for (let i = 0; i < n; i += 10_000) {
      let s = '';
      for (let j = i; j < i + 10_000; j++) s += `https://example.com/some/long/path/item-${j}\n`;
      yield s;
    }
  }
  const r = await cli(['build', '-', '-o', 'stream.bloom', '--capacity', String(n)],
    { input: Readable.from(lines()), nodeArgs: ['--max-old-space-size=40'] });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0); // ~65 MB of input: holding the lines would exceed the heap limit
  const f = lib.BloomFilter.deserialize(readFileSync(p('stream.bloom')));
  expect(f.size).toBe(n);
  expect(f.has(`https://example.com/some/long/path/item-${n - 1}`)).toBe(true);
  f.free();
});

// ---- redis pull / push ------------------------------------------------------------------------

describe('redis pull and push', () => {
  let rb = null;
  const url = () => `redis://127.0.0.1:${rb.port}`;
  const cmd = (args) => rb.client.sendCommand(args);
  beforeAll(async () => {
    const { startRedisBloom, skipReason } = await import('../redis/server.mjs');
    rb = await startRedisBloom();
    if (!rb) console.log(`SKIP live CLI redis tests: ${skipReason() ?? 'no RedisBloom module found'}`);
  }, 30000);
  afterAll(async () => { if (rb) await rb.stop(); });
  const live = (name, fn) => test(name, async () => { if (rb) await fn(); }, 60000);

  test('usage errors come before any connection, as one line with exit 2', async () => {
    expect(await cli(['redis'])).toMatchObject({ code: 2, stdout: expect.stringMatching(/^Usage: bloomcuckoo redis pull/) });
    expect((await cli(['redis', '--help'])).code).toBe(0);
    expect(await cli(['redis', 'fetch'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown subcommand 'fetch'/) });
    expect(await cli(['redis', 'pull', 'http://x', 'k', '-o', 'x'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/not a redis:\/\/ or rediss:\/\/ URL/) });
    expect(await cli(['redis', 'pull', 'redis://127.0.0.1:1', 'k'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/-o <file> is required/) });
    expect(await cli(['redis', 'pull', 'redis://127.0.0.1:1', 'k', '-o', '-', '--json'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--json needs -o <file>/) });
    await cli(['build', 'few.txt', '-o', 'few.bloom', '-q']);
    expect(await cli(['redis', 'push', 'few.bloom', 'redis://127.0.0.1:1', 'k'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/holds a BloomFilter; only redis-bloom and redis-cuckoo/) });
    const down = await cli(['redis', 'pull', 'redis://127.0.0.1:1', 'k', '-o', 'x']);
    expect(down).toMatchObject({ code: 2, stderr: expect.stringMatching(/^bloomcuckoo: redis: cannot connect to redis:\/\/127\.0\.0\.1:1/) });
    expect(down.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  live('pull a BF and a CF: the files answer every key as BF.MEXISTS / CF.MEXISTS', async () => {
    await cmd(['BF.RESERVE', 'pull:bf', '0.01', '1000', 'EXPANSION', '2']);
    await cmd(['CF.RESERVE', 'pull:cf', '1000', 'BUCKETSIZE', '3']);
    for (let i = 0; i < KEYS.length; i += 500) {
      await cmd(['BF.MADD', 'pull:bf', ...KEYS.slice(i, i + 500)]);
      await cmd(['CF.INSERT', 'pull:cf', 'ITEMS', ...KEYS.slice(i, i + 500)]);
    }
    const probes = [...KEYS.slice(0, 500), ...ABSENT];
    for (const [key, prefix, Cls] of [['pull:bf', 'BF', 'RedisBloomFilter'], ['pull:cf', 'CF', 'RedisCuckooFilter']]) {
      const r = await cli(['redis', 'pull', url(), key, '-o', `${key}.filter`]);
      expect(r.code).toBe(0);
      const f = lib.deserialize(readFileSync(p(`${key}.filter`)));
      expect(f.constructor.name).toBe(Cls);
      const items = (await cmd([`${prefix}.INFO`, key]))['Number of items inserted'];
      expect(f.size).toBe(items);   // BF: keys that looked present were not added, on the server too
      expect(r.stderr).toMatch(new RegExp(`^pulled '${key}' \\(${Cls}, ${items.toLocaleString('en-US')} items`));
      const server = (await cmd([`${prefix}.MEXISTS`, key, ...probes])).map((v) => (Number(v) ? 1 : 0)).join('');
      expect(Array.from(f.hasAll(probes)).join('')).toBe(server);
      const pulledKind = f.info().kind;
      f.free();
      const c = await cli(['check', `${key}.filter`, 'key-1', 'absent-0']);
      expect(c.stdout.split('\n')[0]).toBe('key-1\tmaybe');
      const j = await cli(['redis', 'pull', url(), key, '-o', `${key}.json-filter`, '--json', '-q']);
      expect(j).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(j.stdout)).toEqual({ command: 'redis pull', key, output: `${key}.json-filter`, class: Cls,
        kind: pulledKind, items, byteLength: expect.any(Number), fileBytes: readFileSync(p(`${key}.filter`)).length,
        seconds: expect.any(Number) });
    }
    expect(await cli(['redis', 'pull', url(), 'no-such-key', '-o', 'x'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/no key 'no-such-key'/) });
    await cmd(['SET', 'a-string', 'x']);
    expect(await cli(['redis', 'pull', url(), 'a-string', '-o', 'x'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/holds a string, not a RedisBloom BF or CF filter/) });
  });

  live('build --kind redis-bloom / redis-cuckoo, push, and the server answers and counts as the file', async () => {
    for (const [kind, prefix, extra] of [['redis-bloom', 'BF', ['--error-rate', '0.001']], ['redis-cuckoo', 'CF', ['--bucket-size', '4']]]) {
      const file = `push.${kind}`;
      expect((await cli(['build', 'keys.txt', '-o', file, '--kind', kind, '-q', ...extra])).code).toBe(0);
      const key = `push:${kind}`;
      const r = await cli(['redis', 'push', file, url(), key]);
      expect(r).toMatchObject({ code: 0, stderr: expect.stringMatching(new RegExp(`^pushed ${file.replace('.', '\\.')}`)) });
      const info = await cmd([`${prefix}.INFO`, key]);
      const probes = [...KEYS, ...ABSENT];
      const server = (await cmd([`${prefix}.MEXISTS`, key, ...probes])).map((v) => (Number(v) ? 1 : 0)).join('');
      const f = lib.deserialize(readFileSync(p(file)));
      expect(info['Number of items inserted']).toBe(f.size);
      if (kind === 'redis-cuckoo') expect(f.size).toBe(KEYS.length);   // every line added (CF.ADD, a multiset)
      else expect(f.size).toBeGreaterThan(KEYS.length * 0.95);          // BF: a maybe-present key is not counted again
      expect(Array.from(f.hasAll(probes)).join('')).toBe(server);
      expect(server.slice(0, KEYS.length)).toBe('1'.repeat(KEYS.length));
      f.free();
      // an existing key is kept unless --replace; a failed push leaves no temporary key behind
      const again = await cli(['redis', 'push', file, url(), key]);
      expect(again).toMatchObject({ code: 2, stderr: expect.stringMatching(/exists; pass --replace/) });
      const replaced = await cli(['redis', 'push', file, url(), key, '--replace', '-q', '--json']);
      expect(replaced).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(replaced.stdout)).toEqual({ command: 'redis push', file, key, class: CLASS_OF[kind].name, kind,
        items: info['Number of items inserted'], bytesSent: expect.any(Number), seconds: expect.any(Number) });
      const keys = await cmd(['KEYS', '*bloomcuckoo-push*']);
      expect(keys).toEqual([]);
    }
  });
});

// Issue 14: big filters stream to and from files (serializeTo / deserializeFrom over the file
// descriptor), so the process holds the filter once, never the filter plus a whole-file buffer.
test('a 1 GiB filter file is written and read back holding the filter once (peak RSS well under 2 GiB)', async () => {
  const GiB = 2 ** 30;
  const rss = ['--import', `data:text/javascript,process.on('exit', () => process.stderr.write('maxrss ' + process.resourceUsage().maxRSS * 1024 + '\\n'))`];
  const peak = (r) => Number(/maxrss (\d+)/.exec(r.stderr)[1]);
  const built = await cli(['build', 'few.txt', '-o', 'big.bf', '--kind', 'blocked', '--blocks', String(GiB / 32)], { nodeArgs: rss });
  expect(built.code).toBe(0);
  const size = (await import('node:fs')).statSync(p('big.bf')).size;
  expect(size).toBe(20 + 32 + GiB + 4);
  expect(peak(built)).toBeLessThan(1.5 * GiB);            // a second copy would be > 2 GiB
  const checked = await cli(['check', 'big.bf', 'alpha', 'nope'], { nodeArgs: rss });
  expect(checked.stdout).toMatch(/^alpha\tmaybe\nnope\tno\n$/);
  expect(peak(checked)).toBeLessThan(1.5 * GiB);
  rmSync(p('big.bf'));
}, 120_000);
