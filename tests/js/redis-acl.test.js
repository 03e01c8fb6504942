// All or nothing under Redis ACLs (issue 33 item 7): real ACL users made with ACL SETUSER on a
// live server of each oracle, logged in with every client of the peer range. A write whose user may
// run the filter command but not XADD on the log is refused before anything is written (the filter
// and the log unchanged); openReplica refuses a user who lacks any right a replica needs, naming
// each; pullFilter and pushFilter name the command refused. A user with exactly the listed rights
// opens a replica and writes through it. A fake server plays what no oracle here can: a Redis before
// 7 (no redis.acl_check_cmd), EVAL and EVALSHA both refused, a check reply of the wrong shape.
import { FilterError, RedisBloomFilter, init } from '../../js/main/index.js';
import { openReplica, pullFilter, pushFilter } from '../../js/redis/index.js';
import { CLIENTS } from '../redis/clients.mjs';
import { startFakeRedis } from '../redis/fake-resp.mjs';
import { rejection, replicaOpener } from '../redis/helpers.mjs';
import { oracleSkips, startRedisBloom } from '../redis/server.mjs';

beforeAll(() => init());

const SKIPS = await oracleSkips('tests/js/redis-acl.test.js');

// what a replica sends, and nothing else: its key and log (the snapshot and checkpoint keys are beside them), given as rules
const REPLICA_RIGHTS = ['-@all', '+eval', '+evalsha', '+type', '+exists', '+xinfo|stream', '+del', '+time', '+dump', '+restore',
  '+xadd', '+xread', '+client|id', '+bf.scandump', '+bf.info', '+bf.insert', '+cf.scandump', '+cf.info', '+cf.insert', '+cf.insertnx', '+cf.del',
  // the checkpoint's (js/redis/checkpoint.js): the log's first entry, the pointer and the copies, a lock, a request
  '+xrange', '+hmget', '+hset', '+pttl', '+set', '+get', '+pexpire', '+unlink', '+rename', '+persist'];

for (const oracle of ['2.6', 'v8']) {
  const server = oracle === 'v8' ? '8' : '2.6';
  (SKIPS[oracle] ? describe.skip : describe)(`ACL users on RedisBloom ${oracle}`, () => {
    let rb;
    let n = 0;
    const { connect, replicaOf } = replicaOpener(() => rb.port, CLIENTS[0]);
    beforeAll(async () => { rb = await startRedisBloom({ oracle }); }, 30000);
    afterAll(async () => { await rb?.stop(); });

    const admin = (args) => rb.client.sendCommand(args);
    /** A new ACL user with `rules` (after `reset on >pw`), logged in with `kind`. */
    const userOf = async (kind, rules) => {
      const username = `u${n++}`;
      await admin(['ACL', 'SETUSER', username, 'reset', 'on', '>pw', ...rules]);
      return { c: await connect(kind, { username, password: 'pw' }), username };
    };
    const logOf = (key) => `{${key}}:bloomcuckoo-log`;   // besideKey of a key with no braces

    // every right of the list is checked ahead: a user lacking any one of them is refused by
    // openReplica before it creates or reads anything, naming that command (a right the check
    // missed would let the open start and fail half-way, at the checkpoint or the tail)
    test('a user lacking any one right of the list: openReplica refuses naming it (BF and CF)', async () => {
      const [kind] = CLIENTS;
      const bf = `acl-one${n++}`;
      const cf = `acl-one${n++}`;
      await admin(['BF.RESERVE', bf, '0.01', '1000']);
      await admin(['CF.RESERVE', cf, '1000']);
      for (const right of REPLICA_RIGHTS.filter((r) => !['-@all', '+eval', '+evalsha'].includes(r))) {
        const key = right.startsWith('+cf.') ? cf : bf;
        const { c } = await userOf(kind, ['~*', ...REPLICA_RIGHTS.filter((r) => r !== right)]);
        const err = await rejection(replicaOf(c, key, { server }));
        expect([right, err.constructor.name, err.code]).toEqual([right, 'FilterError', 'REDIS']);
        const name = right.slice(1).toUpperCase().replace('|', ' ');
        expect([right, err.message]).toEqual([right, expect.stringMatching(new RegExp(`may not run [^]*\\b${name.replace('.', '\\.')}\\b`))]);
      }
    }, 60000);

    for (const kind of CLIENTS) {
      test(`${kind.name}: a user who may run BF.INSERT and CF.DEL but not XADD: the write is refused naming XADD, the filter and the log unchanged; openReplica refuses the user`, async () => {
        const bf = `acl-bf${n++}`;
        const cf = `acl-cf${n++}`;
        await admin(['BF.RESERVE', bf, '0.01', '1000']);
        await admin(['CF.RESERVE', cf, '1000']);
        const { c, username } = await userOf(kind, ['~*', '+@all']);
        const a = await replicaOf(c, bf);
        const x = await replicaOf(c, cf);
        expect(await a.add('before')).toBe(true);
        expect(await x.add('before')).toBe(true);
        expect(await x.add('gone')).toBe(true);
        await admin(['ACL', 'SETUSER', username, '-xadd']);   // the rights change under a running replica

        const err = await rejection(a.add('x'));
        // nothing written: the filter lacks the key and the log is as it was
        expect(Number(await admin(['BF.EXISTS', bf, 'x']))).toBe(0);
        expect(Number(await admin(['XLEN', logOf(bf)]))).toBe(1);
        expect(err).toBeInstanceOf(FilterError);
        expect(err.code).toBe('REDIS');
        expect(err.message).toContain(`XADD on '${logOf(bf)}'`);
        expect(err.message).toMatch(/not applied/);
        expect(a.has('x')).toBe(false);

        const cfErr = await rejection(x.remove('gone'));
        expect([cfErr.constructor.name, cfErr.code]).toEqual(['FilterError', 'REDIS']);
        expect(cfErr.message).toContain(`XADD on '${logOf(cf)}'`);
        expect(Number(await admin(['CF.EXISTS', cf, 'gone']))).toBe(1);
        expect(Number(await admin(['XLEN', logOf(cf)]))).toBe(2);

        const openErr = await rejection(replicaOf(c, bf));
        expect([openErr.constructor.name, openErr.code]).toEqual(['FilterError', 'REDIS']);
        expect(openErr.message).toContain(`XADD on '${logOf(bf)}'`);
        expect(openErr.message).not.toMatch(/EVALSHA|TYPE on/);   // only what is missing
      }, 30000);

      test(`${kind.name}: a user without EVALSHA, or without EVAL: openReplica refuses naming it, and creates nothing`, async () => {
        for (const [rule, name] of [['-evalsha', 'EVALSHA'], ['-eval', 'EVAL']]) {
          const key = `acl-ev${n++}`;
          const { c } = await userOf(kind, ['~*', '+@all', rule]);
          const err = await rejection(replicaOf(c, key, { create: { type: 'BF', errorRate: 0.01, capacity: 100 } }));
          expect([err.constructor.name, err.code]).toEqual(['FilterError', 'REDIS']);
          expect(err.message).toMatch(new RegExp(`may not run [^]*\\b${name}\\b`));
          expect(Number(await admin(['EXISTS', key]))).toBe(0);
        }
      }, 30000);

      test(`${kind.name}: a user whose key patterns leave out the key: openReplica refuses naming the key`, async () => {
        const key = `acl-key${n++}`;
        await admin(['BF.RESERVE', key, '0.01', '100']);
        const { c } = await userOf(kind, ['~other:*', '+@all']);
        const err = await rejection(replicaOf(c, key));
        expect([err.constructor.name, err.code]).toEqual(['FilterError', 'REDIS']);
        expect(err.message).toContain(`TYPE on '${key}'`);
        expect(err.message).toContain(`DUMP on '${key}'`);
        expect(err.message).toContain(`XADD on '${logOf(key)}'`);
        // with the type given (create), that type's commands are named too, and nothing is made
        const made = await rejection(replicaOf(c, `${key}:new`, { create: { type: 'CF', capacity: 100 } }));
        expect(made.message).toContain(`CF.INSERT on '${key}:new'`);
        expect(made.message).toContain(`CF.RESERVE on '${key}:new'`);
        expect(Number(await admin(['EXISTS', `${key}:new`]))).toBe(0);
      }, 30000);

      test(`${kind.name}: pullFilter and pushFilter without the rights: FilterError naming the command refused`, async () => {
        const key = `acl-pp${n++}`;
        await admin(['BF.RESERVE', key, '0.01', '100']);
        const { c } = await userOf(kind, ['~*', '+@all', '-bf.scandump', '-bf.loadchunk']);
        const pull = await rejection(pullFilter(c, key, { server }));
        expect([pull.constructor.name, pull.code]).toEqual(['FilterError', 'REDIS']);
        expect(pull.message).toMatch(/BF\.SCANDUMP/);
        expect(pull.message).toMatch(/NOPERM|permission/i);
        const f = new RedisBloomFilter({ errorRate: 0.01, capacity: 100 });
        f.add('a');
        const push = await rejection(pushFilter(c, `${key}:new`, f));
        f.free();
        expect([push.constructor.name, push.code]).toEqual(['FilterError', 'REDIS']);
        expect(push.message).toMatch(/BF\.LOADCHUNK/);
        expect(Number(await admin(['EXISTS', `${key}:new`]))).toBe(0);
      }, 30000);

      test(`${kind.name}: a user with exactly the rights the docs list opens a BF and a CF replica and writes through them`, async () => {
        const bf = `acl-ok${n++}`;
        const cf = `acl-ok${n++}`;
        await admin(['BF.RESERVE', bf, '0.01', '1000']);
        await admin(['CF.RESERVE', cf, '1000']);
        const { c } = await userOf(kind, ['~*', ...REPLICA_RIGHTS]);
        const [a, b] = [await replicaOf(c, bf, { server }), await replicaOf(c, bf, { server })];
        expect(await a.add('k')).toBe(true);
        await b.sync();
        expect(b.has('k')).toBe(true);
        const x = await replicaOf(c, cf, { server });
        expect(await x.add('k')).toBe(true);
        expect(await x.addUnique('k')).toBe(false);
        expect(await x.remove('k')).toBe(true);
        await x.sync();
        expect(Number(await admin(['CF.EXISTS', cf, 'k']))).toBe(0);
      }, 30000);
    }
  });
}

// What the check does with what no live oracle here plays (a fake RESP server, tests/redis/fake-resp.mjs):
// a Redis before 7 (no redis.acl_check_cmd: the check script replies 'unchecked'), a user refused
// EVAL and EVALSHA outright, and a reply of the wrong shape.
describe.each(CLIENTS.filter((c) => ['redis', 'ioredis'].includes(c.alias)).map((c) => [c.name, c]))('%s: the rights check against a fake server', (_, kind) => {
  /** openReplica('k') on a fake whose EVAL/EVALSHA with no keys (the check) replies `rights`; the snapshot script fails. */
  const openOn = async (rights) => {
    const fake = await startFakeRedis((args) => {
      const cmd = args[0].toUpperCase();
      if (cmd === 'TYPE') return { simple: 'MBbloom--' };
      if ((cmd === 'EVAL' || cmd === 'EVALSHA') && args[2] === '0') return rights(cmd);
      if (cmd === 'EVAL' || cmd === 'EVALSHA') return { error: 'ERR the snapshot, not played' };
      return undefined;
    });
    const { c, close } = await kind.connect(fake.port);
    try {
      return await rejection(openReplica(c, 'k', { server: '2.6', timeout: 2000 }));
    } finally {
      await close();
      await fake.stop();
    }
  };

  test('a Redis without redis.acl_check_cmd: nothing refused ahead, the open goes on to the snapshot', async () => {
    const err = await openOn(() => ['unchecked']);
    expect([err.constructor.name, err.code]).toEqual(['FilterError', 'REDIS']);
    expect(err.message).toMatch(/the snapshot of 'k'.*not played/);
  });

  test('EVAL and EVALSHA both refused: REDIS naming both, saying the rest could not be checked', async () => {
    const err = await openOn((cmd) => ({ error: `NOPERM this user has no permissions to run the '${cmd.toLowerCase()}' command` }));
    expect([err.constructor.name, err.code]).toEqual(['FilterError', 'REDIS']);
    expect(err.message).toMatch(/may not run what a replica of 'k' sends: EVAL, EVALSHA \(the other rights could not be checked/);
  });

  test('a check reply naming a right as a nested array: CORRUPT_DATA, not a TypeError', async () => {
    const err = await openOn(() => ['checked', ['XADD']]);
    expect([err.constructor.name, err.code]).toEqual(['FilterError', 'CORRUPT_DATA']);
  });
});
