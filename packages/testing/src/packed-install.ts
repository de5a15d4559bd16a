import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The repository's root: its packages and the node_modules a user's project never sees. */
export const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * A registry address nothing listens on: an install that tried to reach a registry fails at once
 * instead of quietly downloading what the tarballs should have held.
 */
const NO_REGISTRY = 'http://127.0.0.1:9/';

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const manifestOf = (directory: string): Manifest =>
  JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Manifest;

/** Where Node would find `name` from `directory`: the nearest node_modules that holds it. */
function installedDirectory(name: string, from: string): string | undefined {
  for (let directory = from; ; directory = dirname(directory)) {
    const candidate = join(directory, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(directory) === directory) return undefined;
  }
}

/**
 * The directories of every third-party package the workspaces need at run time, transitively, as
 * this checkout installed them: each is packed beside the workspaces so the user's project installs
 * with no registry. Optional dependencies absent here (another platform's binaries) stay absent.
 */
function runtimeDependencies(workspaceDirectories: readonly string[]): string[] {
  const workspaceNames = new Set(workspaceDirectories.map((directory) => manifestOf(directory).name));
  const found = new Map<string, string>();
  const visit = (directory: string): void => {
    const manifest = manifestOf(directory);
    const wanted = { ...manifest.dependencies, ...manifest.optionalDependencies };
    for (const name of Object.keys(wanted)) {
      if (workspaceNames.has(name)) continue;
      const dependency = installedDirectory(name, directory);
      if (dependency === undefined) {
        if (manifest.optionalDependencies?.[name] !== undefined) continue;
        throw new Error(`${manifest.name} needs ${name}, which this checkout has not installed`);
      }
      const key = `${name}@${manifestOf(dependency).version}`;
      if (found.has(key)) continue;
      found.set(key, dependency);
      visit(dependency);
    }
  };
  workspaceDirectories.forEach(visit);
  return [...found.values()];
}

/** Packs each directory into `destination`, as `npm publish` would pack it; returns the tarballs' paths. */
async function pack(directories: readonly string[], destination: string): Promise<string[]> {
  const { stdout } = await run(
    npm,
    ['pack', '--json', '--ignore-scripts', '--pack-destination', destination, ...directories],
    { cwd: destination, maxBuffer: 64 * 1024 * 1024 },
  );
  return (JSON.parse(stdout) as { filename: string }[]).map((entry) => join(destination, entry.filename));
}

export interface InstallOptions {
  /** Fields of the project's own package.json (`allowScripts` for the native modules it builds). */
  manifest?: Record<string, unknown>;
  /**
   * Where the third-party dependencies come from: `packed` from this checkout's install, with no
   * registry at all (default); `registry` from npm's cache or the registry, as an operator's install
   * gets them, for a tree too large to lay out by hand (two versions of one package side by side).
   */
  thirdParty?: 'packed' | 'registry';
}

export interface PackedProject {
  /** The user's project: a temporary directory outside this repository, with the packages installed. */
  readonly directory: string;
  /** The workspaces' tarballs, by package name, as a registry would serve them. */
  readonly tarballs: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * Packs the named workspaces (`packages/client`, …; built beforehand) and installs the tarballs into
 * a new project in the system's temporary directory, where nothing of this repository's
 * node_modules can be reached: what a user gets from `npm install`.
 */
export async function installPackedPackages(
  workspaces: readonly string[],
  options: InstallOptions = {},
): Promise<PackedProject> {
  const root = await mkdtemp(join(tmpdir(), 'chartwright-packed-'));
  try {
    const tarballDirectory = join(root, 'tarballs');
    const directory = join(root, 'project');
    await Promise.all([mkdir(tarballDirectory), mkdir(directory)]);
    const workspaceDirectories = workspaces.map((workspace) => join(REPOSITORY, workspace));
    const packed = await pack(workspaceDirectories, tarballDirectory);
    const offline = (options.thirdParty ?? 'packed') === 'packed';
    const dependencies = offline ? await pack(runtimeDependencies(workspaceDirectories), tarballDirectory) : [];
    await writeFile(
      join(directory, 'package.json'),
      `${JSON.stringify({ name: 'chartwright-user', private: true, ...options.manifest }, null, 2)}\n`,
    );
    const source = offline ? ['--offline', `--registry=${NO_REGISTRY}`] : ['--prefer-offline'];
    await run(npm, ['install', ...source, '--no-audit', '--no-fund', ...packed, ...dependencies], {
      cwd: directory,
      maxBuffer: 64 * 1024 * 1024,
    });
    const tarballs = Object.fromEntries(
      workspaceDirectories.map((workspace, index) => [manifestOf(workspace).name, packed[index] ?? '']),
    );
    return { directory, tarballs, close: () => rm(root, { recursive: true, force: true }) };
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}
