/**
 * Credentials at rest: AES-256-GCM (node:crypto) with a key derived by HKDF-SHA256 from ERPCERT_HUB_SECRET.
 * A sealed value is `v1:<iv>:<tag>:<ciphertext>` (base64url); the target id is the additional authenticated
 * data, so a sealed password copied to another target's row does not open. Without the secret, the hub refuses
 * to save credentials and says how to set it.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const SECRET_ENV = 'ERPCERT_HUB_SECRET';

/** What saving credentials without ERPCERT_HUB_SECRET answers. */
export const NO_SECRET_MESSAGE =
  `the hub cannot keep credentials: it was started without ${SECRET_ENV}. Start it with ${SECRET_ENV} set to a ` +
  `long random value (e.g. ${SECRET_ENV}=$(openssl rand -base64 32) erpcert hub), the same on every hub of one ` +
  'database; the saved passwords are encrypted with a key derived from it';

export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';
}

export class SecretBox {
  readonly #key: Buffer;

  constructor(secret: string) {
    if (secret.length < 16) throw new SecretBoxError(`${SECRET_ENV} must be at least 16 characters`);
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'erpcert-hub', 'saved-target-credentials v1', 32));
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const b = (x: Buffer) => x.toString('base64url');
    return `v1:${b(iv)}:${b(cipher.getAuthTag())}:${b(body)}`;
  }

  open(sealed: string, context: string): string {
    const [v, iv, tag, body] = sealed.split(':');
    if (v !== 'v1' || iv === undefined || tag === undefined || body === undefined)
      throw new SecretBoxError('a saved credential is not in a form this hub knows');
    try {
      const d = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
      d.setAAD(Buffer.from(context, 'utf8'));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(
        `a saved credential does not open with this ${SECRET_ENV}: the hub was started with another secret (save the target's password again)`,
      );
    }
  }
}
