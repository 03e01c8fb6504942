// Every fenced js/ts block of README.md and docs/*.md, as a reader copies it. A block runs as an
// ES module file (Node, and Bun and Deno where given), and must exit 0; each `console.log(...)`
// line of it whose comment shows a result must print that result (the comment starts with the
// printed line, then ends or goes on after ':' or a space). A block that cannot run says why in
// its info string, ```js norun="needs a browser", and is type-checked instead (tsc --strict,
// checkJs) against the package's types; names it uses without defining them are declared in
// given="urls: string[]; redis" (an entry without a type is `any`); the Redis clients' modules are `any`.
// deno="--allow-write" gives Deno a block's further permissions (every block gets --allow-read).
// A block marked norun="needs a Redis server with RedisBloom" is also run, against a live
// RedisBloom with each Redis client (clients="node-redis 5, node-redis 6" narrows them): redis-user.mjs.
// tests/pack/run-pack.mjs runs them against the installed tarball; `node tests/pack/doc-blocks.mjs`
// runs them against this repository's built package (its name resolves to itself), for quick checks.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The documents whose blocks are checked: README.md and docs/*.md. */
export function docFiles() {
  return ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

/** Every fenced js/ts block: { file, line, lang, attrs, code }. Other languages (sh, ...) are not code to run. */
export function docBlocks() {
  const blocks = [];
  for (const file of docFiles()) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const open = /^```(\S*)\s*(.*)$/.exec(lines[i]);
      if (!open) continue;
      const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
      if (end < 0) throw new Error(`${file}:${i + 1}: a fence that is never closed`);
      const lang = open[1];
      if (['js', 'javascript', 'ts', 'typescript', 'mjs'].includes(lang)) {
        const attrs = Object.fromEntries([...open[2].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
        const unknown = Object.keys(attrs).filter((k) => !['norun', 'given', 'deno', 'clients'].includes(k));
        if (unknown.length) throw new Error(`${file}:${i + 1}: unknown attribute ${unknown.join(', ')} (norun, given, deno, clients)`);
        blocks.push({ file, line: i + 1, lang: lang.startsWith('t') ? 'ts' : 'js', attrs, code: lines.slice(i + 1, end).join('\n') });
      }
      i = end;
    }
  }
  return blocks;
}

const nameOf = (b) => `${b.file.replace(/[/.]/g, '-')}-${b.line}`;
const where = (b) => `${b.file}:${b.line}`;

/** The results a block's console.log lines say they print, in order. */
export function shownResults(code) {
  return code.split('\n').filter((l) => /^\s*console\.log\(/.test(l) && /\/\/\s*\S/.test(l))
    .map((l) => l.slice(l.lastIndexOf('//') + 2).trim());
}

/** Checks `stdout` against the results `code` shows; returns a list of mismatches. */
export function compareShown(code, stdout) {
  const shown = shownResults(code);
  const printed = stdout.replace(/\n$/, '').split('\n');
  const bad = [];
  if (shown.length && printed.length !== shown.length) bad.push(`prints ${printed.length} lines, shows ${shown.length}`);
  shown.forEach((comment, i) => {
    const p = printed[i];
    const ok = p !== undefined && p !== '' && comment.startsWith(p) && /^($|[: ,])/.test(comment.slice(p.length));
    if (!ok) bad.push(`line ${i + 1} printed ${JSON.stringify(p)}, the comment shows ${JSON.stringify(comment)}`);
  });
  return bad;
}

/**
 * Runs or type-checks every block in `dir` (where 'bloomcuckoo' resolves). `check(name, fn)` is
 * the suite's runner; `runtimes` are [name, command, args-before-file] (Node first, whose output
 * is compared with the comments); `tsc` the compiler's path; `typeRoots` what the typed
 * blocks need besides the package (@types/node).
 */
export async function checkDocBlocks({ check, dir, cwd = dir, runtimes, tsc, typeRoots, sh }) {
  const blocks = docBlocks();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const b of blocks) {
    if (b.attrs.norun !== undefined) {
      await check(`docs: ${where(b)} (${b.attrs.norun || 'no reason given'}) type-checks against the package's types`, () => {
        if (!b.attrs.norun.trim()) throw new Error(`${where(b)}: norun needs a reason: norun="needs a browser"`);
        const sub = join(dir, nameOf(b));
        rmSync(sub, { recursive: true, force: true });
        mkdirSync(sub, { recursive: true });
        const file = `block.${b.lang === 'ts' ? 'mts' : 'mjs'}`;
        writeFileSync(join(sub, file), `${b.code}\n`);
        const given = (b.attrs.given ?? '').split(';').map((s) => s.trim()).filter(Boolean)
          .map((g) => (g.includes(':') ? `declare const ${g};` : `declare const ${g}: any;`));
        // a global declaration file (no import or export), so the block's own imports stay its own.
        // The Redis clients are `any`: a block is checked against this package's types, not the
        // clients' (node-redis types sendCommand's reply as a union a JS reader never casts).
        writeFileSync(join(sub, 'given.d.ts'), `declare module 'redis';\ndeclare module 'ioredis';\n${given.join('\n')}\n`);
        writeFileSync(join(sub, 'tsconfig.json'), JSON.stringify({
          compilerOptions: {
            strict: true, noEmit: true, allowJs: true, checkJs: true, target: 'es2022', module: 'nodenext',
            moduleResolution: 'nodenext', lib: ['es2022', 'dom', 'esnext.disposable'], types: ['node'], typeRoots,
            skipLibCheck: true,
          },
          files: [file, 'given.d.ts'],
        }, null, 2));
        const r = sh(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: sub });
        if (r.status !== 0 || r.out.trim()) throw new Error(`${where(b)}: tsc:\n${r.out}`);
      });
      continue;
    }
    await check(`docs: ${where(b)} runs as written${runtimes.length > 1 ? ` (${runtimes.map((r) => r[0]).join(', ')})` : ''} and prints what it shows`, () => {
      if (b.attrs.given) throw new Error(`${where(b)}: a block that runs must define every name it uses (given is for norun blocks)`);
      if (b.lang === 'ts') throw new Error(`${where(b)}: a ts block needs norun (it is type-checked)`);
      const file = join(dir, `${nameOf(b)}.mjs`);
      writeFileSync(file, `${b.code}\n`);
      let first = null;
      for (const [name, cmd, args] of runtimes) {
        // deno="--allow-write": what a block needs of Deno beyond the --allow-read every block gets
        const extra = name === 'Deno' && b.attrs.deno ? b.attrs.deno.split(' ') : [];
        const r = sh(cmd, [...args, ...extra, relative(cwd, file)], { cwd, timeout: 120000, env: { ...process.env, NO_COLOR: '1' } });
        if (r.status !== 0) throw new Error(`${where(b)} in ${name}: exit ${r.status}${r.signal ? ` (${r.signal})` : ''}:\n${r.out}`);
        if (first === null) {
          first = r.stdout;
          const bad = compareShown(b.code, r.stdout);
          if (bad.length) throw new Error(`${where(b)} in ${name}: ${bad.join('; ')}\n${r.stdout}`);
        } else if (r.stdout !== first) {
          throw new Error(`${where(b)}: ${name} printed\n${r.stdout}\n  where ${runtimes[0][0]} printed\n${first}`);
        }
      }
    });
  }
  return blocks;
}

// Standalone: against this repository (the package's name resolves to the repository itself).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { makeRunner } = await import('../e2e/browser.mjs');
  const t = makeRunner();
  const dir = join(root, 'build/doc-blocks');
  const sh = (cmd, args, opts = {}) => {
    const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26, ...opts });
    if (r.error) throw r.error;
    return { status: r.status, signal: r.signal, stdout: r.stdout ?? '', out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
  };
  await checkDocBlocks({
    check: t.check, dir, runtimes: [['Node', process.execPath, []]], sh,
    tsc: join(root, 'node_modules/typescript/bin/tsc'), typeRoots: [join(root, 'node_modules/@types')],
  });
  process.exitCode = t.summary() ? 1 : 0;
}
