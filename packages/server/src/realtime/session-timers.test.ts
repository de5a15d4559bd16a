import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Timer } from './session-machine/index.js';
import { SessionTimers } from './session-timers.js';

describe('SessionTimers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires a timer once, and a timer scheduled again under its name replaces it', () => {
    const fired: Timer[] = [];
    const timers = new SessionTimers((timer) => fired.push(timer));
    timers.schedule({ name: 'idle' }, 1000, false);
    vi.advanceTimersByTime(900);
    timers.schedule({ name: 'idle' }, 1000, false);
    vi.advanceTimersByTime(900);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(5000);
    expect(fired).toEqual([{ name: 'idle' }]);
  });

  it('repeats a repeating timer until cleared, and clears one name or all', () => {
    const fired: string[] = [];
    const timers = new SessionTimers((timer) => fired.push(timer.name));
    timers.schedule({ name: 'credential_check' }, 100, true);
    timers.schedule({ name: 'flush' }, 250, false);
    timers.schedule({ name: 'session_limit' }, 250, false);
    vi.advanceTimersByTime(200);
    timers.clear('flush');
    vi.advanceTimersByTime(100);
    timers.clearAll();
    vi.advanceTimersByTime(1000);
    expect(fired).toEqual(['credential_check', 'credential_check', 'session_limit', 'credential_check']);
  });
});
