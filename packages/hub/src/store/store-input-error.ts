/** Something the store refuses (a key that is not a public key, a label that is not text): answered 400. */
export class StoreInputError extends Error {
  override readonly name = 'StoreInputError';
}
