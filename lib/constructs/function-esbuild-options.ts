import { type BundlingOptions, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';

/** How CDK turns `sourceMapMode` into esbuild's `--sourcemap` value when `sourceMap` is on. */
const esbuildSourceMaps: Record<SourceMapMode, true | 'external' | 'inline' | 'both'> = {
  [SourceMapMode.DEFAULT]: true,
  [SourceMapMode.EXTERNAL]: 'external',
  [SourceMapMode.INLINE]: 'inline',
  [SourceMapMode.BOTH]: 'both',
};

/**
 * The esbuild options a `NodejsFunction` with these bundling settings builds with, so a bundle
 * made outside CDK (the bundle checks, the bench) is byte for byte what the stack deploys.
 * `sourceMaps: false` leaves the maps out where only the module graph matters.
 */
export function functionEsbuildOptions(
  bundling: BundlingOptions,
  options: { sourceMaps: boolean },
): BuildOptions {
  const { format, target, mainFields, banner, externalModules, minify, sourceMap, sourceMapMode } = bundling;
  const sourcemap =
    options.sourceMaps && sourceMap === true
      ? esbuildSourceMaps[sourceMapMode ?? SourceMapMode.DEFAULT]
      : false;
  return {
    bundle: true,
    platform: 'node',
    format: format === OutputFormat.ESM ? 'esm' : 'cjs',
    ...(target === undefined ? {} : { target }),
    ...(mainFields === undefined ? {} : { mainFields }),
    ...(banner === undefined ? {} : { banner: { js: banner } }),
    external: externalModules ?? [],
    minify: minify ?? false,
    ...(sourcemap === false ? {} : { sourcemap, sourcesContent: bundling.sourcesContent ?? true }),
  };
}
