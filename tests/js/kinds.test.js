// The one kind table (js/shared/kind-table.js, with its classes in js/main/kinds.js) against the C++
// table the builds generate from it (BLOOMCUCKOO_FILTER_KINDS) and against everything that lists
// kinds: a kind missing from any of them fails here.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as lib from '../../js/main/index.js';
import { KIND_TABLE } from '../../js/shared/kind-table.js';
import { KINDS } from '../../js/main/kinds.js';
import { KINDS as CLI_KINDS } from '../../bin/lib/kinds.js';
import { FILTERS } from './filters.js';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/**
 * The rows of a generated C++ kind table (bloomcuckoo/kind_table.h, BLOOMCUCKOO_FILTER_KINDS):
 * [number, name, class, hash id, enumerator].
 */
const generatedRows = (path) => [...read(path).matchAll(/X\((\d+), (k\w+), "([a-z0-9-]+)", (\w+), (\d+)\)/g)]
  .map(([, n, enumerator, name, cls, hashId]) => [Number(n), name, cls, Number(hashId), enumerator]);

test('every row of js/shared/kind-table.js has its class in js/main/classes.js', () => {
  const missing = KINDS.filter(([, , Cls]) => typeof Cls !== 'function')
    .map(([n, name]) => `kind ${n} ('${name}') names a class js/main/classes.js does not export: add its line there (export { YourFilter } from './your-file.js')`);
  expect(missing).toEqual([]);
});

// The C++ table is generated from the JS one by the builds; serialization.h lists no row itself.
// (the native build is made before the tests; the wasm and checker builds where they were made)
test.each(['build/native/generated', 'build/wasm/generated', 'build/checker'])('the C++ table the build wrote in %s is the JS table', (dir) => {
  const path = `${dir}/bloomcuckoo/kind_table.h`;
  if (dir !== 'build/native/generated' && !existsSync(new URL(`../../${path}`, import.meta.url))) return;
  const rows = generatedRows(path);
  expect(rows).toEqual(KIND_TABLE.map(([n, name, cls, hashId]) => [n, name, cls, hashId, `k${cls.replace(/Filter$/, '')}`]));
  expect(KINDS.map(([n, name, Cls]) => [n, name, Cls.name])).toEqual(KIND_TABLE.map((row) => row.slice(0, 3)));
});

test('serialization.h takes the C++ kind table from the generated header and lists no kind itself', () => {
  const h = read('cpp/include/bloomcuckoo/serialization.h');
  expect(h).toContain('#include "bloomcuckoo/kind_table.h"');
  expect(h).not.toMatch(/#define BLOOMCUCKOO_FILTER_KINDS|X\(\d+,/);
});

/** Whether `new Cls({ capacity, errorRate, seed })` makes a filter (what a kind without a CLI row is built from). */
function takesSizing(Cls) {
  try {
    new Cls({ capacity: 100, errorRate: 0.01, seed: 1 }).free();
    return true;
  } catch {
    return false;
  }
}

beforeAll(() => lib.init());

test.each(KINDS.map(([n, name, Cls]) => [name, n, Cls]))('%s: exported, in the CLI, the conformance list, the docs', (name, n, Cls) => {
  const missing = [
    lib[Cls.name] !== Cls && `export ${Cls.name} from js/main/classes.js`,
    CLI_KINDS[name]?.className !== Cls.name && `add a '${name}' row (class '${Cls.name}') to KINDS in bin/lib/kinds.js`,
    CLI_KINDS[name]?.derived && !takesSizing(Cls) && `add a '${name}' row (class '${Cls.name}') to KINDS in bin/lib/kinds.js: the CLI's default row builds it from { capacity, errorRate, seed }, which it refuses`,
    !FILTERS.some((f) => f.Cls === Cls) && `give its test file tests/kinds/${name}.mjs a conformance entry for ${Cls.name} (export const conformance; its fields: tests/js/filters.js)`,
    !read('docs/API.md').includes(Cls.name) && `document ${Cls.name} in docs/API.md`,
    !read('docs/FORMAT.md').includes(`## Body of kind ${n}:`) && `add a section '## Body of kind ${n}:' to docs/FORMAT.md`,
    !read('js/main/index.d.ts').includes(`export class ${Cls.name}`) && `declare export class ${Cls.name} in js/main/index.d.ts`,
  ].filter(Boolean);
  expect(missing).toEqual([]);
});

// What dispatches over the C++ table (the checker, the fuzz target, the kind-table, golden and
// worst-header tests) includes the classes through the umbrella header "bloomcuckoo/bloomcuckoo.h",
// which the builds generate from every header of cpp/include/bloomcuckoo/ (CMakeLists.txt,
// scripts/build-checker.mjs): a class is in it when its header is in that folder.
test('every class of the C++ table is declared by a header in cpp/include/bloomcuckoo/, which the umbrella header includes', () => {
  const dir = new URL('../../cpp/include/bloomcuckoo/', import.meta.url);
  const headers = readdirSync(dir).filter((f) => f.endsWith('.h'));
  expect(headers).not.toContain('bloomcuckoo.h');   // generated, not kept beside the headers
  const missing = KIND_TABLE.filter(([, , cls]) => !headers.some((h) => new RegExp(`^class ${cls}\\b(?!;)`, 'm').test(readFileSync(new URL(h, dir), 'utf8'))))
    .map(([n, , cls]) => `kind ${n}: no header in cpp/include/bloomcuckoo/ declares class ${cls} (put the class's header there)`);
  expect(missing).toEqual([]);
});

// The hand-written types list the kinds as unions (a .d.ts cannot compute them): the same names.
test.each([['js/main/index.d.ts', 'FilterKind']])('%s: %s is the table\'s names', (path, type) => {
  const union = read(path).match(new RegExp(`export type ${type} = ([^;]*);`))[1];
  const names = [...union.matchAll(/'([a-z-]+)'/g)].map((m) => m[1]);
  const want = KINDS.map(([, name]) => name);
  expect([...want.filter((n) => !names.includes(n)).map((n) => `add '${n}' to ${type} in ${path}`),
    ...names.filter((n) => !want.includes(n)).map((n) => `'${n}' in ${type} (${path}) is no kind of js/shared/kind-table.js`)]).toEqual([]);
});

// `bloomcuckoo build --help` names every kind in --kind and describes its flags under "Per kind:".
test('the CLI help describes every kind', async () => {
  const { HELP } = await import('../../bin/lib/help.js');
  const [options, perKind] = HELP.build.split('\nPer kind:\n');
  const kindLine = options.match(/--kind <kind>([\s\S]*?)\n {2}--/)[1];
  const missing = KINDS.flatMap(([, name]) => [
    !new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(kindLine) && `name ${name} in the --kind line of HELP.build (bin/lib/help.js)`,
    !new RegExp(`^ {2}${name} `, 'm').test(perKind ?? '') && `describe ${name}'s flags in the help of its row in bin/lib/kinds.js (HELP.build's "Per kind:")`,
  ]).filter(Boolean);
  expect(missing).toEqual([]);
});

test('the checker\'s CheckKind is the main entry\'s FilterKind, not a list of its own', () => {
  expect(read('js/check/index.d.ts')).toMatch(/^import type \{ FilterKind \} from '\.\.\/main\/index\.js';$[\s\S]*^export type CheckKind = FilterKind;$/m);
});

test('nothing lists a kind the table does not have', () => {
  expect(Object.keys(CLI_KINDS).sort()).toEqual(KINDS.map(([, name]) => name).sort());
});

// Issue 37: a ninth kind cost 31 files because the eight names stood as lists in 14 of them. Every
// list of kinds now derives from js/shared/kind-table.js (or is checked against it here); a file that
// names every kind within a dozen lines (quoted, or as object keys) is one of the tables below, or
// fails this test.
// The files that hold one row of per-kind code each (not a list: what differs per kind), each
// checked elsewhere with a message that names the missing row:
const PER_KIND = {
  'js/shared/kind-table.js': 'the JS kind table',
  'js/main/index.d.ts': 'FilterKind and each class\'s kind; checked below',
  'bin/lib/kinds.js': 'the CLI\'s flags per kind; checked above',
};
const OUT_OF_SCOPE = /^(demo\/|docs\/|tests\/fixtures\/|tests\/e2e\/|README\.md$|package-lock\.json$)/;

test('no file outside the kind tables lists every kind', () => {
  const files = execFileSync('git', ['ls-files'], { cwd: fileURLToPath(new URL('../..', import.meta.url)), encoding: 'utf8' })
    .split('\n').filter((f) => f && !OUT_OF_SCOPE.test(f) && !(f in PER_KIND) && /\.(m?js|ts|cc|h|sh)$/.test(f));
  const names = KINDS.map(([, name]) => name);
  const escape = (s) => s.replace(/[-]/g, '\\-');
  const named = names.map((name) => new RegExp(`['"\`]${escape(name)}['"\`]|(?<![\\w'"-])${escape(name)}\\s*:`));
  // a list: every name within a dozen lines (a test about one kind or two names only those)
  const lists = files.filter((f) => {
    let lines;
    try { lines = read(f).split('\n'); } catch { return false; }
    return lines.some((_, i) => named.every((re) => re.test(lines.slice(i, i + 12).join('\n'))));
  });
  expect(lists).toEqual([]);
});

// A class whose core the bindings forget: a message that names the missing step (it was
// "m[coreName] is not a constructor").
test('every core the JS classes make is bound by the wasm module, or the fix is named', async () => {
  await lib.init();
  const { requireWasm } = await import('../../js/main/loader.js');
  const m = requireWasm();
  const dir = new URL('../../js/', import.meta.url);
  const cores = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.js') && !f.includes('.min.'))
    .flatMap((f) => [...readFileSync(new URL(f, dir), 'utf8').matchAll(/'(\w+FilterCore)'/g)].map((x) => x[1]));
  expect(new Set(cores).size).toBeGreaterThanOrEqual(KINDS.length);
  const missing = [...new Set([...cores, 'QuotientFilterCore'])].filter((c) => typeof m[c] !== 'function')
    .map((c) => `the wasm module has no ${c}: declare its class's options and info values (Fields() and InfoValues(), cpp/include/bloomcuckoo/internal/declared.h: bindings/declared.cc binds it) or bind it (BindFilter<YourFilter>("${c}") in bindings/), and rebuild the wasm`);
  // the one core no class has: how the message reads when a binding is forgotten
  expect(missing).toEqual(['the wasm module has no QuotientFilterCore: declare its class\'s options and info values (Fields() and InfoValues(), cpp/include/bloomcuckoo/internal/declared.h: bindings/declared.cc binds it) or bind it (BindFilter<YourFilter>("QuotientFilterCore") in bindings/), and rebuild the wasm']);
});

// A binding that forgets a verb its class calls (init, info, a verb of its own): a message that
// names the step instead of "core.init is not a function" at the first call. The verbs a file of
// js/main/ calls on the cores it makes: its own calls (core.x(, this._core.x(, c.x(), and those
// of the helpers it uses (readInfo: info; readPart(c, 'x'); positionsOf: positions; fillMapOf:
// fillMap; extends AddableFilter: add, addBatch).
test('every verb a class calls on its core is bound by the wasm module, or the fix is named', async () => {
  await lib.init();
  const { requireWasm } = await import('../../js/main/loader.js');
  const m = requireWasm();
  const dir = new URL('../../js/main/', import.meta.url);
  const missing = [];
  let checked = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const src = readFileSync(new URL(file, dir), 'utf8');
    const cores = [...new Set([...src.matchAll(/'(\w+FilterCore)'/g)].map((x) => x[1]))].filter((c) => typeof m[c] === 'function');
    const verbs = new Set([...src.matchAll(/\b(?:core|this\._core|c)\.(\w+)\(/g)].map((x) => x[1]));
    for (const [re, implied] of [[/\breadInfo\(/, ['info']], [/\bpositionsOf\(/, ['positions']], [/\bfillMapOf\(/, ['fillMap']],
      [/\bextends AddableFilter\b/, ['add', 'addBatch']]]) if (re.test(src)) implied.forEach((v) => verbs.add(v));
    for (const [, verb] of src.matchAll(/\breadPart\(\w+, '(\w+)'/g)) verbs.add(verb);
    for (const core of cores) {
      for (const verb of verbs) {
        checked++;
        if (typeof m[core].prototype[verb] !== 'function') missing.push(`js/main/${file} calls ${verb} on ${core}, which the wasm module does not bind: add .function("${verb}", …) to its binding in bindings/ and rebuild the wasm`);
      }
    }
  }
  expect(checked).toBeGreaterThan(40);
  expect(missing).toEqual([]);
});
