/** An upload the hub refuses: the message says what is wrong; `status` is the 4xx the API answers with. */
export class IngestError extends Error {
  override readonly name = 'IngestError';
  constructor(
    message: string,
    readonly status: 400 | 413 | 422 = 400,
  ) {
    super(message);
  }
}
