import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '#app/platform';

/**
 * The host part of every calendar UID, invitations and feeds alike (docs/adr/0012-calendar-uids.md):
 * PUBLIC_URL's host the first time this installation makes a UID, recorded, and that one for good,
 * so a later PUBLIC_URL changes no UID and a subscribed calendar shows no shift twice.
 */
@Injectable()
export class CalendarUidDomain {
  private domain: Promise<string> | undefined;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Read once per process (it never changes once recorded); a failed read is tried again next time. */
  get(): Promise<string> {
    this.domain ??= this.recorded().catch((err: unknown) => {
      this.domain = undefined;
      throw err;
    });
    return this.domain;
  }

  /** The first process to ask records its PUBLIC_URL's host; every other one, then and later, reads that row. */
  private async recorded(): Promise<string> {
    await this.dataSource.query(`INSERT INTO rota_calendar_uid_domain (domain) VALUES ($1) ON CONFLICT DO NOTHING`, [
      new URL(this.config.http.publicUrl).hostname,
    ]);
    const [row]: { domain: string }[] = await this.dataSource.query(`SELECT domain FROM rota_calendar_uid_domain`);
    return row!.domain;
  }
}
