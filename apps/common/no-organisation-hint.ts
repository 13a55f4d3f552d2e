import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { OrganisationFactsReader } from '#app/identity';
import type { AppConfig } from '#app/platform';

/**
 * Issue 31: on an empty database every log-in is a 401 and nothing said why. An HTTP process that
 * starts with no organisation says so in one warning, with the command that provisions one.
 */
export async function hintIfNoOrganisation(app: INestApplicationContext, config: AppConfig): Promise<void> {
  if (await app.get(OrganisationFactsReader).anyProvisioned()) return;
  const embedded = config.database.url ? '' : '; in the embedded mode stop this process first';
  app
    .get(Logger)
    .warn(
      `no organisation exists yet, so no one can log in: provision one with \`npm run cli -- provision <file>\` ` +
        `(docs/provisioning.md; examples/demo-organisation.json to try)${embedded}`,
      'Bootstrap',
    );
}
