import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

type Kind = 'pattern' | 'rota' | 'contact' | 'timeslot' | 'shift' | 'series' | 'swap';

/** Ids come from the context's sequences before the events are written, so replay reproduces them. */
@Injectable()
export class RotaIds {
  constructor(private readonly dataSource: DataSource) {}

  async next(kind: Kind): Promise<number> {
    return (await this.many(kind, 1))[0]!;
  }

  /** `count` ids in one query (a rota's timeslots, several rotas of one create), ascending. */
  async many(kind: Kind, count: number): Promise<number[]> {
    if (count === 0) return [];
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT nextval('rotas_${kind}_ids') AS id FROM generate_series(1, $1::int)`,
      [count],
    );
    return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  }
}
