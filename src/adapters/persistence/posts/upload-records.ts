import type { Page } from '../../../application/read-models.js';
import { type NewUpload, type UploadRecords, type UploadView, fileKey } from '../../../application/uploads/ports.js';
import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import { SIGNED_OUT, replyCondition, topicCondition } from '../read-models/visibility.js';

interface UploadRow {
  id: number;
  user_id: number;
  user_login: string;
  name: string | null;
  content_type: string;
  extension: string;
  byte_size: number;
  sha256: string;
  width: number;
  height: number;
  created_at: Timestamp;
}

const COLUMNS = `p.id, p.user_id, u.login as user_login, p.name, p.content_type, p.extension, p.byte_size, p.sha256, p.width,
  p.height, p.created_at`;

function uploadView(row: UploadRow, urlOf: (key: string) => string): UploadView {
  const key = fileKey(row.sha256, row.extension);
  return {
    id: row.id,
    user: { id: row.user_id, login: row.user_login },
    name: row.name,
    contentType: row.content_type,
    byteSize: row.byte_size,
    sha256: row.sha256,
    width: row.width,
    height: row.height,
    createdAt: toDate(row.created_at),
    key,
    url: urlOf(key),
  };
}

/**
 * The files that topics and replies still kept name (READERS.kept: held and hidden ones count, and a conversation's
 * messages as the forum's posts), by the hash in their URLs: `…/photos/ab/<sha256>.jpg`, whichever host serves them
 * (PUBLIC_URL, or S3_PUBLIC_URL).
 */
const NAMED_FILES = `
  named as (
    select (regexp_matches(body, 'photos/[0-9a-f]{2}/([0-9a-f]{64})\\.', 'g'))[1] as sha256
    from topics t where ${topicCondition(READERS.kept, SIGNED_OUT, { topic: 't' })} and body like '%photos/%'
    union
    select (regexp_matches(body, 'photos/[0-9a-f]{2}/([0-9a-f]{64})\\.', 'g'))[1]
    from replies r where ${replyCondition(READERS.kept, SIGNED_OUT, 'r')} and body like '%photos/%')`;

export class SqlUploadRecords implements UploadRecords {
  constructor(
    private readonly sql: Sql,
    /** Where the store in use serves a key (the URL a record shows). */
    private readonly urlOf: (key: string) => string,
  ) {}

  private view = (row: UploadRow): UploadView => uploadView(row, this.urlOf);

  async lockFile(sha256: string): Promise<void> {
    await this.sql.one('select pg_advisory_xact_lock(hashtextextended($1, 19)) as locked', [`upload:${sha256}`]);
  }

  async add(upload: NewUpload): Promise<{ upload: UploadView; created: boolean }> {
    const { image } = upload;
    const inserted = await this.sql.one<{ id: number }>(
      `insert into uploads (user_id, sha256, name, content_type, extension, byte_size, width, height, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       on conflict (user_id, sha256) do nothing
       returning id`,
      [
        upload.userId,
        image.sha256,
        upload.name,
        image.contentType,
        image.extension,
        image.byteSize,
        image.width,
        image.height,
        upload.at,
      ],
    );
    const row = await this.sql.one<UploadRow>(
      `select ${COLUMNS} from uploads p join users u on u.id = p.user_id where p.user_id = $1 and p.sha256 = $2`,
      [upload.userId, image.sha256],
    );
    return { upload: this.view(row!), created: inserted !== null };
  }

  async recent(userId: number, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const row = await this.sql.one<{ count: number; oldest: Timestamp | null }>(
      'select count(*)::int as count, min(created_at) as oldest from uploads where user_id = $1 and created_at > $2',
      [userId, since],
    );
    return { count: row!.count, oldest: toDate(row!.oldest) };
  }

  async list(userId: number | null, page: Page): Promise<UploadView[]> {
    const rows = await this.sql.all<UploadRow>(
      `select ${COLUMNS} from uploads p join users u on u.id = p.user_id
       where $1::int is null or p.user_id = $1
       order by p.created_at desc, p.id desc offset $2 limit $3`,
      [userId, page.offset, page.limit],
    );
    return rows.map(this.view);
  }

  async find(id: number): Promise<UploadView | null> {
    const row = await this.sql.one<UploadRow>(
      `select ${COLUMNS} from uploads p join users u on u.id = p.user_id where p.id = $1`,
      [id],
    );
    return row && this.view(row);
  }

  async remove(id: number): Promise<{ fileInUse: boolean } | null> {
    const row = await this.sql.one<{ in_use: boolean }>(
      `with gone as (delete from uploads where id = $1 returning sha256)
       select exists(select 1 from uploads o join gone g on o.sha256 = g.sha256 where o.id <> $1) as in_use
       from gone`,
      [id],
    );
    return row && { fileInUse: row.in_use };
  }

  async orphans(before: Date, limit: number): Promise<UploadView[]> {
    const rows = await this.sql.all<UploadRow>(
      `with ${NAMED_FILES}
       select ${COLUMNS} from uploads p join users u on u.id = p.user_id
       where p.created_at < $1 and not exists (select 1 from named n where n.sha256 = p.sha256)
       order by p.created_at, p.id limit $2`,
      [before, limit],
    );
    return rows.map(this.view);
  }

  async ofUser(userId: number): Promise<UploadView[]> {
    const rows = await this.sql.all<UploadRow>(
      `select ${COLUMNS} from uploads p join users u on u.id = p.user_id where p.user_id = $1 order by p.id`,
      [userId],
    );
    return rows.map(this.view);
  }
}
