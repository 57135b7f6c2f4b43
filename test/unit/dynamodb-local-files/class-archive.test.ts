import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClassArchiveOptions } from '../../../tools/dynamodb-local-files/class-archive';

/** Each test loads the module afresh: an archive is made at most once per process. */
async function classArchive() {
  vi.resetModules();
  return import('../../../tools/dynamodb-local-files/class-archive');
}

/** Undoes the manifest's line folding: a line that begins with a space continues the one before. */
const unfold = (manifest: string) => manifest.replace(/\r\n /g, '').split('\r\n');

const libJars = Array.from({ length: 40 }, (_, index) => `DynamoDBLocal_lib/library-number-${index}.jar`);
const originalManifest = (classPath: string) =>
  [
    'Manifest-Version: 1.0',
    'Main-Class: com.amazonaws.services.dynamodbv2.local.main.ServerRunner',
    `Class-Path: ${classPath}`,
    '',
    '',
  ]
    .join('\r\n')
    // Folded as a jar tool folds it: 72 bytes, then a space and 71.
    .replace(
      /^(.{72})(.+)$/gm,
      (_, head: string, rest: string) => `${head}\r\n ${rest.match(/.{1,71}/g)?.join('\r\n ')}`,
    );

describe('archivableManifest', () => {
  it('keeps only the jars of Class-Path, each named from class-archive/, and folds every line to 70 bytes', async () => {
    const { archivableManifest } = await classArchive();
    const manifest = originalManifest(
      `. log4j2.xml ${libJars[0]} DynamoDBLocal_lib/libsqlite4java-linux-amd64.so ${libJars.slice(1).join(' ')} DynamoDBLocal_lib/sqlite4java-win32-x64.dll`,
    );

    const rewritten = archivableManifest(manifest);

    expect(rewritten.split('\r\n').every((line) => Buffer.byteLength(line) <= 70)).toBe(true);
    expect(unfold(rewritten)).toEqual([
      'Manifest-Version: 1.0',
      'Main-Class: com.amazonaws.services.dynamodbv2.local.main.ServerRunner',
      `Class-Path: ${libJars.map((jar) => `../${jar}`).join(' ')}`,
      '',
      '',
    ]);
  });

  it('leaves a manifest without Class-Path as it was, unfolded lines aside', async () => {
    const { archivableManifest } = await classArchive();
    const manifest = 'Manifest-Version: 1.0\r\nMain-Class: example.Main\r\n\r\n';

    expect(archivableManifest(manifest)).toBe(manifest);
  });
});

describe('classArchiveLaunch', () => {
  let emulatorDir: string;
  const logged: string[] = [];

  beforeEach(async () => {
    emulatorDir = await mkdtemp(join(tmpdir(), 'class-archive-test-'));
    await mkdir(join(emulatorDir, 'DynamoDBLocal_lib'));
    for (const jar of libJars.slice(0, 3)) await writeFile(join(emulatorDir, jar), 'a library');
    const manifest = originalManifest(`. ${libJars.slice(0, 3).join(' ')}`);
    const entries = { 'META-INF/MANIFEST.MF': strToU8(manifest), 'example/Main.class': strToU8('bytecode') };
    await writeFile(join(emulatorDir, 'DynamoDBLocal.jar'), zipSync(entries));
    logged.length = 0;
  });

  afterEach(async () => {
    await rm(emulatorDir, { recursive: true, force: true });
  });

  /** A `train` that stands in for the JVM: it writes the archive where the flag says and exits as told. */
  function trainer(exit: { signal: NodeJS.Signals | null } | Error = { signal: null }) {
    const calls: { flags: string[]; jar: string }[] = [];
    const train: ClassArchiveOptions['train'] = async (flags, jar) => {
      calls.push({ flags, jar });
      const partial = flags[0]?.replace('-XX:ArchiveClassesAtExit=', '') ?? '';
      await writeFile(partial, 'classes');
      if (exit instanceof Error) throw exit;
      return exit;
    };
    return { calls, train };
  }

  const options = (train: ClassArchiveOptions['train'], javaVersion = 'openjdk version "17.0.15"') => ({
    emulatorDir,
    javaVersion,
    train,
    log: (message: string) => logged.push(message),
  });

  const archiveFiles = async () =>
    (await readdir(join(emulatorDir, 'class-archive'))).filter((file) => file !== 'DynamoDBLocal.jar');

  it('makes the archive once with a copy of the jar that lists only its library jars, then starts from it', async () => {
    const { classArchiveLaunch } = await classArchive();
    const { calls, train } = trainer();

    const [first, second] = await Promise.all([
      classArchiveLaunch(options(train)),
      classArchiveLaunch(options(train)),
    ]);

    const [archive] = await archiveFiles();
    const copy = join(emulatorDir, 'class-archive', 'DynamoDBLocal.jar');
    expect(archive).toMatch(/^[0-9a-f]{32}\.jsa$/);
    expect(calls).toEqual([{ flags: [expect.stringMatching(/ArchiveClassesAtExit=.*\.tmp$/)], jar: copy }]);
    expect(first).toEqual({
      flags: [`-XX:SharedArchiveFile=${join(emulatorDir, 'class-archive', archive ?? '')}`],
      jar: copy,
    });
    expect(second).toEqual(first);
    const copied = unzipSync(await readFile(copy));
    expect(unfold(strFromU8(copied['META-INF/MANIFEST.MF'] ?? new Uint8Array()))).toContain(
      `Class-Path: ${libJars
        .slice(0, 3)
        .map((jar) => `../${jar}`)
        .join(' ')}`,
    );
    expect(strFromU8(copied['example/Main.class'] ?? new Uint8Array())).toBe('bytecode');
    expect(logged).toEqual(["Making DynamoDB Local's class archive, once for this Java and these jars"]);
  });

  it('starts from an archive a process made before without making it again', async () => {
    await (await classArchive()).classArchiveLaunch(options(trainer().train));
    const later = trainer();

    const launch = await (await classArchive()).classArchiveLaunch(options(later.train));

    expect(later.calls).toEqual([]);
    expect(launch.flags).toEqual([expect.stringMatching(/SharedArchiveFile=.*\.jsa$/)]);
  });

  it('makes a new archive, and drops the old one, when the Java build or a jar changed', async () => {
    const before = await (await classArchive()).classArchiveLaunch(options(trainer().train));
    const [first] = await archiveFiles();

    const otherJava = await (await classArchive()).classArchiveLaunch(
      options(trainer().train, 'openjdk "21"'),
    );
    const afterOtherJava = await archiveFiles();
    await utimes(join(emulatorDir, libJars[1] ?? ''), new Date(), new Date(2001, 0, 1));
    const touchedJar = await (await classArchive()).classArchiveLaunch(
      options(trainer().train, 'openjdk "21"'),
    );
    const afterTouchedJar = await archiveFiles();

    expect(new Set([before.flags[0], otherJava.flags[0], touchedJar.flags[0]]).size).toBe(3);
    expect(afterOtherJava).toHaveLength(1);
    expect(afterOtherJava).not.toContain(first);
    expect(afterTouchedJar).toHaveLength(1);
    expect(afterTouchedJar).not.toContain(afterOtherJava[0]);
    expect(touchedJar.flags[0]).toContain(afterTouchedJar[0]);
  });

  it.each([
    [
      'ended by SIGKILL while writing',
      { signal: 'SIGKILL' as const },
      'the JVM that makes it did not exit in time',
    ],
    ['that fails', new Error('DynamoDB Local exited (code 1) before it was ready.'), 'exited (code 1)'],
  ])(
    'starts from the original jar, and leaves no part of an archive, after a JVM %s',
    async (_, exit, reason) => {
      const { classArchiveLaunch } = await classArchive();

      const launch = await classArchiveLaunch(options(trainer(exit).train));

      expect(launch).toEqual({ flags: [], jar: 'DynamoDBLocal.jar' });
      expect(await archiveFiles()).toEqual([]);
      expect(logged.at(-1)).toMatch(/^DynamoDB Local starts without a class archive: /);
      expect(logged.at(-1)).toContain(reason);
    },
  );
});
