// The four commands: build, check, info, merge. Each takes its argv (after the command name),
// writes its results, and returns the exit status; failures throw CliError (exit 2).
import { isUtf8 } from 'node:buffer';
import { stat } from 'node:fs/promises';
import { FilterError, init } from '../../js/main/index.js';
import {
  CliError, bytes, count, fileType, parse, percent, readFilter, requireFile, writeOutput,
} from './common.js';
import { KINDS, KIND_NAMES, OPTION_FLAGS, classOf, estimatedFpr, optionsFor, shownOptions } from './kinds.js';
import { countKeys, forEachBatch, isStdin, openInput } from './lines.js';
import { WASM_MEMORY_LIMIT, buildMemory, fits, fuseStdinPlan, memoryNote, refusal } from './memory.js';
import { Progress } from './progress.js';
import { HELP } from './help.js';

/** Writes to stdout, waiting when its buffer is full (so output never piles up in memory). */
function out(text) {
  if (process.stdout.write(text)) return null;
  return new Promise((resolve) => process.stdout.once('drain', resolve));
}

/** Whether chatter (progress, notes, summary) goes to stderr: a TTY, or --progress. */
function chatty(values) {
  if (values.quiet) return false;
  return Boolean(values.progress || process.stderr.isTTY);
}

function note(values, text) {
  if (!values.quiet) process.stderr.write(`${text}\n`);
}

function describe(filter, fileBytes) {
  const info = filter.info();
  const fpr = estimatedFpr(filter, info);
  const held = filter.size;   // keys held (info.size is a byte count for the RedisBloom kinds)
  const bitsPerKey = held > 0 ? (filter.byteLength * 8) / held : NaN;
  return { info, fpr, bitsPerKey, fileBytes, held };
}

/** A number for JSON: null when it is not finite (NaN bits/key of an empty filter). */
const finite = (x) => (Number.isFinite(x) ? x : null);

/** Prints one JSON document on stdout. */
const json = (doc) => out(`${JSON.stringify(doc, null, 2)}\n`);

/** --json writes to stdout, so the filter's bytes cannot go there too. */
function jsonNeedsFile(command, values) {
  if (values.json && values.output === '-') {
    throw new CliError(`${command}: --json needs -o <file> (with -o - stdout holds the filter's bytes)`);
  }
}

/** A FilterError from the library as one CLI line. */
function libraryError(context, err) {
  if (err instanceof FilterError) return new CliError(`${context}: ${err.message} (${err.code})`);
  return err;
}

// ---- build ----------------------------------------------------------------------------------

/**
 * Kinds that store fingerprints: every line is added (a multiset) unless --unique (a set, whose
 * removals can cause false negatives: a key whose fingerprint matched one already present was
 * never stored, and removing that other key makes it read absent).
 */
const CUCKOO_KINDS = ['cuckoo', 'redis-cuckoo'];

const BUILD_OPTIONS = {
  output: { type: 'string', short: 'o' },
  kind: { type: 'string', short: 'k' },
  unique: { type: 'boolean' },
  multiset: { type: 'boolean' },
  json: { type: 'boolean' },
  progress: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  ...Object.fromEntries(Object.keys(OPTION_FLAGS).map((f) => [f, { type: f === 'non-scaling' ? 'boolean' : 'string' }])),
};

export async function build(argv) {
  const { values, positionals } = parse('build', argv, BUILD_OPTIONS);
  if (values.help) return out(HELP.build), 0;
  if (positionals.length !== 1) {
    throw new CliError(`build: give exactly one input file (or - for stdin), got ${positionals.length} (see 'bloomcuckoo build --help')`);
  }
  const input = positionals[0];
  if (values.output === undefined) throw new CliError('build: -o <file> is required (use -o - for stdout)');
  const kind = values.kind ?? 'bloom';
  if (!KINDS[kind]) throw new CliError(`build: unknown --kind '${kind}' (kinds: ${KIND_NAMES.join(', ')})`);
  for (const flag of ['unique', 'multiset']) {
    if (values[flag] && !CUCKOO_KINDS.includes(kind)) throw new CliError(`build: --${flag} applies to --kind cuckoo and redis-cuckoo only`);
  }
  if (values.unique && values.multiset) {
    throw new CliError('build: --unique and --multiset contradict each other (every line is added by default; --unique builds a set)');
  }
  jsonNeedsFile('build', values);
  const { options, needsCapacity } = optionsFor(kind, values);
  const inputStat = input === '-' ? null : await requireFile(input, 'input');
  // Only a regular file can be read twice (counted, then added); '-', a pipe, a FIFO or a process
  // substitution is read once, as it arrives, so its number of keys is not known in advance.
  const regular = inputStat?.isFile() === true;
  await init();
  const Cls = classOf(kind);
  const show = chatty(values);

  if (needsCapacity) {
    if (!regular) {
      if (kind !== 'scalable') {
        if (inputStat === null) throw new CliError(`build: --capacity is required when reading stdin (the number of keys is not known in advance)`);
        throw new CliError(`build: --capacity is required when the input is not a regular file ('${input}' is a ${fileType(inputStat)}): `
          + 'it is read once, as it arrives, so its keys cannot be counted in advance');
      }
      options.capacity = 100_000;
      if (show) note(values, `scalable: reading ${inputStat === null ? 'stdin' : `'${input}'`} without --capacity: the first layer holds 100,000 keys; layers are added as needed`);
    } else {
      // (RedisBloom's CF needs a capacity of at least two buckets)
      const least = kind === 'redis-cuckoo' ? 2 * (options.bucketSize ?? 2) : 1;
      options.capacity = Math.max(least, await countKeys(input));
      if (show) note(values, `capacity: ${count(options.capacity)} (the number of keys in ${input})`);
    }
  }

  // Memory: worked out before any key is read, and refused here when it cannot fit. Said on a
  // terminal (or with --progress), and always for fuse and for builds of a quarter of the limit.
  const fuseKeys = KINDS[kind].static && regular ? await countKeys(input) : null;
  let fuseLimit = null;
  if (KINDS[kind].static && !regular) {
    const plan = fuseStdinPlan(options.fingerprintBits);
    fuseLimit = plan.most;
    note(values, plan.text);
  } else {
    let plan;
    try {
      plan = buildMemory(kind, options, fuseKeys);   // the core's shapes: they refuse bad options as the constructors do
    } catch (err) {
      throw libraryError('build', err);
    }
    if (!fits(plan)) throw new CliError(`build: ${refusal(plan)}`);
    if (show || KINDS[kind].static || plan.total >= WASM_MEMORY_LIMIT / 4) note(values, memoryNote(plan));
  }

  const started = performance.now();
  const progress = show ? new Progress(`${kind}`, regular ? inputStat.size : null) : null;
  const onProgress = progress ? (b, k, final) => progress.update(b, k, final) : undefined;
  let filter;
  let read;
  try {
    if (KINDS[kind].static) {
      ({ filter, read } = await buildStatic(Cls, input, options, values, fuseKeys, fuseLimit, onProgress, progress));
    } else {
      try {
        filter = new Cls(options);
      } catch (err) {
        throw libraryError('build', err);
      }
      read = await fill(filter, kind, input, values, onProgress);
    }
  } catch (err) {
    filter?.free();
    throw err;
  } finally {
    progress?.done();
  }
  try {
    await writeOutput(values.output, filter);
    const d = describe(filter);
    const secs = (performance.now() - started) / 1000;
    if (show) {
      note(values, `${kind}: ${count(read.lines)} keys read in ${secs.toFixed(1)} s → ${values.output}: `
        + `${count(d.held)} held, ${bytes(filter.byteLength)}, ${d.bitsPerKey.toFixed(2)} bits/key, est. FPR ${percent(d.fpr)}`);
    }
    if (values.json) {
      await json({ command: 'build', input, output: values.output, kind, keysRead: read.lines, size: d.held,
        byteLength: filter.byteLength, fileBytes: (await stat(values.output)).size,
        bitsPerKey: finite(d.bitsPerKey), estimatedFpr: finite(d.fpr), seconds: secs });
    }
  } finally {
    filter.free();
  }
  return 0;
}

/** Streams every key of the input into a dynamic filter, batch by batch. */
async function fill(filter, kind, input, values, onProgress) {
  let held = 0;
  const cuckoo = CUCKOO_KINDS.includes(kind);
  const unique = cuckoo && values.unique === true;
  // (a multiset stores every copy: a line repeated more than 2 x bucket-size times fills its two buckets)
  const full = (n) => new CliError(`build: the ${kind} filter is full after ${count(n)} keys; `
    + `raise --capacity${cuckoo ? ' or --expansion' : ''}`
    + (cuckoo && !unique ? '; every line is added: a line repeated more than 2 x bucket-size times fills its buckets, '
      + "so remove repeated lines first (sort -u), or build a set with --unique if keys are never removed" : ''));
  return forEachBatch(openInput(input), (batch) => {
    if (unique) {
      // A set: add a key only if it is not maybe-present already; false with `has` false = full.
      for (const key of batch) {
        let ok;
        try {
          ok = filter.addUnique(key) || filter.has(key);
        } catch (err) {
          if (err instanceof FilterError && err.code === 'FULL') throw full(held);
          throw libraryError('build', err);
        }
        if (!ok) throw full(held);
        held++;
      }
      return;
    }
    let added;
    try {
      added = filter.addAll(batch);
    } catch (err) {
      if (err instanceof FilterError && err.code === 'FULL') throw full(filter.size);
      throw libraryError('build', err);
    }
    if (cuckoo && added < batch.length) throw full(filter.size);
    held += batch.length;
  }, onProgress);
}

/**
 * A static filter (fuse) is built from all keys at once: the keys are streamed into a builder
 * that keeps their 8-byte hashes in wasm memory (reserved for `fuseKeys`, the keys counted in a
 * file), then the filter is built. From stdin, more keys
 * than `fuseLimit` (those that fit the wasm memory) are refused as soon as they are read.
 */
async function buildStatic(Cls, input, options, values, fuseKeys, fuseLimit, onProgress, progress) {
  let builder;
  try {
    builder = Cls.builder(options);
  } catch (err) {
    throw libraryError('build', err);
  }
  const stdin = { reserved: false };
  try {
    if (fuseKeys !== null) builder.reserve(fuseKeys);   // the hashes in exactly 8 bytes a key
    const read = await forEachBatch(openInput(input), (batch) => {
      if (fuseLimit !== null && builder.size + batch.length > fuseLimit) {
        throw new CliError(`build: more than ${count(fuseLimit)} keys on stdin: ${refusal(buildMemory('fuse', options, builder.size + batch.length, stdin))}`);
      }
      builder.addAll(batch.map((line) => (isUtf8(line) ? line.toString('utf8') : Uint8Array.from(line))));
    }, onProgress);
    progress?.done();
    if (fuseLimit !== null) note(values, memoryNote(buildMemory('fuse', options, builder.size, stdin)));
    return { filter: builder.build(), read };
  } catch (err) {
    throw libraryError('build', err);
  } finally {
    builder.free();
  }
}

// ---- check ----------------------------------------------------------------------------------

/** One key's verdict for check --json: the key as text, and as base64 when it is not UTF-8. */
function jsonResult(key, hit) {
  if (typeof key === 'string') return JSON.stringify({ key, maybe: hit });
  if (isUtf8(key)) return JSON.stringify({ key: key.toString('utf8'), maybe: hit });
  return JSON.stringify({ key: key.toString('utf8'), keyBase64: key.toString('base64'), maybe: hit });
}

export async function check(argv) {
  const { values, positionals } = parse('check', argv, { input: { type: 'string', short: 'i' }, json: { type: 'boolean' } });
  if (values.help) return out(HELP.check), 0;
  if (positionals.length === 0) throw new CliError(`check: give a filter file (see 'bloomcuckoo check --help')`);
  const [file, ...keys] = positionals;
  if (keys.length > 0 && values.input !== undefined) throw new CliError('check: give keys or --input, not both');
  if (keys.length === 0 && values.input === undefined) throw new CliError('check: give keys to check, or --input <file|->');
  if (isStdin(file) && values.input !== undefined && isStdin(values.input)) {
    throw new CliError("check: stdin can be read only once: give the filter or the keys as '-', not both");
  }
  if (values.input !== undefined && values.input !== '-') await requireFile(values.input, 'input');
  const { filter } = await readFilter(file);
  let absent = 0;
  let checked = 0;
  try {
    if (values.json) {
      // one JSON document, written as the keys are checked: {command, file, results: [...], counts}
      await out(`{"command":"check","file":${JSON.stringify(file)},"results":[`);
      const each = async (batch) => {
        const hits = filter.hasAll(batch);
        const parts = new Array(batch.length);
        for (let i = 0; i < batch.length; i++) {
          parts[i] = jsonResult(batch[i], hits[i] === 1);
          if (!hits[i]) absent++;
        }
        await out(`${checked > 0 ? ',' : ''}\n${parts.join(',\n')}`);
        checked += batch.length;
      };
      if (keys.length > 0) await each(keys);
      else await forEachBatch(openInput(values.input), each, undefined, 'check');
      await out(`\n],"checked":${checked},"maybe":${checked - absent},"absent":${absent}}\n`);
    } else if (keys.length > 0) {
      const hits = filter.hasAll(keys);
      let text = '';
      for (let i = 0; i < keys.length; i++) {
        text += `${keys[i]}\t${hits[i] ? 'maybe' : 'no'}\n`;
        if (!hits[i]) absent++;
      }
      await out(text);
    } else {
      const maybe = Buffer.from('\tmaybe\n');
      const no = Buffer.from('\tno\n');
      await forEachBatch(openInput(values.input), async (batch) => {
        const hits = filter.hasAll(batch);
        const parts = new Array(2 * batch.length);
        for (let i = 0; i < batch.length; i++) {
          parts[2 * i] = batch[i];
          parts[2 * i + 1] = hits[i] ? maybe : no;
          if (!hits[i]) absent++;
        }
        await out(Buffer.concat(parts));
      }, undefined, 'check');
    }
  } finally {
    filter.free();
  }
  return absent > 0 ? 1 : 0;
}

// ---- info -----------------------------------------------------------------------------------

export async function info(argv) {
  const { values, positionals } = parse('info', argv, { json: { type: 'boolean' } });
  if (values.help) return out(HELP.info), 0;
  if (positionals.length !== 1) throw new CliError(`info: give exactly one filter file, or - for stdin (see 'bloomcuckoo info --help')`);
  const file = positionals[0];
  const { filter, fileBytes } = await readFilter(file);
  try {
    const d = describe(filter, fileBytes);
    const { info: i } = d;
    if (values.json) {
      await json({ command: 'info', file, ...i, fileBytes, bitsPerKey: finite(d.bitsPerKey), estimatedFpr: finite(d.fpr) });
      return 0;
    }
    const rows = [
      ['file', file],
      ['kind', `${i.kind} (${KINDS[i.kind]?.className ?? '?'})`],
      ['options', shownOptions(i.kind, i).join(' ')],
    ];
    if (i.kind === 'scalable') rows.push(['layers', `${i.layers.length} (capacities ${i.layers.map((l) => count(l.capacity)).join(', ')})`]);
    if (i.kind === 'redis-bloom') rows.push(['chain', `${i.filters} filter(s), capacity ${count(i.capacity)}, BF.INFO size ${count(i.size)} B`]);
    if (i.kind === 'redis-cuckoo') rows.push(['table', `${i.filters} sub-filter(s), ${count(i.buckets)} buckets, CF.INFO size ${count(i.size)} B`]);
    if (i.kind === 'cuckoo') rows.push(['table', `${i.filters} sub-filter(s), ${count(i.buckets)} buckets, load ${percent(i.loadFactor)}`]);
    if (i.kind === 'fuse') rows.push(['table', `${count(i.arrayLength)} fingerprints in ${i.segmentCount} segments of ${i.segmentLength}`]);
    rows.push(
      ['size', `${count(d.held)} keys`],
      ['bytes', `${count(filter.byteLength)} in memory (${bytes(filter.byteLength)}), ${count(fileBytes)} in the file`],
      ['bits/key', Number.isFinite(d.bitsPerKey) ? d.bitsPerKey.toFixed(2) : 'n/a (empty)'],
      ['est. FPR', percent(d.fpr)],
    );
    await out(rows.map(([k, v]) => `${k.padEnd(9)} ${v}\n`).join(''));
  } finally {
    filter.free();
  }
  return 0;
}

// ---- merge ----------------------------------------------------------------------------------

const MERGEABLE = ['bloom', 'blocked'];

export async function merge(argv) {
  const { values, positionals } = parse('merge', argv, {
    output: { type: 'string', short: 'o' }, progress: { type: 'boolean' }, quiet: { type: 'boolean', short: 'q' },
    json: { type: 'boolean' },
  });
  if (values.help) return out(HELP.merge), 0;
  if (positionals.length < 2) throw new CliError(`merge: give at least two filter files (see 'bloomcuckoo merge --help')`);
  if (values.output === undefined) throw new CliError('merge: -o <file> is required (use -o - for stdout)');
  if (positionals.filter(isStdin).length > 1) throw new CliError("merge: stdin can be read only once: give '-' as one input at most");
  jsonNeedsFile('merge', values);
  const filters = [];
  try {
    for (const file of positionals) {
      const { filter } = await readFilter(file);
      filters.push(filter);
      const kind = filter.info().kind;
      if (!MERGEABLE.includes(kind)) {
        throw new CliError(`merge: '${file}' is a ${kind} filter; only ${MERGEABLE.join(' and ')} filters can be merged (unioned)`);
      }
      const first = filters[0];
      if (filter.constructor !== first.constructor) {
        throw new CliError(`merge: '${file}' is a ${kind} filter but '${positionals[0]}' is a ${first.info().kind} filter`);
      }
      if (filters.length > 1) {
        try {
          first.union(filter);
        } catch (err) {
          if (err instanceof FilterError) {
            const shape = (f) => shownOptions(kind, f.info()).filter((s) => !/^(capacity|errorRate)=/.test(s)).join(' ');
            throw new CliError(`merge: '${file}' (${shape(filter)}) cannot be merged with '${positionals[0]}' (${shape(first)}): `
              + 'filters must have the same shape and seed');
          }
          throw err;
        }
      }
    }
    const merged = filters[0];
    await writeOutput(values.output, merged);
    const d = describe(merged);
    if (values.json) {
      await json({ command: 'merge', inputs: positionals, output: values.output, kind: merged.info().kind,
        byteLength: merged.byteLength, fileBytes: (await stat(values.output)).size,
        estimatedSize: merged.estimatedSize(), estimatedFpr: finite(d.fpr) });
    }
    if (chatty(values)) {
      note(values, `merged ${positionals.length} ${merged.info().kind} filters → ${values.output}: `
        + `${bytes(merged.byteLength)}, about ${count(merged.estimatedSize())} keys, est. FPR ${percent(d.fpr)}`);
    }
  } finally {
    for (const f of filters) f.free();
  }
  return 0;
}

