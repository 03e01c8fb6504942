// The child side of the tests' worker processes (tests/fleet/worker.mjs, tests/redis/cluster-writer.mjs):
// each IPC request { id, op, ... } is answered with { id, ok: true, value } or { id, ok: false, code,
// message }; `close` is not answered (the process must then exit by itself). `ready` is sent first.
export function serveRequests(handlers, ready = {}) {
  process.on('message', async (msg) => {
    try {
      const value = await handlers[msg.op](msg);
      if (msg.op !== 'close') process.send({ id: msg.id, ok: true, value });
    } catch (err) {
      process.send({ id: msg.id, ok: false, code: err?.code, message: String(err?.message ?? err) });
    }
  });
  process.send({ ready: true, ...ready });
}

/** The `close` request's work: the replica, then the client, then the IPC channel. */
export async function closeAll(replica, closeClient) {
  await replica.close();
  await Promise.resolve(closeClient()).catch(() => {});
  process.removeAllListeners('message');
  process.disconnect();
}
