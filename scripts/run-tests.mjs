// Runs every test suite and ends with one plain line: "N passed, N failed".
//   native ctest (Release), native ctest under ASan + UBSan (clang), Jest against the real wasm
//   build, and every further suite listed below. A suite that cannot run counts as one failure.
// Env: SKIP_ASAN=1, SKIP_E2E=1, SKIP_FUZZ=1, SKIP_PACK=1 skip those suites (for quick local runs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const results = [];

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  const out = (r.stdout || '') + (r.stderr || '');
  return { status: r.status, out };
}

function record(name, passed, failed, note = '') {
  results.push({ name, passed, failed });
  console.log(`[${name}] ${passed} passed, ${failed} failed${note ? ` (${note})` : ''}`);
}

function ctestSuite(name, buildDir, configureArgs) {
  const started = Date.now();
  if (!existsSync(`${root}/${buildDir}/CMakeCache.txt`)) {
    const c = run('cmake', ['-B', buildDir, '-S', '.', ...configureArgs]);
    if (c.status !== 0) { process.stdout.write(c.out); return record(name, 0, 1, 'configure failed'); }
  }
  const b = run('cmake', ['--build', buildDir, '-j2']);
  if (b.status !== 0) { process.stdout.write(b.out.slice(-8000)); return record(name, 0, 1, 'build failed'); }
  const t = run('ctest', ['--test-dir', buildDir, '-j2', '--output-on-failure', '--timeout', '600']);
  const m = t.out.match(/(\d+)% tests passed, (\d+) tests? failed out of (\d+)/);
  if (!m) { process.stdout.write(t.out.slice(-8000)); return record(name, 0, 1, 'no ctest summary'); }
  const failed = Number(m[2]), total = Number(m[3]);
  if (failed) process.stdout.write(t.out.slice(-20000));
  record(name, total - failed, failed, `${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function jestSuite() {
  const summary = `${root}/build/jest-summary.json`;
  rmSync(summary, { force: true });
  const t = spawnSync(process.execPath, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--ci'],
    { cwd: root, stdio: 'inherit', env: { ...process.env, JEST_SUMMARY_FILE: summary } });
  if (!existsSync(summary)) return record('jest', 0, 1, `no summary (exit ${t.status})`);
  const s = JSON.parse(readFileSync(summary, 'utf8'));
  // a test file that fails to load has no test results: count it as a failure
  record('jest', s.passed, s.failed + s.suiteErrors, s.skipped ? `${s.skipped} skipped` : '');
}

function nodeScriptSuite(name, script) {
  if (!existsSync(`${root}/${script}`)) return;
  const t = spawnSync(process.execPath, [script], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  const out = (t.stdout || '') + (t.stderr || '');
  process.stdout.write(out.split('\n').filter((l) => !/^\d+ passed, \d+ failed/.test(l)).join('\n'));
  const m = [...out.matchAll(/^(\d+) passed, (\d+) failed/gm)].pop();
  if (!m) return record(name, 0, 1, `no summary (exit ${t.status})`);
  record(name, Number(m[1]), Number(m[2]) + (t.status !== 0 && Number(m[2]) === 0 ? 1 : 0));
}

// The C++ follows .clang-format (Google style, 100 columns): one check per file.
function formatSuite() {
  const files = run('git', ['ls-files', '*.cc', '*.h']).out.split('\n').filter(Boolean);
  let failed = 0;
  for (const f of files) {
    const r = run('clang-format', ['--dry-run', '--Werror', f]);
    if (r.status !== 0) { failed++; process.stdout.write(r.out.slice(0, 2000)); }
  }
  record('clang-format', files.length - failed, failed, failed ? 'run clang-format -i on them' : '');
}

// The JS passes ESLint's recommended rules (eslint.config.js): one check per file.
function lintSuite() {
  const r = spawnSync(process.execPath, ['node_modules/eslint/bin/eslint.js', '--format', 'json', '.'],
    { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  let results;
  try {
    results = JSON.parse(r.stdout);
  } catch {
    process.stdout.write(`${r.stdout ?? ''}${r.stderr ?? ''}`.slice(0, 4000));
    return record('eslint', 0, 1, `eslint did not run (exit ${r.status})`);
  }
  const bad = results.filter((f) => f.errorCount > 0);
  for (const f of bad) {
    for (const m of f.messages) process.stdout.write(`${f.filePath}:${m.line}:${m.column} ${m.message} (${m.ruleId})\n`);
  }
  record('eslint', results.length - bad.length, bad.length, bad.length ? 'npx eslint . shows them' : '');
}

formatSuite();
lintSuite();
ctestSuite('native', 'build/native', ['-DCMAKE_BUILD_TYPE=Release']);
if (process.env.SKIP_ASAN !== '1') {
  ctestSuite('native-asan-ubsan', 'build/asan', ['-DBLOOMCUCKOO_SANITIZE=ON', '-DCMAKE_BUILD_TYPE=Debug',
    '-DCMAKE_CXX_COMPILER=clang++']);
}
jestSuite();
for (const [name, script, skip] of [
  ['fuzz', 'tests/fuzz/run-fuzz.mjs', 'SKIP_FUZZ'],
  ['e2e', 'tests/e2e/run-e2e.mjs', 'SKIP_E2E'],
  ['pack', 'tests/pack/run-pack.mjs', 'SKIP_PACK'],
]) {
  if (process.env[skip] !== '1') nodeScriptSuite(name, script);
}

const passed = results.reduce((a, r) => a + r.passed, 0);
const failed = results.reduce((a, r) => a + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
