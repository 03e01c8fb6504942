// A loopback TCP proxy in front of a Redis, for losing a reply on purpose: every connection is
// passed through both ways, until cutReplyAfter(marker) is armed; then the first connection whose
// client sends bytes containing `marker` (a string, or a RegExp tested on the bytes as latin1) has the server's next reply dropped and both of its
// sockets closed, as a network failure between the server's write and the client's read would:
// the server applied the command, the client never hears of it. Later connections pass through.
//   const proxy = await startProxy(redisPort);  proxy.port;  const cut = proxy.cutReplyAfter('k');
//   await cut;  // resolves once a reply was dropped;  await proxy.close();
// holdRepliesAfter(marker) instead stalls that connection: what its client sends still reaches the
// server, the server's replies from then on never reach the client (a server stalled mid-command,
// as seen by that client), until the connection closes.
import { connect, createServer } from 'node:net';

export async function startProxy(targetPort) {
  const pairs = new Set();
  let armed = null;   // { marker, resolve, hold }
  const server = createServer((down) => {
    const up = connect(targetPort, '127.0.0.1');
    const pair = { down, up, cutting: false };
    pairs.add(pair);
    const drop = () => { pairs.delete(pair); down.destroy(); up.destroy(); };
    down.on('error', drop);
    up.on('error', drop);
    down.on('close', drop);
    up.on('close', drop);
    down.on('data', (d) => {
      if (armed && !pair.cutting && (armed.marker instanceof RegExp ? armed.marker.test(d.toString('latin1')) : d.includes(armed.marker))) {
        pair.cutting = armed;
        armed = null;
      }
      up.write(d);
    });
    up.on('data', (d) => {
      if (pair.cutting?.hold) {
        pair.cutting.resolve(d.length);
        return;
      }
      if (pair.cutting) {
        const { resolve } = pair.cutting;
        drop();
        resolve(d.length);
        return;
      }
      down.write(d);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: server.address().port,
    /** Resolves (the dropped reply's size) once a connection sent `marker` and its reply was dropped. */
    cutReplyAfter(marker) {
      return new Promise((resolve) => { armed = { marker: marker instanceof RegExp ? marker : Buffer.from(marker), resolve }; });
    },
    /** Resolves (the first withheld reply's size) once a connection sent `marker`: its replies are withheld from then on. */
    holdRepliesAfter(marker) {
      return new Promise((resolve) => {
        let first = true;
        armed = { marker: marker instanceof RegExp ? marker : Buffer.from(marker), hold: true, resolve: (n) => { if (first) resolve(n); first = false; } };
      });
    },
    async close() {
      for (const p of pairs) { p.down.destroy(); p.up.destroy(); }
      await new Promise((resolve) => { server.close(() => resolve()); });
    },
  };
}
