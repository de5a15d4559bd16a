import { describe, expect, it } from 'vitest';

import { serverSentEvents, type ServerSentEvent } from './server-sent-events.js';

/** The events of `text` arriving in chunks of `chunkBytes` bytes, as a network may split it. */
async function eventsOf(text: string, chunkBytes = Infinity): Promise<ServerSentEvent[]> {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let offset = 0; offset < bytes.length; offset += Math.min(chunkBytes, bytes.length)) {
        controller.enqueue(bytes.slice(offset, offset + chunkBytes));
      }
      controller.close();
    },
  });
  const events: ServerSentEvent[] = [];
  for await (const event of serverSentEvents(body)) events.push(event);
  return events;
}

describe('serverSentEvents', () => {
  it('reads events split anywhere across chunks, skipping comments, with CRLF or LF line ends', async () => {
    const text =
      ': keep-alive\n\nevent: status\r\ndata: {"status":"queued"}\r\n\r\nevent: note\ndata: {"a":\ndata: 1}\n\n';
    const expected = [
      { event: 'status', data: '{"status":"queued"}' },
      { event: 'note', data: '{"a":\n1}' },
    ];
    expect(await eventsOf(text)).toEqual(expected);
    expect(await eventsOf(text, 5)).toEqual(expected);
    // One byte at a time: a two-byte character and a CRLF split between chunks.
    expect(await eventsOf('event: section\r\ndata: "é"\r\n\r\n', 1)).toEqual([{ event: 'section', data: '"é"' }]);
  });

  it('names an event without `event:` message, and drops a block cut off by the end of the stream', async () => {
    expect(await eventsOf('data: x\n\ndata: never ended')).toEqual([{ event: 'message', data: 'x' }]);
  });
});
