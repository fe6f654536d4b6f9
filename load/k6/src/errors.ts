/** Why a k6 run could not be made at all (a slow or failing target is a failed verdict, never one of these). */
export type K6ErrorKind = 'not-found' | 'config' | 'vendor';

/** A k6 run that could not start: no k6 binary, a wrong option, or the XML bundle could not be built. */
export class K6Error extends Error {
  override readonly name = 'K6Error';
  readonly kind: K6ErrorKind;

  constructor(kind: K6ErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}
