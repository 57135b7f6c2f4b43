import { readFileSync } from 'node:fs';

export interface GuideVector {
  readonly secret: string;
  readonly id: string;
  readonly timestamp: number;
  readonly body: string;
  readonly spec: string;
  readonly standard: string;
}

/** Rows of the guide's test-vector table: #, secret, id, timestamp, body, spec signature, Standard signature. */
const vectorRow = /^\| \d+ \| `([^`]+)` \| `([^`]+)` \| `(\d+)` \| `([^`]+)` \| `([^`]+)` \| `([^`]+)` \|$/gm;

export function readReceivingGuide(): string {
  return readFileSync(new URL('../../docs/receiving-webhooks.md', import.meta.url), 'utf8');
}

/** The test vectors as docs/receiving-webhooks.md publishes them. */
export function guideVectors(guide = readReceivingGuide()): GuideVector[] {
  return Array.from(
    guide.matchAll(vectorRow),
    ([, secret = '', id = '', timestamp = '', body = '', spec = '', standard = '']) => ({
      secret,
      id,
      timestamp: Number(timestamp),
      body,
      spec,
      standard,
    }),
  );
}
