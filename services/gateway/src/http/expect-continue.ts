import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Takes `Expect: 100-continue` out of Node's hands: by default it tells every such client to
 * send its body at once, before anything is checked. With this the app decides per request
 * (`sendContinue`), so an upload refused from its headers never has its body sent at all.
 */
export function deferContinue(server: Server): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) =>
    server.emit('request', req, res),
  );
}

/** Tells a client waiting with `Expect: 100-continue` to send its body; once, and only then. */
export function sendContinue(req: IncomingMessage, res: ServerResponse): void {
  const state = req as IncomingMessage & { continueSent?: true };
  if (state.continueSent || !/^\s*100-continue\s*$/i.test(String(req.headers.expect ?? ''))) return;
  state.continueSent = true;
  res.writeContinue();
}
