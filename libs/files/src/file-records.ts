import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Caller } from '#app/identity';
import { tenantScope, tenantSql } from '#app/platform';
import type { Thumbnail } from './files.events.js';
import type { ThumbnailSize } from './upload/thumbnails.js';
import { UrlSigner } from './url-signer.js';

export interface FileRecord {
  readonly id: number;
  readonly organisationId: number;
  readonly ownerId: number;
  readonly storageKey: string;
  readonly originalName: string;
  readonly size: number;
  readonly mime: string;
  readonly description: string;
  readonly thumbnails: Partial<Record<ThumbnailSize, Thumbnail>>;
}

/** The Image / Attachment shape (docs/http-conventions.md#files-and-images), with fresh signed URLs. */
export interface FileView {
  id: number;
  original_name: string;
  file_size: number;
  mime: string;
  description: string;
  /** size → signed URL of that thumbnail; empty for documents and images smaller than every size. */
  thumbnails: Partial<Record<ThumbnailSize, string>>;
  signed_url: string;
}

type Row = {
  id: string;
  organisation_id: string;
  owner_id: string;
  storage_key: string;
  original_name: string;
  file_size: string;
  mime: string;
  description: string;
  thumbnails: FileRecord['thumbnails'];
};

const toRecord = (r: Row): FileRecord => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  ownerId: Number(r.owner_id),
  storageKey: r.storage_key,
  originalName: r.original_name,
  size: Number(r.file_size),
  mime: r.mime,
  description: r.description,
  thumbnails: r.thumbnails,
});

/** Files as other contexts see them: always within the caller's organisation. */
@Injectable()
export class FileRecords {
  constructor(
    private readonly dataSource: DataSource,
    private readonly signer: UrlSigner,
  ) {}

  /** The file if it belongs to the caller's organisation; another organisation's is simply not found. */
  async find(caller: Pick<Caller, 'organisationId'>, id: number): Promise<FileRecord | null> {
    const q = tenantSql(caller)`SELECT * FROM files WHERE ${tenantScope()} AND id = ${id}`;
    const [row] = await this.dataSource.query(q.text, q.values);
    return row ? toRecord(row) : null;
  }

  /** The files the user uploaded, oldest first, as a personal-data export lists them (no storage key, no URL). */
  async ownedBy(
    tenant: Pick<Caller, 'organisationId'>,
    userId: number,
  ): Promise<{ id: number; name: string; size: number; created_at: string }[]> {
    const q = tenantSql(tenant)`SELECT id, original_name, file_size, created_at FROM files
      WHERE ${tenantScope()} AND owner_id = ${userId} ORDER BY created_at, id`;
    const rows: { id: string; original_name: string; file_size: string; created_at: Date }[] =
      await this.dataSource.query(q.text, q.values);
    return rows.map((r) => ({
      id: Number(r.id),
      name: r.original_name,
      size: Number(r.file_size),
      created_at: r.created_at.toISOString(),
    }));
  }

  /** For the signed download only: the signature, not a caller, vouches for the request. */
  async findSigned(id: number): Promise<FileRecord | null> {
    const [row] = await this.dataSource.query(`SELECT * FROM files WHERE id = $1`, [id]);
    return row ? toRecord(row) : null;
  }

  view(file: FileRecord, now = Date.now()): FileView {
    const thumbnails: FileView['thumbnails'] = {};
    for (const size of Object.keys(file.thumbnails) as ThumbnailSize[])
      thumbnails[size] = this.signer.url(file.id, size, now);
    return {
      id: file.id,
      original_name: file.originalName,
      file_size: file.size,
      mime: file.mime,
      description: file.description,
      thumbnails,
      signed_url: this.signer.url(file.id, 'original', now),
    };
  }
}
