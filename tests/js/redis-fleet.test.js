// A real fleet sharing one BF and one CF through a live Redis (both oracles): six OS processes
// (tests/fleet/worker.mjs), three per key, each with an openReplica, adding, removing and checking
// at once, while the test injects real faults: every connection dropped (CLIENT KILL), a worker
// SIGKILLed mid-write and started again, Redis SIGKILLed and restarted from its AOF, a worker
// stopped (SIGSTOP) while the others write past the log's length, writes around the library.
// The oracle is exact: the keys whose add a worker had acknowledged (and that no remove touched);
// a write that failed or whose process died is "uncertain" and left out. The promise checked: after
// a worker's sync() completes, it answers has() true for every such key acknowledged before the
// sync was asked for. At the end every replica's bytes equal the server's SCANDUMP.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { scanDump } from '../redis/helpers.mjs';
import { oracleSkips, startRedisBloom } from '../redis/server.mjs';

const WORKER = fileURLToPath(new URL('../fleet/worker.mjs', import.meta.url));
const OPTIONS = { checkInterval: 200, maxLength: 20, syncTimeout: 20000 };
const ROUNDS = 12;
// one SKIP line for this file when an oracle is missing (a clone with nothing beside it)
const SKIPS = await oracleSkips('tests/js/redis-fleet.test.js');

class Worker {
  constructor(port, key, server) {
    Object.assign(this, { port, key, server, next: 0, waiting: new Map() });
    this.proc = fork(WORKER, [String(port), key, server, JSON.stringify(OPTIONS)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.exited = new Promise((resolve) => { this.proc.on('exit', (code, signal) => resolve({ code, signal })); });
    this.ready = new Promise((resolve, reject) => {
      this.proc.on('message', (m) => {
        if (m.ready) { resolve(); return; }
        const w = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (m.ok) w?.resolve(m.value); else w?.reject(Object.assign(new Error(m.message), { code: m.code }));
      });
      this.exited.then(({ code, signal }) => {
        const err = new Error(`worker exited (${code ?? signal})`);
        reject(err);
        for (const w of this.waiting.values()) w.reject(err);
        this.waiting.clear();
      });
    });
  }

  request(op, extra = {}) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.proc.send({ id, op, ...extra });
    });
  }
}

/** The oracle of one key: acknowledged keys, the ones a remove touched, the uncertain ones. */
class Oracle {
  present = new Set();
  gone = new Set();   // removed, or being removed, or uncertain: never expected either way
  violations = [];
  checks = 0;

  addResults(keys, results) {
    keys.forEach((k, i) => {
      const r = results[i];
      if (r === true || (r === false && this.bf)) this.present.add(k);
      else if (r !== false) this.gone.add(k);   // an error: it may or may not be there
    });
  }

  /** Sync `w`, then ask it every key acknowledged before the sync was asked for. */
  async check(w, label) {
    const expected = [...this.present];
    await w.request('sync');
    const has = await w.request('has', { keys: expected });
    this.checks++;
    const missing = expected.filter((k, i) => !has[i] && !this.gone.has(k));
    if (missing.length) this.violations.push(`${label}: ${missing.length} acknowledged keys absent after sync (${missing.slice(0, 3)})`);
  }
}

const sleep = (ms) => new Promise((r) => { setTimeout(r, ms).unref(); });
const hex = (chunks) => chunks.filter(([it]) => it !== 0).map(([it, d]) => [it, Buffer.from(d).toString('hex')]);

for (const [oracle, server] of [['2.6', '2.6'], ['v8', '8']]) {
  const skip = SKIPS[oracle];
  (skip ? test.skip : test)(`a fleet of 6 processes on RedisBloom ${oracle}, with faults: no acknowledged key lost, bytes converge`, async () => {
    let rb = await startRedisBloom({ oracle, aof: true });
    const workers = [];
    try {
      await rb.client.sendCommand(['BF.RESERVE', 'bf', '0.01', '500']);
      await rb.client.sendCommand(['CF.RESERVE', 'cf', '500', 'BUCKETSIZE', '4', 'EXPANSION', '2']);
      const oracles = { bf: Object.assign(new Oracle(), { bf: true }), cf: new Oracle() };
      const spawnAt = async (i) => {
        const w = new Worker(rb.port, i % 2 ? 'cf' : 'bf', server);
        workers[i] = w;
        await w.ready;
        return w;
      };
      for (let i = 0; i < 6; i++) await spawnAt(i);
      const mine = workers.map(() => []);   // keys each worker added and saw acknowledged (CF: removable)
      let fresh = 0;

      /** Each worker adds `n` new keys (CF workers also remove some of theirs), all at once. */
      const writeRound = (round, n = 30) => Promise.all(workers.map(async (w, i) => {
        const o = oracles[w.key];
        const keys = Array.from({ length: n }, () => `${w.key}:${i}:${fresh++}`);
        const removing = w.key === 'cf' ? mine[i].splice(0, 8) : [];
        for (const k of removing) o.gone.add(k);
        const [added, removed] = await Promise.all([
          w.request('add', { keys }).catch(() => keys.map(() => 'error')),
          w.request('remove', { keys: removing }).catch(() => removing.map(() => 'error')),
        ]);
        o.addResults(keys, added);
        keys.forEach((k, j) => { if (added[j] === true) mine[i].push(k); });
        removing.forEach((k, j) => {
          if (removed[j] === false) o.violations.push(`round ${round}: remove of acknowledged ${k} found nothing`);
        });
        o.present.forEach((k) => { if (o.gone.has(k)) o.present.delete(k); });
      }));
      const checkAll = (label) => Promise.all(workers.map((w, i) => oracles[w.key].check(w, `${label}, worker ${i}`)));

      for (let round = 0; round < ROUNDS; round++) {
        const writing = writeRound(round);
        if (round === 2) {
          // every client connection dropped, the replicas' blocked XREADs among them
          await sleep(5);
          await rb.client.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']);
        } else if (round === 4) {
          // a worker killed in the middle of its writes, then started again
          await sleep(5);
          workers[0].proc.kill('SIGKILL');
          await workers[0].exited;
        } else if (round === 6) {
          // Redis crashes mid-round and comes back from its AOF
          await sleep(5);
          rb = await rb.restart('SIGKILL');
        }
        await writing;
        if (round === 4) {
          await spawnAt(0);
        }
        if (round === 8) {
          // a slow replica: stopped while the others write more than the log keeps (maxLength 20)
          workers[1].proc.kill('SIGSTOP');
          const others = workers.filter((_, i) => i !== 1);
          await Promise.all(others.map((w, j) => w.request('add', { keys: Array.from({ length: 40 }, (_, k) => `${w.key}:late:${j}:${k}`) })
            .then((r) => oracles[w.key].addResults(Array.from({ length: 40 }, (_, k) => `${w.key}:late:${j}:${k}`), r))));
          const before = (await rb.client.sendCommand(['XINFO', 'STREAM', '{cf}:bloomcuckoo-log']));
          expect(JSON.stringify(before)).toMatch(/first-entry/);
          workers[1].proc.kill('SIGCONT');
          await oracles.cf.check(workers[1], `round ${round}, the stopped worker`);
          expect((await workers[1].request('stats')).resyncs).toBeGreaterThan(0);
        }
        if (round === 10) {
          // writes around the library, acknowledged by the server: seen within checkInterval (and by sync)
          const around = Array.from({ length: 20 }, (_, k) => `around:${k}`);
          await rb.client.sendCommand(['BF.MADD', 'bf', ...around]);
          for (const k of around) await rb.client.sendCommand(['CF.ADD', 'cf', k]);
          oracles.bf.present = new Set([...oracles.bf.present, ...around]);
          oracles.cf.present = new Set([...oracles.cf.present, ...around]);
          await sleep(OPTIONS.checkInterval * 3);
          const seen = await workers[2].request('has', { keys: around });
          expect(seen.every(Boolean)).toBe(true);   // without a sync(): the periodic check found it
        }
        await checkAll(`round ${round}`);
      }

      // writes stop: every replica converges to the server's exact bytes
      for (const w of workers) await w.request('sync');
      for (const w of workers) {
        const server = hex(await scanDump(rb.client, w.key === 'cf' ? 'CF' : 'BF', w.key));
        expect(await w.request('dump')).toEqual(server);
      }
      const stats = await Promise.all(workers.map((w) => w.request('stats')));
      if (process.env.FLEET_DEBUG) console.log(JSON.stringify(stats), oracles.bf.present.size, oracles.cf.present.size, oracles.bf.gone.size, oracles.cf.gone.size);
      expect(oracles.bf.violations).toEqual([]);
      expect(oracles.cf.violations).toEqual([]);
      expect(oracles.bf.checks + oracles.cf.checks).toBeGreaterThanOrEqual(ROUNDS * 6);
      expect(oracles.bf.present.size).toBeGreaterThan(ROUNDS * 80);
      // the faults were seen and reported, not swallowed
      expect(stats.some((s) => (s.errors.REDIS ?? 0) > 0)).toBe(true);
      expect(stats.some((s) => s.writeArounds > 0)).toBe(true);
      // close(): each process exits by itself, nothing left running
      for (const w of workers) w.request('close').catch(() => {});
      const exits = await Promise.race([Promise.all(workers.map((w) => w.exited)), sleep(10000).then(() => 'timeout')]);
      expect(exits).toEqual(workers.map(() => ({ code: 0, signal: null })));
    } finally {
      for (const w of workers) if (w?.proc.exitCode === null) w.proc.kill('SIGKILL');
      await rb.client.quit().catch(() => {});
      await rb.stop();
    }
  }, 120000);
}
