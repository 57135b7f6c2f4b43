import { describe, expect, it } from 'vitest';
import { filesUnder, packageImports, projectImports } from './import-graph';

/** Every import of `files` that `crosses` says leaves its area, as `file → module`. */
function crossingsOf(files: readonly string[], crosses: (module: string) => boolean): string[] {
  return files.flatMap((file) =>
    projectImports(file)
      .filter(crosses)
      .map((module) => `${file} → ${module}`),
  );
}

describe('seams between the function areas', () => {
  it('keeps the delivery functions and the authorizer free of functions/http', () => {
    const files = [...filesUnder('functions/delivery'), ...filesUnder('functions/authorizer')];
    expect(crossingsOf(files, (module) => module.startsWith('functions/http/'))).toEqual([]);
  });

  it('keeps the generic http handler free of every feature: it maps errors by what they declare', () => {
    const generic = ['functions/http/', 'functions/errors/', 'functions/route-definition'];
    const features = projectImports('functions/http/http-handler.ts').filter(
      (module) => !generic.some((prefix) => module.startsWith(prefix)),
    );
    expect(features).toEqual([]);
  });

  it('keeps the talk to DynamoDB in functions/store: no other area imports its clients', () => {
    // docs/architecture.md#where-each-concern-lives: of the functions, only the store talks to DynamoDB.
    const files = filesUnder('functions').filter((file) => !file.startsWith('functions/store/'));
    const dynamodb = /^@aws-sdk\/(?:client-dynamodb|lib-dynamodb|client-dynamodb-streams)$/;
    const crossings = [
      ...crossingsOf(files, (module) => module === 'functions/store/client'),
      ...files.flatMap((file) =>
        packageImports(file)
          .filter((name) => dynamodb.test(name))
          .map((name) => `${file} → ${name}`),
      ),
    ];
    expect(crossings).toEqual([]);
  });

  it('keeps functions/domain free of the AWS SDK', () => {
    const crossings = filesUnder('functions/domain').flatMap((file) =>
      packageImports(file)
        .filter((name) => name.startsWith('@aws-sdk/'))
        .map((name) => `${file} → ${name}`),
    );
    expect(crossings).toEqual([]);
  });

  it('keeps observability free of the areas that use it', () => {
    const files = filesUnder('functions/observability');
    expect(crossingsOf(files, (module) => !module.startsWith('functions/observability/'))).toEqual([]);
  });

  it('keeps the error vocabulary free of http and of every feature', () => {
    const files = filesUnder('functions/errors');
    expect(crossingsOf(files, (module) => !module.startsWith('functions/errors/'))).toEqual([]);
  });

  it('keeps the deployable stack in lib/ apart from the tools: lib/, functions/ and stages/ import nothing of tools/ or test/', () => {
    // docs/decisions/the-stack-apart-from-its-tools.md
    const files = [...filesUnder('lib'), ...filesUnder('functions'), ...filesUnder('stages')];
    const crossings = crossingsOf(
      files,
      (module) => module.startsWith('tools/') || module.startsWith('test/'),
    );
    expect(crossings).toEqual([]);
    expect(filesUnder('lib').length).toBeGreaterThan(10);
  });
});
