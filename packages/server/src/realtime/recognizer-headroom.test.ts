import { describe, expect, it } from 'vitest';

import type { RecognizerWorkerLoad } from '../asr/recognizer.js';
import {
  BEHIND_SECONDS,
  headroomRefusal,
  RealTimeFactorWindow,
  RecognizerHeadroom,
  UNMEASURED_REAL_TIME_FACTOR,
} from './recognizer-headroom.js';

const worker = (streams: number, backlogSeconds = 0.2): RecognizerWorkerLoad => ({
  streams,
  backlogSeconds,
  decodedSeconds: 100,
  cpuSeconds: 20,
});

describe('the real-time factor the workers measured', () => {
  it('is unknown until they decoded 30 s of audio, and leaves out the CPU of loading the model', () => {
    const window = new RealTimeFactorWindow();
    // Loading the model: CPU, no audio yet.
    window.observe({ atMs: 0, cpuSeconds: 3, decodedSeconds: 0 });
    window.observe({ atMs: 1_000, cpuSeconds: 3.2, decodedSeconds: 1 });
    window.observe({ atMs: 10_000, cpuSeconds: 6.2, decodedSeconds: 16 });
    expect(window.value).toBeNull();
    window.observe({ atMs: 20_000, cpuSeconds: 9.2, decodedSeconds: 31 });
    // 6 s of CPU for 30 s of audio since the first sample with audio; counted from the start, 0.3.
    expect(window.value).toBeCloseTo(0.2, 5);
  });

  it('follows the last two minutes, so a machine that got slower admits fewer streams', () => {
    const window = new RealTimeFactorWindow();
    let cpu = 0;
    let decoded = 1;
    window.observe({ atMs: 0, cpuSeconds: cpu, decodedSeconds: decoded });
    for (let second = 5; second <= 600; second += 5) {
      // Eight streams: 40 s of audio every 5 s, at 0.2 for five minutes and then at 0.4.
      decoded += 40;
      cpu += 40 * (second <= 300 ? 0.2 : 0.4);
      window.observe({ atMs: second * 1_000, cpuSeconds: cpu, decodedSeconds: decoded });
      if (second === 300) expect(window.value).toBeCloseTo(0.2, 5);
    }
    expect(window.value).toBeCloseTo(0.4, 5);
  });

  it('keeps its last figure through a quiet spell', () => {
    const window = new RealTimeFactorWindow();
    window.observe({ atMs: 0, cpuSeconds: 1, decodedSeconds: 1 });
    window.observe({ atMs: 60_000, cpuSeconds: 16, decodedSeconds: 61 });
    expect(window.value).toBeCloseTo(0.25, 5);
    // An hour later, a few seconds decoded since: too little to measure; the figure stays.
    window.observe({ atMs: 3_660_000, cpuSeconds: 16.5, decodedSeconds: 63 });
    window.observe({ atMs: 3_670_000, cpuSeconds: 17, decodedSeconds: 65 });
    expect(window.value).toBeCloseTo(0.25, 5);
  });
});

describe('room for one more stream', () => {
  const limits = { openSessions: 0, maxLoad: 0.8, cores: 2 };

  it('fills two workers to 80% of two cores at the measured factor', () => {
    // 2 cores × 0.8 / 0.2 = 8 streams.
    expect(headroomRefusal([worker(4), worker(3)], 0.2, limits)).toBeNull();
    expect(headroomRefusal([worker(4), worker(4)], 0.2, limits)).toEqual({
      reason: 'full',
      streams: 9,
      capacity: 8,
      realTimeFactor: 0.2,
    });
    // Twice as slow: half the streams.
    expect(headroomRefusal([worker(2), worker(2)], 0.4, limits)).toMatchObject({ reason: 'full', capacity: 4 });
  });

  it('counts sockets not streaming yet, and no more cores than there are workers or cores', () => {
    // Eight sockets accepted at once, none started: the ninth waits.
    expect(headroomRefusal([worker(0), worker(0)], 0.2, { ...limits, openSessions: 8 })).toMatchObject({
      reason: 'full',
      streams: 9,
    });
    // One worker uses one core, however many the machine has; four workers on two cores share them.
    expect(headroomRefusal([worker(4)], 0.2, { ...limits, cores: 8 })).toMatchObject({ capacity: 4 });
    expect(headroomRefusal([worker(1), worker(1), worker(1), worker(1)], 0.2, limits)).toBeNull();
    expect(headroomRefusal([worker(2), worker(2), worker(2), worker(2)], 0.2, limits)).toMatchObject({
      capacity: 8,
    });
  });

  it('takes no stream while even the least busy worker is behind real time', () => {
    // Each worker's streams have 3 s and more waiting, on average.
    expect(headroomRefusal([worker(2, 2 * BEHIND_SECONDS + 1), worker(1, BEHIND_SECONDS)], 0.2, limits)).toEqual({
      reason: 'behind',
      behindSeconds: BEHIND_SECONDS,
    });
    // One worker behind (a resume resent its phrase): the other takes the stream.
    expect(headroomRefusal([worker(1, 8), worker(1, 0.1)], 0.2, limits)).toBeNull();
    // Three streams holding a second each: the worker keeps up with every one of them.
    expect(headroomRefusal([worker(3, 3), worker(3, 3)], 0.2, limits)).toBeNull();
  });

  it('admits by the session cap alone when turned off, or with no workers', () => {
    expect(headroomRefusal([worker(50), worker(50)], 0.2, { ...limits, maxLoad: 0 })).toBeNull();
    expect(headroomRefusal([worker(5, 50), worker(5, 50)], 0.2, { ...limits, maxLoad: 0 })).toBeNull();
    expect(headroomRefusal([], 0.2, limits)).toBeNull();
  });
});

describe('a cold instance', () => {
  const load = (streams: number[]): RecognizerWorkerLoad[] =>
    streams.map((count) => ({ streams: count, backlogSeconds: 0, decodedSeconds: 0, cpuSeconds: 2 }));

  it('admits what the slowest measured machine carries until its workers have measured their own', () => {
    let workers = load([0, 0]);
    const headroom = new RecognizerHeadroom({ load: () => workers }, 0.8, 2);
    // 2 cores × 0.8 / 0.4 = 4 streams, however many sockets a burst brings.
    expect(UNMEASURED_REAL_TIME_FACTOR).toBe(0.4);
    expect(headroom.refusal(3)).toBeNull();
    expect(headroom.refusal(4)).toEqual({
      reason: 'full',
      streams: 5,
      capacity: 4,
      realTimeFactor: UNMEASURED_REAL_TIME_FACTOR,
    });
    // Measured at 0.1 (30 s of audio for 3 s of CPU): four times as many as the assumption.
    workers = [
      { streams: 2, backlogSeconds: 0, decodedSeconds: 1, cpuSeconds: 2 },
      { streams: 2, backlogSeconds: 0, decodedSeconds: 1, cpuSeconds: 2 },
    ];
    headroom.refusal(4);
    workers = workers.map((worker) => ({ ...worker, decodedSeconds: 16, cpuSeconds: 3.5 }));
    expect(headroom.refusal(6)).toBeNull();
    expect(headroom.refusal(16)).toMatchObject({
      reason: 'full',
      capacity: 16,
      realTimeFactor: expect.closeTo(0.1, 5),
    });
  });
});
