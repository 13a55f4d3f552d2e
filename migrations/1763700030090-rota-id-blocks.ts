import type { MigrationInterface, QueryRunner } from 'typeorm';

const KINDS = ['pattern', 'rota', 'contact', 'timeslot', 'shift', 'series'];

/**
 * Rotas' ids drawn a block at a time (libs/rotas/src/next-id.ts): each `nextval` hands out the
 * first id of a block of 64, so a process draws ids without a round trip 63 times in 64. Ids
 * already given stay below every block (the next value is the last one plus 64).
 */
export class RotaIdBlocks1763700030090 implements MigrationInterface {
  name = 'RotaIdBlocks1763700030090';

  async up(q: QueryRunner): Promise<void> {
    for (const kind of KINDS) await q.query(`ALTER SEQUENCE rotas_${kind}_ids INCREMENT BY 64`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const kind of KINDS) await q.query(`ALTER SEQUENCE rotas_${kind}_ids INCREMENT BY 1`);
  }
}
