import { describe, expect, it } from 'vitest';
import { filesUnder, projectImports } from './import-graph';

describe('seams between the function areas', () => {
  it('keeps the delivery functions and the authorizer free of functions/http', () => {
    const crossings = [...filesUnder('functions/delivery'), ...filesUnder('functions/authorizer')].flatMap(
      (file) =>
        projectImports(file)
          .filter((module) => module.startsWith('functions/http/'))
          .map((module) => `${file} → ${module}`),
    );
    expect(crossings).toEqual([]);
  });

  it('keeps the generic http handler free of every feature: it maps errors by what they declare', () => {
    const generic = ['functions/http/', 'functions/errors/', 'functions/route-definition'];
    const features = projectImports('functions/http/http-handler.ts').filter(
      (module) => !generic.some((prefix) => module.startsWith(prefix)),
    );
    expect(features).toEqual([]);
  });

  it('keeps observability free of the areas that use it', () => {
    const crossings = filesUnder('functions/observability').flatMap((file) =>
      projectImports(file)
        .filter((module) => !module.startsWith('functions/observability/'))
        .map((module) => `${file} → ${module}`),
    );
    expect(crossings).toEqual([]);
  });

  it('keeps the error vocabulary free of http and of every feature', () => {
    const crossings = filesUnder('functions/errors').flatMap((file) =>
      projectImports(file)
        .filter((module) => !module.startsWith('functions/errors/'))
        .map((module) => `${file} → ${module}`),
    );
    expect(crossings).toEqual([]);
  });
});
