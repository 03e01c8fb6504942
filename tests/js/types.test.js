// js/main/index.d.ts against the code: (1) typed examples compile with `tsc --noEmit --strict` (with
// the DOM lib, with @types/node when present, and with neither); (2) every class and member the
// declarations name exists at runtime, every public runtime member is declared, and info()
// returns exactly the declared fields. Classes not yet exported by js/main/index.js are skipped.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import * as lib from '../../js/main/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = `${root}node_modules/typescript/bin/tsc`;

function runTsc(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project], { cwd: root });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('tsc --noEmit --strict', () => {
  test('the typed example compiles (lib es2022 + dom), and misuse is rejected', async () => {
    const r = await runTsc('tests/types/tsconfig.json');
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });

  test('the declarations need neither the DOM lib nor @types/node', async () => {
    const r = await runTsc('tests/types/tsconfig.bare.json');
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });

  const hasNodeTypes = existsSync(`${root}node_modules/@types/node/package.json`);
  (hasNodeTypes ? test : test.skip)('the typed example compiles with @types/node and node16 resolution', async () => {
    const r = await runTsc('tests/types/tsconfig.node.json');
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });
});

// ---- the declarations, read with the TypeScript compiler API --------------------------------

const dts = ts.createSourceFile('index.d.ts', readFileSync(`${root}js/main/index.d.ts`, 'utf8'),
  ts.ScriptTarget.Latest, true);
const isExported = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const isStatic = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
const memberName = (node) => {
  if (!node.name) return null;
  if (ts.isComputedPropertyName(node.name)) return node.name.expression.getText(dts); // Symbol.dispose
  return node.name.text;
};

const classes = new Map();     // name → { statics:Set, members:Set, base:string|null, node }
const interfaces = new Map();  // name → { props:Set, bases:string[] }
const values = new Set();      // exported runtime names (classes, functions, consts)
for (const st of dts.statements) {
  if (ts.isClassDeclaration(st)) {
    const statics = new Set();
    const members = new Set();
    for (const m of st.members) {
      const name = memberName(m);
      if (!name || m.modifiers?.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword)) continue;
      (isStatic(m) ? statics : members).add(name);
    }
    const base = st.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0].expression.getText(dts) ?? null;
    classes.set(st.name.text, { statics, members, base, exported: isExported(st) });
    if (isExported(st)) values.add(st.name.text);
  } else if (ts.isInterfaceDeclaration(st)) {
    const props = new Set(st.members.filter(ts.isPropertySignature).map(memberName));
    const bases = st.heritageClauses?.flatMap((h) => h.types.map((t) => t.expression.getText(dts))) ?? [];
    interfaces.set(st.name.text, { props, bases });
  } else if (ts.isFunctionDeclaration(st) && isExported(st)) {
    values.add(st.name.text);
  } else if (ts.isVariableStatement(st) && isExported(st)) {
    for (const d of st.declarationList.declarations) values.add(d.name.text);
  }
}

function allMembers(name) {
  const c = classes.get(name);
  const base = c.base && classes.has(c.base) ? allMembers(c.base) : new Set();
  return new Set([...base, ...c.members]);
}
function interfaceProps(name) {
  const i = interfaces.get(name);
  return new Set([...i.bases.filter((b) => interfaces.has(b)).flatMap((b) => [...interfaceProps(b)]), ...i.props]);
}

/** Public names on a runtime prototype chain (up to Object.prototype), without `_x` internals. */
function runtimeMembers(Cls) {
  const names = new Set();
  for (let p = Cls.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const k of Reflect.ownKeys(p)) {
      // Node's util.inspect hook is a runtime nicety, not part of the typed API
      if (k === 'constructor' || k === Symbol.for('nodejs.util.inspect.custom')) continue;
      if (typeof k === 'symbol') names.add(k === Symbol.dispose ? 'Symbol.dispose' : String(k));
      else if (!k.startsWith('_')) names.add(k);
    }
  }
  return names;
}
// own and inherited (Filter.from) statics, up to Function.prototype
function runtimeStatics(Cls) {
  const names = new Set();
  for (let c = Cls; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    for (const k of Object.getOwnPropertyNames(c)) {
      if (!['length', 'name', 'prototype'].includes(k) && !k.startsWith('_')) names.add(k);
    }
  }
  return names;
}

// Small instances of each class, to compare info() with its declared interface.
const KEYS = ['a', 'b', 'c'];
const sized = (C) => new C({ capacity: 100, errorRate: 0.01 });
const cuckoo = (C) => new C({ capacity: 100 });   // a cuckoo filter's rate follows from its fingerprint
const FACTORIES = {
  BloomFilter: sized, BlockedBloomFilter: sized, CountingBloomFilter: sized, ScalableBloomFilter: sized,
  CuckooFilter: cuckoo, BinaryFuseFilter: (C) => C.build(KEYS),
  RedisBloomFilter: sized, RedisCuckooFilter: cuckoo,
};

beforeAll(() => lib.init());

test('the declarations export the documented names', () => {
  for (const name of ['init', 'getWasmModule', 'murmur3', 'deserialize', 'kindOf', 'FilterError',
    ...Object.keys(FACTORIES)]) {
    expect(values).toContain(name);
  }
});

test('every runtime export is declared', () => {
  const undeclared = Object.keys(lib).filter((k) => !values.has(k));
  expect(undeclared).toEqual([]);
});

test('every declared export that is not a filter class exists at runtime', () => {
  for (const name of values) {
    if (name in FACTORIES) continue;
    expect(lib[name]).toBeDefined();
  }
  expect(Object.keys(lib.murmur3).sort()).toEqual(['x64_128', 'x86_32']);
});

describe.each(Object.keys(FACTORIES))('%s', (name) => {
  const Cls = lib[name];

  test('js/main/index.js exports it, every declared member exists at runtime, and every public runtime member is declared', () => {
    expect(typeof Cls).toBe('function');
    const declared = allMembers(name);
    const runtime = runtimeMembers(Cls);
    expect([...declared].filter((m) => !runtime.has(m)).sort()).toEqual([]);
    expect([...runtime].filter((m) => !declared.has(m)).sort()).toEqual([]);
  });

  test('declared statics match the runtime statics', () => {
    expect([...runtimeStatics(Cls)].sort()).toEqual([...classes.get(name).statics].sort());
  });

  test('info() returns exactly the declared fields', () => {
    const f = FACTORIES[name](Cls);
    try {
      if (typeof f.addAll === 'function') f.addAll(KEYS);
      const info = f.info();
      const declared = interfaceProps(`${name}Info`);
      expect(Object.keys(info).sort()).toEqual([...declared].sort());
      expect(info.kind).toBe(lib.kindOf(f.serialize()));
      if (name === 'ScalableBloomFilter') {
        expect(Object.keys(info.layers[0]).sort()).toEqual([...interfaceProps('ScalableBloomLayerInfo')].sort());
      }
    } finally {
      f.free();
    }
  });
});
