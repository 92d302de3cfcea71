/**
 * Whether the client left before its answer: it aborted, or its connection was closed (Bun's
 * idle timeout cuts a client that stops sending). The request's signal says so, whatever step
 * was running: a body read that fails then is the client's doing, not ours, so it is logged as
 * client_abort with nginx's 499 ("client closed request") instead of an unhandled 500.
 */
export function clientGone(request: Request): boolean {
  return request.signal.aborted;
}
