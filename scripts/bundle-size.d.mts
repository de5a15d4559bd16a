export interface BundleFile {
  /** Relative to the build folder: `index.html`, `assets/index-….js`. */
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

export interface BundleSize {
  readonly files: readonly BundleFile[];
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** The build's files in `dist` (index.html, assets/*.js and *.css), each as served and gzip-compressed. */
export function bundleSize(dist: string): BundleSize;
