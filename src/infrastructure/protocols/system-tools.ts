import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/** A program from the system that some checks run, and the Debian package that provides it. */
export interface SystemTool {
  /** A command looked up on PATH, or an absolute path. */
  readonly program: string;
  readonly debianPackage: string;
  /** What cannot run without it. */
  readonly neededFor: string;
}

/** fping, for ICMP checks (looked up on PATH unless given as a path). */
export const fping = (program = 'fping'): SystemTool => ({ program, debianPackage: 'fping', neededFor: 'ICMP (ping) checks' });

/** Chromium, for scripted-browser scenarios (BROWSER_EXECUTABLE_PATH). */
export const chromiumBrowser = (program: string): SystemTool => ({
  program,
  debianPackage: 'chromium',
  neededFor: 'scripted-browser checks',
});

/** Every system program some check needs. */
export const systemTools = (browserExecutablePath: string): SystemTool[] => [fping(), chromiumBrowser(browserExecutablePath)];

const isExecutable = (file: string) =>
  fs.access(file, constants.X_OK).then(
    () => true,
    () => false,
  );

/** Whether `program` runs: an executable at that path, or one of that name on PATH. */
export async function isInstalled(program: string, searchPath = process.env.PATH ?? ''): Promise<boolean> {
  if (program.includes('/')) return isExecutable(program);
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    if (await isExecutable(path.join(dir, program))) return true;
  }
  return false;
}

export async function missingSystemTools(tools: readonly SystemTool[], searchPath?: string): Promise<SystemTool[]> {
  const installed = await Promise.all(tools.map((tool) => isInstalled(tool.program, searchPath)));
  return tools.filter((_, i) => !installed[i]);
}

/** The command that installs `tools` on Debian or Ubuntu. */
export const installCommand = (tools: readonly SystemTool[]): string =>
  `apt-get install -y ${[...new Set(tools.map((tool) => tool.debianPackage))].join(' ')}`;

/** Why a check cannot run: the program is missing, and what installs it. */
export const notInstalledReason = (tool: SystemTool): string =>
  `${tool.program} is not installed (needed for ${tool.neededFor}): install the Debian package ${tool.debianPackage} (${installCommand([tool])})`;
