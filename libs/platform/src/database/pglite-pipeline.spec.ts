import { describe, expect, it } from '@jest/globals';
import { NotificationTap } from './pglite-pipeline.js';

/** A backend message: type, length (itself included), body. */
function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeUInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}
const notification = (channel: string, payload: string) =>
  message('A', Buffer.concat([Buffer.from([0, 0, 0, 42]), Buffer.from(`${channel}\0${payload}\0`)]));

describe('NotificationTap', () => {
  const output = Buffer.concat([
    message('C', Buffer.from('SELECT 1\0')),
    notification('bullmq_jobs', 'queue-a'),
    message('D', Buffer.alloc(300, 7)),
    notification('bullmq_jobs', 'queue-b'),
    message('Z', Buffer.from('I')),
  ]);

  it('given one chunk, hands over each NotificationResponse whole and nothing else', () => {
    const found: Buffer[] = [];
    new NotificationTap((m) => found.push(m)).push(output);
    expect(found).toEqual([notification('bullmq_jobs', 'queue-a'), notification('bullmq_jobs', 'queue-b')]);
  });

  it('given the output cut at every byte, finds the same two', () => {
    for (const size of [1, 2, 3, 4, 5, 6, 7, 13, 64]) {
      const found: Buffer[] = [];
      const tap = new NotificationTap((m) => found.push(m));
      for (let i = 0; i < output.length; i += size) tap.push(new Uint8Array(output.subarray(i, i + size)));
      expect([size, found]).toEqual([
        size,
        [notification('bullmq_jobs', 'queue-a'), notification('bullmq_jobs', 'queue-b')],
      ]);
    }
  });

  it('given a chunk whose buffer is reused after the call, keeps its own copy', () => {
    const found: Buffer[] = [];
    const chunk = Buffer.from(notification('c', 'p'));
    new NotificationTap((m) => found.push(m)).push(chunk);
    chunk.fill(0);
    expect(found).toEqual([notification('c', 'p')]);
  });
});
