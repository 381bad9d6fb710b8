// @ts-check
/**
 * Loaded into a server on stdio (`node --import` this file) by tools/bench/timeline.mjs: times
 * each tools/call from outside the server's code, at the three places every server has: the
 * request's bytes read from stdin, the upstream request written to its socket, the upstream
 * answer's first bytes read, and the result written to stdout. Calls must come one at a time. The
 * first TIMELINE_SKIP calls are not recorded; each recorded call's three spans (ms) are written as
 * JSON to TIMELINE_OUT when the process ends.
 */
import { writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';

const skip = Number(process.env.TIMELINE_SKIP ?? 0);
const recorded = [];
let seen = 0;
/** The call under way: when its request was read, its upstream request written, its answer's first bytes read. */
let call;

const push = Readable.prototype.push;
Readable.prototype.push = function (chunk, encoding) {
  const now = performance.now();
  if (chunk && this === process.stdin && String(chunk).includes('"tools/call"')) call = { read: now };
  else if (chunk && this instanceof Socket && call?.sent !== undefined && call.answered === undefined)
    call.answered = now;
  return push.call(this, chunk, encoding);
};

const write = Socket.prototype.write;
Socket.prototype.write = function (...args) {
  const now = performance.now();
  if (this === process.stdout && call?.answered !== undefined) {
    if (++seen > skip) recorded.push([call.sent - call.read, call.answered - call.sent, now - call.answered]);
    call = undefined;
  } else if (this !== process.stdout && call !== undefined && call.sent === undefined) call.sent = now;
  return write.apply(this, args);
};

let written = false;
function save() {
  if (written) return;
  written = true;
  writeFileSync(process.env.TIMELINE_OUT, JSON.stringify(recorded));
}
process.on('exit', save);
process.on('SIGTERM', () => {
  save();
  process.exit(0);
});
