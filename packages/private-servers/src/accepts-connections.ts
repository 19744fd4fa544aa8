import { connect } from 'node:net';

/** Whether something accepts TCP connections on `port` of 127.0.0.1: a server started in a child process is up. */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
