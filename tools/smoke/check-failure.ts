/** A check found the stage wrong: the message is the `<why>` of its `FAIL <check>: <why>` line. */
export class CheckFailure extends Error {
  override name = 'CheckFailure';
}
