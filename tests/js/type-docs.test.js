// Issue 23, item 3: what an editor shows on hover. For every exported class of js/main/index.d.ts,
// every member's documentation as TypeScript's language service computes it (inherited from the
// Filter interface or a base class where the member has no comment of its own): never empty,
// never a literal `{@inheritDoc …}` (tsserver does not expand that tag).
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const file = fileURLToPath(new URL('../../js/main/index.d.ts', import.meta.url));
const program = ts.createProgram([file], { strict: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.esnext.disposable.d.ts'] });
const checker = program.getTypeChecker();
const source = program.getSourceFile(file);
const moduleSymbol = checker.getSymbolAtLocation(source);
const exportedClasses = checker.getExportsOfModule(moduleSymbol).filter((s) => s.flags & ts.SymbolFlags.Class);

const docOf = (symbol) => ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();

test('the declarations export classes to check', () => {
  expect(exportedClasses.map((s) => s.name)).toEqual(expect.arrayContaining(['BloomFilter', 'CuckooFilter', 'RedisCuckooFilter']));
});

describe.each(exportedClasses.map((s) => [s.name, s]))('%s', (_name, cls) => {
  test('every member shows documentation on hover', () => {
    const instance = checker.getDeclaredTypeOfSymbol(cls);
    const statics = checker.getTypeOfSymbolAtLocation(cls, source);
    const undocumented = [];
    for (const [side, type] of [['', instance], ['static ', statics]]) {
      for (const p of checker.getPropertiesOfType(type)) {
        if (p.name === 'prototype' || p.name.startsWith('__@')) continue;
        // members that come from TypeScript's own lib (Error's message, stack, ...) are not ours
        if (!(p.declarations ?? []).some((d) => d.getSourceFile() === source)) continue;
        const doc = docOf(p);
        if (doc === '' || doc.includes('{@inheritDoc')) undocumented.push(`${side}${p.name}: ${JSON.stringify(doc.slice(0, 40))}`);
      }
    }
    expect(undocumented).toEqual([]);
  });
});

// Issue 37: a doc comment followed by another one documents nothing (TypeScript shows only the
// last one on hover): it was the stale twin of a member's comment, above the wrong member.
test.each(['js/main/index.d.ts', 'js/check/index.d.ts'])('%s: no doc comment stands above another one', (path) => {
  const text = ts.sys.readFile(fileURLToPath(new URL(`../../${path}`, import.meta.url)));
  const orphans = [...text.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*\/\*\*/g)]
    .map((m) => `line ${text.slice(0, m.index).split('\n').length}: ${m[1].trim().split('\n')[0]}`);
  expect(orphans).toEqual([]);
});
