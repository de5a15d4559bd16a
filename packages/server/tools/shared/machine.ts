import { arch, availableParallelism, cpus, release, totalmem, type as osType } from 'node:os';

/** Figures are only comparable on the same machine, so every run says which one it was. */
export function describeMachine(): string[] {
  const models = [...new Set(cpus().map((cpu) => cpu.model.trim()))];
  return [
    `CPU:    ${models.join(' + ') || 'unknown'}`,
    `Cores:  ${availableParallelism()} available (${cpus().length} logical)`,
    `Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `OS:     ${osType()} ${release()} ${arch()}`,
    `Node:   ${process.version}`,
  ];
}
