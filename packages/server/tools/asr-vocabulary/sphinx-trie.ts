/**
 * Reads a PocketSphinx 5prealpha binary language model (`.lm.bin`, "Trie Language Model", the
 * format of Debian's stock en-us model). Needed because `sphinx_lm_convert` aborts converting that
 * very model to ARPA: its header counts six more bigrams than its trie holds (cmusphinx/pocketsphinx
 * #502). This walks the trie itself, as the library's own ARPA writer does, and so reads what is
 * really there.
 *
 * Layout (sphinxbase lm_trie.c, lm_trie_quant.c, ngram_model_trie.c): the header text, the order
 * (uint8), the header counts (uint32 each); a quantizer (int32, then 65,536-entry float tables: prob
 * and backoff per middle order, prob for the top order); unigrams (count + 1 of {float prob, float
 * backoff, uint32 first child}); bit-packed middle and top-order arrays; the word strings. Paths run
 * from the predicted word back through its history, so the trie path (c, b, a) is the n-gram "a b c".
 * Probabilities are stored in the library's log base 1.0001.
 */
import { emptyModel, packKey, setNgram, type BackoffModel } from './backoff-model.js';

const HEADER = 'Trie Language Model';
const QUANT_BITS = 16;
const BINS = 2 ** QUANT_BITS;
/** log10 of the library's default log base (1.0001), in which the file stores scores. */
const LOG10_BASE = Math.log10(1.0001);

export class TrieFormatError extends Error {
  override readonly name = 'TrieFormatError';
}

function requiredBits(max: number): number {
  let bits = 0;
  for (let rest = max; rest > 0; rest = Math.floor(rest / 2)) bits++;
  return bits;
}

/** A bit-packed array: entries of `totalBits`, read little-endian at any bit offset. */
class BitArray {
  constructor(
    private readonly buffer: Buffer,
    private readonly start: number,
  ) {}

  read(bitOffset: number, bits: number): number {
    const byte = this.start + Math.floor(bitOffset / 8);
    const shift = bitOffset % 8;
    // At most 25 bits from any bit offset fit in one 32-bit read (the library reads the same way).
    return (this.buffer.readUInt32LE(byte) >>> shift) & (2 ** bits - 1);
  }
}

function arrayBytes(entries: number, totalBits: number): number {
  // One extra entry holds the end of the last child range; 8 bytes of slack for unaligned reads.
  return Math.floor(((1 + entries) * totalBits + 7) / 8) + 8;
}

export function readSphinxTrie(buffer: Buffer): BackoffModel {
  if (buffer.toString('latin1', 0, HEADER.length) !== HEADER) {
    throw new TrieFormatError('not a PocketSphinx trie language model');
  }
  let offset = HEADER.length;
  const order = buffer.readUInt8(offset);
  offset += 1;
  if (order !== 3) throw new TrieFormatError(`only trigram models are supported (this one is order ${order})`);
  const counts = [0, 1, 2].map((i) => buffer.readUInt32LE(offset + 4 * i));
  offset += 4 * order;
  const [unigramCount = 0, bigramCount = 0, trigramCount = 0] = counts;

  offset += 4; // quantizer header (unused)
  const table = (index: number): Float32Array =>
    new Float32Array(
      buffer.buffer.slice(
        buffer.byteOffset + offset + index * BINS * 4,
        buffer.byteOffset + offset + (index + 1) * BINS * 4,
      ),
    );
  const bigramProbBins = table(0);
  const bigramBackoffBins = table(1);
  const trigramProbBins = table(2);
  offset += 3 * BINS * 4;

  const unigramAt = offset;
  offset += (unigramCount + 1) * 12;

  const wordBits = requiredBits(unigramCount);
  const nextBits = requiredBits(trigramCount);
  const middleBits = wordBits + 2 * QUANT_BITS + nextBits;
  const middle = new BitArray(buffer, offset);
  offset += arrayBytes(bigramCount, middleBits);
  const longestBits = wordBits + QUANT_BITS;
  const longest = new BitArray(buffer, offset);
  offset += arrayBytes(trigramCount, longestBits);

  const stringBytes = buffer.readInt32LE(offset);
  offset += 4;
  const words = buffer
    .toString('latin1', offset, offset + stringBytes)
    .split('\0')
    .slice(0, unigramCount);
  if (words.length !== unigramCount || offset + stringBytes !== buffer.length) {
    throw new TrieFormatError('the word list does not match the header counts');
  }

  const model = emptyModel(words, order);
  const [unigrams, bigrams, trigrams] = model.tables;
  if (unigrams === undefined || bigrams === undefined || trigrams === undefined) throw new TrieFormatError('no tables');
  const toLog10 = (value: number): number => value * LOG10_BASE;
  const unigramNext = (id: number): number => buffer.readUInt32LE(unigramAt + id * 12 + 8);

  for (let last = 0; last < unigramCount; last++) {
    const at = unigramAt + last * 12;
    setNgram(unigrams, last, toLog10(buffer.readFloatLE(at)), toLog10(buffer.readFloatLE(at + 4)));
    for (let b = unigramNext(last); b < unigramNext(last + 1); b++) {
      const bit = b * middleBits;
      const previous = middle.read(bit, wordBits);
      const backoff = bigramBackoffBins[middle.read(bit + wordBits, QUANT_BITS)] ?? 0;
      const prob = bigramProbBins[middle.read(bit + wordBits + QUANT_BITS, QUANT_BITS)] ?? 0;
      setNgram(bigrams, packKey([previous, last]), toLog10(prob), toLog10(backoff));
      const childStart = middle.read(bit + wordBits + 2 * QUANT_BITS, nextBits);
      const childEnd = middle.read(bit + middleBits + wordBits + 2 * QUANT_BITS, nextBits);
      for (let t = childStart; t < childEnd; t++) {
        const first = longest.read(t * longestBits, wordBits);
        const trigramProb = trigramProbBins[longest.read(t * longestBits + wordBits, QUANT_BITS)] ?? 0;
        setNgram(trigrams, packKey([first, previous, last]), toLog10(trigramProb));
      }
    }
  }
  return model;
}
