/**
 * CPU seconds a process has used (user + system), from /proc/<pid>/stat: how the evaluation
 * measures each recognizer worker, so two vocabularies decoding side by side are compared by the
 * work each did rather than by wall time on a shared machine; and its resident memory, for the
 * benchmark's per-stream and after-the-streams figures. Linux only; null elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticksPerSecond;
}

export function processCpuSeconds(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may contain spaces; fields are counted after its closing bracket.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  if (!Number.isFinite(user) || !Number.isFinite(system)) return null;
  return (user + system) / clockTicks();
}

/** Resident memory of a process in bytes, from /proc/<pid>/status (VmRSS); null when it cannot be read. */
export function processRssBytes(pid: number): number | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kilobytes = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  return kilobytes === undefined ? null : Number(kilobytes) * 1024;
}
