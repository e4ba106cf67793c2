// How much one save may unpack. A tarball is small on the wire and can be anything on disk (a
// 4 MB tarball of zeros unpacked to 3 GiB; 200,000 empty files fit in 2 MB), so what a package
// unpacks to is counted from each tar entry's header as it is read, and the unpack stops at the
// first entry past a limit, before writing it.

export interface InstallSettings {
  /** the package cache's size cap, MiB (TRIBUTARY_NPM_CACHE_MB) */
  cacheMb: number;
  /** unpacked bytes per package, MiB (TRIBUTARY_NPM_MAX_PACKAGE_MB) */
  maxPackageMb: number;
  /** unpacked bytes per save, MiB (TRIBUTARY_NPM_MAX_SAVE_MB) */
  maxSaveMb: number;
  /** files per package (TRIBUTARY_NPM_MAX_FILES); a save may unpack SAVE_FILES_FACTOR times that */
  maxFiles: number;
}

export const SAVE_FILES_FACTOR = 2;
const MiB = 1024 * 1024;

/** What one unpack may write, and which setting says so when it is passed. */
export interface UnpackLimits {
  maxBytes: number;
  maxFiles: number;
  bytesReason: string;
  filesReason: string;
}

/** The unpacked bytes and files of one save, against its own and each package's limits. */
export class SaveBudget {
  readonly #s: InstallSettings;
  readonly #saveBytes: number;
  #bytes = 0;
  #files = 0;

  constructor(settings: InstallSettings) {
    this.#s = settings;
    // a save may not unpack more than the cache holds, but a small cache still lets a save
    // install what one package may unpack to (the cache keeps what a save is using)
    this.#saveBytes = Math.min(settings.maxSaveMb, Math.max(settings.cacheMb, settings.maxPackageMb)) * MiB;
  }

  /** The limits of the next package, from what the save has left. */
  next(): UnpackLimits {
    const s = this.#s;
    const bytesLeft = this.#saveBytes - this.#bytes;
    const filesLeft = s.maxFiles * SAVE_FILES_FACTOR - this.#files;
    const packageBytes = s.maxPackageMb * MiB;
    const bySetting = this.#saveBytes === s.maxSaveMb * MiB ? "TRIBUTARY_NPM_MAX_SAVE_MB" : "TRIBUTARY_NPM_MAX_SAVE_MB, held to the cache's TRIBUTARY_NPM_CACHE_MB";
    return {
      maxBytes: Math.max(0, Math.min(packageBytes, bytesLeft)),
      maxFiles: Math.max(0, Math.min(s.maxFiles, filesLeft)),
      bytesReason:
        packageBytes <= bytesLeft
          ? `it unpacks to more than ${s.maxPackageMb} MiB (TRIBUTARY_NPM_MAX_PACKAGE_MB)`
          : `the component's packages unpack to more than ${this.#saveBytes / MiB} MiB in all (${bySetting})`,
      filesReason:
        s.maxFiles <= filesLeft
          ? `it has more than ${s.maxFiles} files (TRIBUTARY_NPM_MAX_FILES)`
          : `the component's packages have more than ${s.maxFiles * SAVE_FILES_FACTOR} files in all (${SAVE_FILES_FACTOR} × TRIBUTARY_NPM_MAX_FILES)`,
    };
  }

  add(bytes: number, files: number): void {
    this.#bytes += bytes;
    this.#files += files;
  }
}
