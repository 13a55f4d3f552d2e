import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';

/**
 * argon2id, 46 MiB, two passes, one lane: above OWASP's floor (19 MiB, t=2) and tuned so one
 * verification takes 50–250 ms on the 2-core reference machine (19 MiB took ~21 ms there; see
 * bench/README.md). Stored hashes carry their own parameters, so raising these later is safe.
 */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 47_104, timeCost: 2, parallelism: 1 } as const;

@Injectable()
export class PasswordHasher {
  private dummy?: Promise<string>;

  hash(password: string): Promise<string> {
    return argon2.hash(password, ARGON2_OPTIONS);
  }

  /** False for a wrong password and for a hash that cannot be read. */
  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /**
   * Spends the same time as a real verification, for an address nobody has: an attacker timing the
   * answer learns nothing about which addresses exist.
   */
  async verifyNobody(password: string): Promise<false> {
    this.dummy ??= this.hash('no user has this password');
    await this.verify(await this.dummy, password);
    return false;
  }
}
