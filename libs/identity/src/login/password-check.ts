import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { userById } from './login-user.js';
import { PasswordHasher } from './password-hasher.js';

/**
 * Whether a password is the user's own, for a request that asks for it again (a user's own
 * anonymisation, docs/privacy.md#anonymising-a-user). False for an unknown or anonymised user.
 */
@Injectable()
export class PasswordCheck {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
  ) {}

  async matches(userId: number, password: string): Promise<boolean> {
    const user = await userById(this.dataSource, userId);
    if (!user?.passwordHash) return this.hasher.verifyNobody(password);
    return this.hasher.verify(user.passwordHash, password);
  }
}
