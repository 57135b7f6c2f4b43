import { OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';
import { functionBundling } from '../../lib/constructs/service-function';

/**
 * The esbuild options the stack bundles every function with (`functionBundling`), for tests that
 * bundle functions themselves. Source maps are left out unless asked for: they are what a test of
 * stack traces needs and nothing else does.
 */
export function functionBuildOptions({ sourceMaps = false } = {}): BuildOptions {
  const { format, target, mainFields, banner, externalModules, minify } = functionBundling;
  return {
    bundle: true,
    platform: 'node',
    format: format === OutputFormat.ESM ? 'esm' : 'cjs',
    ...(target === undefined ? {} : { target }),
    ...(mainFields === undefined ? {} : { mainFields }),
    ...(banner === undefined ? {} : { banner: { js: banner } }),
    external: externalModules ?? [],
    minify: minify ?? false,
    ...(sourceMaps ? sourceMapOptions() : {}),
  };
}

/** CDK passes `--sourcemap[=mode]` and `--sources-content` to esbuild; its default mode is esbuild's linked map. */
function sourceMapOptions(): BuildOptions {
  const { sourceMap, sourceMapMode, sourcesContent } = functionBundling;
  if (sourceMap !== true && sourceMapMode === undefined) return { sourcemap: false };
  const mode = sourceMapMode ?? SourceMapMode.DEFAULT;
  return {
    sourcemap: mode === SourceMapMode.DEFAULT ? 'linked' : mode,
    sourcesContent: sourcesContent ?? true,
  };
}
