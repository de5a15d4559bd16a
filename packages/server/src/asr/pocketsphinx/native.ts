/**
 * The PocketSphinx 5prealpha C API through koffi. Only worker processes import this module: a
 * native fault in the library kills the process that called it, and that must never be the
 * service's event loop.
 */
import koffi from 'koffi';

import { CEPSTRUM_LENGTH } from './cepstral-prior.js';

/** An opaque C pointer; only ever handed back to the library. */
type Pointer = unknown;

// Signatures as in pocketsphinx.h / cmd_ln.h / logmath.h of 5prealpha (Debian's libpocketsphinx3).
// The sphinxbase symbols resolve through the pocketsphinx handle, which pulls libsphinxbase in.
const SIGNATURES = {
  ps_args: 'void *ps_args()',
  cmd_ln_parse_r: 'void *cmd_ln_parse_r(void *inout, void *defn, int argc, const char **argv, int strict)',
  cmd_ln_free_r: 'int cmd_ln_free_r(void *config)',
  ps_init: 'void *ps_init(void *config)',
  ps_free: 'int ps_free(void *ps)',
  ps_start_utt: 'int ps_start_utt(void *ps)',
  ps_end_utt: 'int ps_end_utt(void *ps)',
  ps_process_raw: 'int ps_process_raw(void *ps, const int16_t *data, size_t n, int no_search, int full_utt)',
  ps_get_in_speech: 'uint8_t ps_get_in_speech(void *ps)',
  ps_get_hyp: 'const char *ps_get_hyp(void *ps, _Out_ int32_t *score)',
  ps_seg_iter: 'void *ps_seg_iter(void *ps)',
  ps_seg_next: 'void *ps_seg_next(void *seg)',
  ps_seg_word: 'const char *ps_seg_word(void *seg)',
  ps_seg_frames: 'void ps_seg_frames(void *seg, _Out_ int *sf, _Out_ int *ef)',
  ps_seg_prob: 'int32_t ps_seg_prob(void *seg, _Out_ int32_t *ascr, _Out_ int32_t *lscr, _Out_ int32_t *lback)',
  ps_get_logmath: 'void *ps_get_logmath(void *ps)',
  logmath_exp: 'double logmath_exp(void *lmath, int logb)',
  err_set_logfp: 'void err_set_logfp(void *stream)',
  ps_get_feat: 'void *ps_get_feat(void *ps)',
  cmn_live_get: 'void cmn_live_get(void *cmn, _Out_ float *vec)',
  cmn_live_set: 'void cmn_live_set(void *cmn, const float *vec)',
} as const;

type NativeFunction = ((...args: unknown[]) => unknown) & {
  /** koffi runs the call on a thread of its pool and passes the result to the last argument. */
  async: (...args: unknown[]) => void;
};
type NativeTable = Record<keyof typeof SIGNATURES, NativeFunction>;

export interface Segment {
  word: string;
  /** Frames at 100 per second, counted from the decoder's first sample. */
  startFrame: number;
  endFrame: number;
  /** Log posterior in the decoder's logmath base (from the best-path pass). */
  logProbability: number;
}

/**
 * Where 5prealpha keeps the cepstral normalisation (sphinxbase feat.h and cmn.h, x86-64 and other
 * LP64 layouts). The library has no call to reach it from a decoder, so the offsets are checked
 * against what a fresh decoder of the en-us model must hold before any is used; on a build laid out
 * otherwise the decoder simply does without (see `CepstralNormalisation`).
 */
const FEAT_CEPSIZE = 16;
const FEAT_CMN_TYPE = 68;
const FEAT_CMN = 88;
const CMN_MEAN = 0;
const CMN_SUM = 16;
const CMN_NFRAME = 24;
const CMN_VECLEN = 28;
/** cmn_type_t of a fresh decoder of the en-us model (feat.params `-cmn batch`; streaming turns it live). */
const CMN_BATCH = 1;

/**
 * The decoder's cepstral mean normalisation (CMN). Streaming, the library subtracts a running mean
 * that starts from the model's prior and first moves when an utterance ends: a stream's first
 * utterance is decoded against the prior, whatever microphone and voice it came from (on the
 * development set's real recordings, a sixth of the read sentences' errors and most of the short
 * commands'; docs/realtime.md, "Cepstral normalisation").
 */
class CepstralNormalisation {
  private constructor(
    private readonly fn: NativeTable,
    private readonly cmn: Pointer,
  ) {}

  /** Null when the library's structures are not laid out as this build expects. */
  static of(fn: NativeTable, ps: Pointer): CepstralNormalisation | null {
    const feat = fn.ps_get_feat(ps);
    if (feat === null) return null;
    const cmn = koffi.decode(feat, FEAT_CMN, 'void *') as Pointer;
    const laidOut =
      cmn !== null &&
      koffi.decode(feat, FEAT_CEPSIZE, 'int') === CEPSTRUM_LENGTH &&
      koffi.decode(feat, FEAT_CMN_TYPE, 'int') === CMN_BATCH &&
      koffi.decode(cmn, CMN_VECLEN, 'int') === CEPSTRUM_LENGTH;
    return laidOut ? new CepstralNormalisation(fn, cmn) : null;
  }

  /**
   * The mean of the speech heard so far (within the library's five-to-eight-second window), read
   * from its running sums: the mean it normalises by moves only when an utterance ends, and not
   * after every utterance (not after a short one that ends in silence).
   */
  mean(): number[] {
    const frames = koffi.decode(this.cmn, CMN_NFRAME, 'int') as number;
    if (frames <= 0) {
      const vector = new Float32Array(CEPSTRUM_LENGTH);
      this.fn.cmn_live_get(this.cmn, vector);
      return Array.from(vector);
    }
    const sums = koffi.decode(koffi.decode(this.cmn, CMN_SUM, 'void *'), 'float', CEPSTRUM_LENGTH) as Float32Array;
    return Array.from(sums, (sum) => sum / frames);
  }

  /** A mean heard from this stream's speaker before: it weighs as five seconds of speech. */
  carry(mean: readonly number[]): void {
    this.fn.cmn_live_set(this.cmn, Float32Array.from(mean));
  }

  /** A starting point only: the first utterance's own mean replaces it entirely when that utterance ends. */
  start(mean: readonly number[]): void {
    const vector = koffi.decode(this.cmn, CMN_MEAN, 'void *') as Pointer;
    koffi.encode(vector, 'float', Array.from(mean), CEPSTRUM_LENGTH);
  }
}

/** One decoder: single-threaded by construction (one worker process, one JS thread). */
export class Decoder {
  private freed = false;
  private readonly normalisation: CepstralNormalisation | null;

  constructor(
    private readonly fn: NativeTable,
    private readonly ps: Pointer,
  ) {
    this.normalisation = CepstralNormalisation.of(fn, ps);
  }

  /** The running cepstral mean, to carry into a resumed stream; null where it cannot be reached. */
  cepstralMean(): number[] | null {
    return this.normalisation?.mean() ?? null;
  }

  /**
   * Normalises by `mean` from here on: `carried` from speech this stream heard (it weighs as five
   * seconds of it), or a prior that the first utterance's own mean replaces when it ends.
   */
  setCepstralMean(mean: readonly number[], carried: boolean): void {
    if (mean.length !== CEPSTRUM_LENGTH) return;
    if (carried) this.normalisation?.carry(mean);
    else this.normalisation?.start(mean);
  }

  startUtterance(): void {
    this.check(this.fn.ps_start_utt(this.ps), 'ps_start_utt');
  }

  endUtterance(): void {
    this.check(this.fn.ps_end_utt(this.ps), 'ps_end_utt');
  }

  process(pcm: Int16Array): void {
    this.check(this.fn.ps_process_raw(this.ps, pcm, pcm.length, 0, 0), 'ps_process_raw');
  }

  inSpeech(): boolean {
    return this.fn.ps_get_in_speech(this.ps) !== 0;
  }

  hypothesis(): string {
    const hyp = this.fn.ps_get_hyp(this.ps, [0]);
    return typeof hyp === 'string' ? hyp : '';
  }

  segments(): Segment[] {
    const out: Segment[] = [];
    // ps_seg_next frees the iterator when it returns NULL, so a full walk leaks nothing.
    for (let seg = this.fn.ps_seg_iter(this.ps); seg !== null; seg = this.fn.ps_seg_next(seg)) {
      const start = [0];
      const end = [0];
      this.fn.ps_seg_frames(seg, start, end);
      out.push({
        word: String(this.fn.ps_seg_word(seg)),
        startFrame: start[0] ?? 0,
        endFrame: end[0] ?? 0,
        logProbability: Number(this.fn.ps_seg_prob(seg, [0], [0], [0])),
      });
    }
    return out;
  }

  /**
   * A posterior in the decoder's log base as a 0–1 probability. The lattice's integer log arithmetic
   * rounds, so a near-certain word's log posterior can come out a little above 0 (above 1 as a
   * probability): clamped.
   */
  probability(logProbability: number): number {
    return Math.min(1, Number(this.fn.logmath_exp(this.fn.ps_get_logmath(this.ps), logProbability)));
  }

  free(): void {
    if (this.freed) return;
    this.freed = true;
    this.fn.ps_free(this.ps);
  }

  private check(result: unknown, call: string): void {
    if (typeof result === 'number' && result < 0) throw new Error(`${call} failed (${result})`);
  }
}

export interface PocketSphinxLibrary {
  /**
   * A fresh decoder (fresh cepstral normalisation) from command-line style arguments. The model
   * loads on a thread of koffi's pool (about 0.1 s of CPU), so the calling thread goes on decoding
   * the streams it has meanwhile.
   */
  createDecoder(args: readonly string[]): Promise<Decoder>;
  /**
   * Hands the heap's free pages back to the system (glibc's malloc_trim): a freed decoder's ~40 MB
   * otherwise stays in the worker's arenas, so a worker that once carried many streams kept their
   * memory for good. A no-op where the C library has no malloc_trim.
   */
  releaseFreeMemory(): void;
}

/** glibc's allocator controls, or null on a C library without them (musl). */
interface GlibcMalloc {
  trim(pad: number): number;
  mallopt(param: number, value: number): number;
}

function glibcMalloc(): GlibcMalloc | null {
  try {
    const libc = koffi.load('libc.so.6');
    return {
      trim: libc.func('int malloc_trim(size_t pad)') as GlibcMalloc['trim'],
      mallopt: libc.func('int mallopt(int param, int value)') as GlibcMalloc['mallopt'],
    };
  } catch {
    return null;
  }
}

/** mallopt's M_MMAP_THRESHOLD (glibc malloc.h). */
const M_MMAP_THRESHOLD = -3;
/**
 * glibc's own starting threshold, fixed. Left to itself, glibc raises the threshold each time an
 * mmapped block is freed (up to 32 MB), so once a stream's decoder had been freed, the next
 * decoders' large tables went on the heap, where the spare decoder loading beside them pinned the
 * pages: a worker that carried 8 streams three times kept 1.3–1.4 times its idle memory after
 * them. Setting a threshold turns the raising off; large blocks stay mmapped and go back to the
 * system when freed (1.04 times idle, no CPU cost measured; docs/performance.md).
 */
const MMAP_THRESHOLD_BYTES = 128 * 1024;

/**
 * dlopen()s the library and binds the API; throws if the library or a symbol is missing. Switches
 * the library's log off for the whole process: it would hold hypotheses (transcripts). That is done
 * here, once, and never with `-logfn`: ps_init would then swap and fclose() the process-wide log
 * file, which another thread's decoder may be writing to while a new decoder loads.
 */
export function loadPocketSphinx(libraryPath: string): PocketSphinxLibrary {
  const lib = koffi.load(libraryPath);
  const fn = Object.fromEntries(
    Object.entries(SIGNATURES).map(([name, signature]) => [name, lib.func(signature) as NativeFunction]),
  ) as NativeTable;
  fn.err_set_logfp(null);
  const malloc = glibcMalloc();
  malloc?.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES);
  return {
    releaseFreeMemory() {
      malloc?.trim(0);
    },
    async createDecoder(args) {
      const config = fn.cmd_ln_parse_r(null, fn.ps_args(), args.length, args, 1);
      if (config === null) throw new Error('PocketSphinx rejected its configuration');
      try {
        const ps = await new Promise<Pointer>((resolve, reject) => {
          fn.ps_init.async(config, (error: unknown, result: Pointer) => {
            if (error === null || error === undefined) resolve(result);
            else reject(error instanceof Error ? error : new Error('ps_init failed on its thread'));
          });
        });
        if (ps === null) throw new Error('PocketSphinx could not load its model');
        return new Decoder(fn, ps);
      } finally {
        // ps_init retains the configuration; our reference is released either way.
        fn.cmd_ln_free_r(config);
      }
    },
  };
}
