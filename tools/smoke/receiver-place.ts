import { Stage } from '../../functions/config';
import { UsageError } from '../cli/command-failure';
import { isLoopbackHost } from './loopback-host';
import type { SmokeOptions } from './smoke-options';
import type { ReceiverPlace } from './smoke-receiver';

/**
 * Where the sandbox round trip receives its webhook; undefined in production, which takes no test
 * payment. A stage on this machine (the local runtime) delivers to a receiver on loopback; any
 * other needs a public URL, since a deployed stage refuses to deliver to a private address.
 */
export function receiverPlaceFor(
  options: SmokeOptions,
  stage: Stage,
  caDir: string,
): ReceiverPlace | undefined {
  if (stage === Stage.production) {
    if (options.receiverUrl !== undefined) {
      throw new UsageError(
        '--receiver-url serves the sandbox round trip: a production key runs no round trip.',
      );
    }
    return undefined;
  }
  if (options.receiverUrl !== undefined) {
    return {
      kind: 'public',
      url: options.receiverUrl,
      host: options.receiverHost,
      port: options.receiverPort,
    };
  }
  if (!isLoopbackHost(new URL(options.baseUrl).hostname)) {
    throw new UsageError(
      'a sandbox not on this machine delivers only to a public address: give --receiver-url <https URL> reaching this machine (--help says more).',
    );
  }
  return { kind: 'this-machine', caDir };
}
