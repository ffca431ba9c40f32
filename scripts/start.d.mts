/** Types of scripts/start.mjs, for the tools' tests. */
export interface WorkspacePackage {
  name: string;
  /** Folder relative to the workspace. */
  dir: string;
  /** The build's entry file, relative to `dir`; its age is the build's age. */
  output: string;
  /** Files and folders relative to `dir` the build reads. */
  inputs: string[];
  /** Workspace packages whose build this one reads. */
  dependsOn: string[];
}
export declare const PACKAGES: WorkspacePackage[];
export declare const SHARED_INPUTS: string[];
export declare function newestModification(path: string): number;
export declare function outOfDate(
  workspace?: string,
  packages?: WorkspacePackage[],
  shared?: string[],
): { name: string; reason: string }[];
