// docs/API.md covers the whole public surface: every name the two entries' declaration files
// export (index.d.ts, redis-entry.d.ts, check.d.ts), and every public member of every exported class and interface, is named in API.md in
// backticks (`name`, `name(…)`, `Class.name(…)` or `.name`). A member or type added to
// js/main/index.d.ts or js/redis/index.d.ts without a word in API.md fails here, naming it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const read = (p) => readFileSync(fileURLToPath(new URL(p, import.meta.url)), 'utf8');
const api = read('../../docs/API.md');
// every identifier that appears in code in API.md: fenced blocks, then inline backtick spans
const documented = new Set();
const words = (code) => { for (const [word] of code.matchAll(/[A-Za-z_$][\w$]*/g)) documented.add(word); };
const prose = api.replace(/```[^\n]*\n([\s\S]*?)```/g, (_, code) => { words(code); return ''; });
for (const [, code] of prose.matchAll(/`([^`]+)`/g)) words(code);

function surface(file) {
  const src = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
  const exported = [];
  const members = [];
  const isExported = (n) => n.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const st of src.statements) {
    if (!isExported(st)) continue;
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) exported.push(d.name.text);
      continue;
    }
    if (!st.name) continue;
    exported.push(st.name.text);
    if (ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st)) {
      for (const m of st.members) {
        const name = m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : null;
        const hidden = m.modifiers?.some((x) => [ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword].includes(x.kind));
        if (name && !name.startsWith('_') && !hidden && !ts.isConstructorDeclaration(m)) members.push(`${st.name.text}.${name}`);
      }
    }
  }
  return { exported, members };
}

describe.each(['../../js/main/index.d.ts', '../../js/redis/index.d.ts', '../../js/check/index.d.ts'])('%s', (file) => {
  const { exported, members } = surface(file);

  test('has a surface to check (the parse found it)', () => {
    expect(exported.length).toBeGreaterThan(4);
    expect(members.length).toBeGreaterThan(6);
  });

  test('every export is named in docs/API.md', () => {
    expect(exported.filter((n) => !documented.has(n))).toEqual([]);
  });

  test('every public member of an exported class or interface is named in docs/API.md', () => {
    expect(members.filter((m) => !documented.has(m.split('.')[1]))).toEqual([]);
  });
});
