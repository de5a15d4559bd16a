/** One Server-Sent Event: its `event:` name (`message` when none was given) and its `data:` lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/** The event a block of lines (between blank lines) makes, or null for a block of comments only. */
function eventOf(block: string): ServerSentEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? null : { event, data: data.join('\n') };
}

/**
 * The events of a `text/event-stream` body as they arrive (the HTML standard's format: `event:` and
 * `data:` fields, blocks ended by a blank line, `:` comments skipped). Reads with the stream's own
 * reader, which Node 18's fetch and browsers both give.
 */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A CR that ends a chunk may be half of a CRLF: it waits for the next chunk to be read as one.
      const held = !done && buffered.endsWith('\r') ? '\r' : '';
      buffered = buffered.slice(0, buffered.length - held.length).replace(/\r\n?/g, '\n');
      let end = buffered.indexOf('\n\n');
      while (end !== -1) {
        const event = eventOf(buffered.slice(0, end));
        buffered = buffered.slice(end + 2);
        if (event !== null) yield event;
        end = buffered.indexOf('\n\n');
      }
      buffered += held;
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}
