#!/usr/bin/env node
/**
 * `pnpm start`: builds what is out of date, then runs the server (which serves the built web app).
 *
 * A package is rebuilt when its build output is missing or older than one of its inputs: its sources,
 * its manifest and TypeScript settings, the workspace's lockfile and shared settings, or the build of
 * a workspace package it depends on. A later start on unchanged sources builds nothing, so the portal
 * answers in seconds instead of after a full build. `--dry-run` prints what would be built and stops.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/**
 * The workspace's packages in build order: where each build writes its entry file (the newest of its
 * outputs, checked for age), and what it is built from.
 */
export const PACKAGES = [
  {
    name: '@compliance-portal/sdk',
    dir: 'packages/sdk',
    output: 'dist/index.js',
    inputs: ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'],
    dependsOn: [],
  },
  {
    name: '@compliance-portal/m365-simulator',
    dir: 'packages/m365-simulator',
    output: 'dist/cli.js',
    inputs: ['src', 'metadata', 'package.json', 'tsconfig.json', 'tsconfig.build.json'],
    dependsOn: [],
  },
  {
    name: '@compliance-portal/server',
    dir: 'packages/server',
    output: 'dist/server.js',
    inputs: ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'],
    dependsOn: ['@compliance-portal/sdk', '@compliance-portal/m365-simulator'],
  },
  {
    name: '@compliance-portal/web',
    dir: 'packages/web',
    output: 'dist/index.html',
    inputs: ['src', 'public', 'build', 'index.html', 'vite.config.ts', 'package.json', 'tsconfig.json'],
    // The simulator only for the browser tests (a standalone Microsoft cloud in e2e/first-hour).
    dependsOn: ['@compliance-portal/sdk', '@compliance-portal/m365-simulator'],
  },
];

/** Inputs every package shares: the installed dependencies and the common compiler settings. */
export const SHARED_INPUTS = ['pnpm-lock.yaml', 'tsconfig.base.json'];

/** The newest modification time (ms) under `path`, a file or a folder walked whole; 0 when absent. */
export function newestModification(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestModification(join(path, entry)));
  }
  return newest;
}

/**
 * Why each package must be built, in build order: `[{ name, reason }]`, empty when every build is
 * current. `workspace` is the folder the package paths are relative to.
 */
export function outOfDate(workspace = root, packages = PACKAGES, shared = SHARED_INPUTS) {
  const sharedNewest = Math.max(0, ...shared.map((input) => newestModification(join(workspace, input))));
  const built = new Map();
  const stale = [];
  for (const pkg of packages) {
    const output = join(workspace, pkg.dir, pkg.output);
    const outputTime = existsSync(output) ? statSync(output).mtimeMs : undefined;
    let reason;
    if (outputTime === undefined) {
      reason = `${pkg.dir}/${pkg.output} is missing`;
    } else {
      const changed = pkg.inputs.find((input) => newestModification(join(workspace, pkg.dir, input)) > outputTime);
      const rebuiltDependency = pkg.dependsOn.find(
        (name) => stale.some((s) => s.name === name) || (built.get(name) ?? 0) > outputTime,
      );
      if (changed) reason = `${pkg.dir}/${changed} changed since the last build`;
      else if (sharedNewest > outputTime) reason = 'the installed dependencies or shared settings changed';
      else if (rebuiltDependency) reason = `${rebuiltDependency} was built since`;
    }
    if (reason) stale.push({ name: pkg.name, reason });
    built.set(pkg.name, outputTime ?? Number.POSITIVE_INFINITY);
  }
  return stale;
}

function run(command, args) {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.once('error', fail);
    child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  const checked = performance.now();
  const stale = outOfDate();
  if (stale.length === 0) {
    console.log(`Every build is current (checked in ${Math.round(performance.now() - checked)} ms).`);
  } else {
    for (const { name, reason } of stale) console.log(`Building ${name}: ${reason}.`);
  }
  if (process.argv.includes('--dry-run')) return 0;
  for (const { name } of stale) {
    const code = await run('pnpm', ['--filter', name, 'run', 'build']);
    if (code !== 0) {
      console.error(`The build of ${name} failed (exit ${code}); the portal is not started.`);
      return code;
    }
  }
  // The server replaces this process's work: it gets the signals (Ctrl-C) and its exit code is ours.
  const server = spawn(process.execPath, [join(root, 'packages/server/dist/server.js'), ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal));
  return new Promise((done) => server.once('exit', (code, signal) => done(code ?? (signal ? 0 : 1))));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  process.exitCode = await main();
}
