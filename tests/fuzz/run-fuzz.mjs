// Runs the libFuzzer target briefly (FUZZ_SECONDS, default 20) from the committed seed corpus,
// on a copy, and the golden files (read only: every kind's seed, with no copy of its own), with
// ASan + UBSan. `npm run fuzz` runs it longer (FUZZ_SECONDS=300).
// Prints "N passed, N failed" last: 1 passed when the fuzzer found nothing. A slow input is a
// failure like a crash: libFuzzer's -timeout (FUZZ_TIMEOUT seconds per input, default 3; every
// input is at most 4096 bytes and any reader judges that in milliseconds) stops the run with a
// timeout- artifact and a nonzero exit. The corpus holds the worst header of every kind
// (tests/fuzz/worst-headers.mjs), so a reader that works in proportion to a header's claims
// fails at once.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';

const root = new URL('../..', import.meta.url).pathname;
const seconds = Number(process.env.FUZZ_SECONDS ?? 20);
const timeout = Number(process.env.FUZZ_TIMEOUT ?? 3);
const buildDir = `${root}build/fuzz`;
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts });

function finish(ok, message) {
  console.log(message);
  console.log(`${ok ? 1 : 0} passed, ${ok ? 0 : 1} failed`);
  process.exitCode = ok ? 0 : 1;
}

if (!existsSync(`${buildDir}/CMakeCache.txt`)) {
  const c = run('cmake', ['-B', buildDir, '-S', '.', '-DBLOOMCUCKOO_FUZZ=ON', '-DCMAKE_CXX_COMPILER=clang++', '-DCMAKE_BUILD_TYPE=Debug']);
  if (c.status !== 0) { finish(false, `fuzz configure failed:\n${c.stdout}${c.stderr}`); process.exit(); }
}
const b = run('cmake', ['--build', buildDir, '-j2']);
if (b.status !== 0) { finish(false, `fuzz build failed:\n${b.stdout}${b.stderr}`); process.exit(); }

const work = `${root}tests/fuzz/corpus-work`;
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
cpSync(`${root}tests/fuzz/corpus`, work, { recursive: true });
const artifacts = `${root}build/fuzz/artifacts/`;
mkdirSync(artifacts, { recursive: true });
const r = run(`${buildDir}/deserialize_fuzz`, [`-max_total_time=${seconds}`, '-max_len=4096', `-timeout=${timeout}`,
  '-rss_limit_mb=2048', '-print_final_stats=1', `-artifact_prefix=${artifacts}`, work, `${root}tests/fixtures/golden`], { maxBuffer: 1 << 26, timeout: (seconds + 300) * 1000 });
const out = `${r.stdout}${r.stderr}`;
const execs = out.match(/stat::number_of_executed_units:\s*(\d+)/)?.[1] ?? '?';
const cov = [...out.matchAll(/cov: (\d+)/g)].pop()?.[1] ?? '?';
const slow = /ERROR: libFuzzer: timeout/.test(out);
if (r.status !== 0 || r.error) {
  const what = slow ? `a slow input (over ${timeout} s)` : `a problem (exit ${r.status ?? r.error})`;
  finish(false, `fuzzer found ${what} after ${execs} runs (artifacts in ${artifacts}):\n${out.split('\n').slice(-60).join('\n')}`);
} else {
  finish(true, `fuzz: ${execs} executions in ${seconds} s, coverage ${cov} edges, no crash`);
}
