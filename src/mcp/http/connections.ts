/**
 * The HTTP server's connections, bounded: at most `most` in all and `perAddress` from one client
 * address. A new connection from an address at its cap is closed at once. One that finds the server
 * full closes, in its place, the connection that has waited longest for a request's headers (a
 * slow sender, or an idle keep-alive one), so that slow senders spread over many addresses cannot
 * hold every slot; only when every connection is answering a request is the new one closed.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionBounds {
  /** Connections open at once, idle keep-alive ones included. */
  most: number;
  /** Connections open at once from one client address. */
  perAddress: number;
}

export function boundConnections(server: Server, { most, perAddress }: ConnectionBounds): void {
  const byAddress = new Map<string, number>();
  const open = new Set<Socket>();
  // Waiting for a request's headers, oldest first (a Map keeps the order of insertion).
  const waiting = new Map<Socket, true>();
  const wait = (socket: Socket) => {
    waiting.delete(socket);
    if (!socket.destroyed) waiting.set(socket, true);
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const fromAddress = byAddress.get(address) ?? 0;
    if (fromAddress >= perAddress) return void socket.destroy();
    if (open.size >= most) {
      const longest = waiting.keys().next().value;
      if (longest === undefined) return void socket.destroy();
      longest.destroy();
      waiting.delete(longest);
      open.delete(longest);
    }
    open.add(socket);
    byAddress.set(address, fromAddress + 1);
    wait(socket);
    socket.once('close', () => {
      // A connection closed in another's place has left `open` already; its address still counts down.
      open.delete(socket);
      waiting.delete(socket);
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left === 0) byAddress.delete(address);
      else byAddress.set(address, left);
    });
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    waiting.delete(socket);
    res.once('close', () => wait(socket));
  });
}
