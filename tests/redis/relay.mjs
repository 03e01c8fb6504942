// A loopback TCP relay in front of a Redis whose server-side connection can be replaced under a
// client, for a write and its WAIT on two different connections: every client connection is passed
// through both ways to a connection of its own to the server, until newConnectionAfter(marker) is
// armed; then the first client connection that sends bytes containing `marker` (latin1) gets the
// server's next reply as usual, after which its server-side connection is closed and a new one
// opened for what that client sends next. The client's own socket stays up, so what it sends next
// (a WAIT) runs, deterministically, on a server connection that made no write, as after a
// transparent reconnect of the client library (or of a proxy between it and Redis).
//   const relay = await startRelay(redisPort);  relay.port;  const swapped = relay.newConnectionAfter('k');
//   await swapped;  // resolves once the connection was replaced;  await relay.close();
// closeAfter(marker) closes the client's socket instead, right after the reply: the client library
// reconnects by itself (whether its WAIT then goes on the old socket or the new one is its timing).
import { connect, createServer } from 'node:net';

export async function startRelay(targetPort) {
  const pairs = new Set();
  let armed = null;   // { marker, resolve }
  const server = createServer((down) => {
    const pair = { down, up: null, swapping: null };
    pairs.add(pair);
    const drop = () => { pairs.delete(pair); down.destroy(); pair.up?.destroy(); };
    const open = () => {
      const up = connect(targetPort, '127.0.0.1');
      pair.up = up;
      const gone = () => { if (pair.up === up) drop(); };
      up.on('error', gone);
      up.on('close', gone);
      up.on('data', (d) => {
        if (pair.up !== up) return;
        down.write(d);
        if (pair.swapping) {
          const { resolve, close } = pair.swapping;
          pair.swapping = null;
          if (close) {     // the client's own socket closed too, once the reply is flushed: it reconnects
            down.end();
            up.destroy();
          } else {
            open();        // the next bytes go to a new server connection
            up.destroy();  // the old one, which made the write, is gone
          }
          resolve();
        }
      });
    };
    open();
    down.on('error', drop);
    down.on('close', drop);
    down.on('data', (d) => {
      if (armed && !pair.swapping && d.toString('latin1').includes(armed.marker)) {
        pair.swapping = armed;
        armed = null;
      }
      pair.up.write(d);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: server.address().port,
    /** Resolves once a client connection sent `marker`, got the reply, and its server connection was replaced. */
    newConnectionAfter(marker) {
      return new Promise((resolve) => { armed = { marker, resolve }; });
    },
    /** The same, but the client's socket is closed (after the reply), so the client library reconnects itself. */
    closeAfter(marker) {
      return new Promise((resolve) => { armed = { marker, resolve, close: true }; });
    },
    async close() {
      for (const p of pairs) { p.down.destroy(); p.up?.destroy(); }
      await new Promise((resolve) => { server.close(() => resolve()); });
    },
  };
}
