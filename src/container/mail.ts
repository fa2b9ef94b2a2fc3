import { ContainerModule } from 'inversify';
import { DeliverMail, MailFacts } from '../application/mail/deliver-mail.js';
import { MailComposer } from '../application/mail/mail-composer.js';
import { DIGEST_SCHEDULE, DigestQueue, QueueDigests } from '../application/mail/digests.js';
import { MailProducer, MailQueue } from '../application/mail/mail-jobs.js';
import { ListMail, Mailbox, ShowMail } from '../application/mail/mailbox.js';
import { Mailer } from '../application/mail/mailer.js';
import { Clock, MailTokenKeys, UnitOfWork } from '../application/ports.js';
import { Unsubscribe } from '../application/mail/unsubscribe.js';
import { InboundMailLog, MailReader } from '../application/mail/inbound.js';
import { ListInboundMail, ReceiveMail } from '../application/mail/receive-mail.js';
import { CreateReply } from '../application/replies/create-reply.js';
import { InboundMailRouteUseCases } from '../adapters/api/routes/inbound-email.js';
import { InboundSmtpListener } from '../adapters/mail/inbound-smtp.js';
import { MailparserReader } from '../adapters/mail/mail-reader.js';
import { SqlInboundMailLog } from '../adapters/persistence/inbound-mail-log.js';
import { UserRepository } from '../domain/users/user-repository.js';
import { ServiceMetrics } from '../adapters/api/metrics.js';
import { EmlFolder } from '../adapters/mail/eml-folder.js';
import { LetterMailComposer } from '../adapters/mail/compose/composer.js';
import { InlinedPostHtml } from '../adapters/mail/compose/post-html.js';
import { MailWorker } from '../adapters/mail/mail-worker.js';
import { SmtpMailer } from '../adapters/mail/smtp-mailer.js';
import { SqlMailFacts } from '../adapters/persistence/mail-facts.js';
import { SqlMailQueue } from '../adapters/persistence/mail-queue.js';
import { SqlDigestQueue } from '../adapters/persistence/digest-queue.js';
import { DIGEST_TASK, MAIL_TASK } from '../adapters/persistence/mail-task.js';
import { NotificationMailQueue } from '../adapters/persistence/notification-mail-queue.js';
import type { Sql } from '../adapters/persistence/sql.js';
import { StagedRows } from '../adapters/persistence/staged-rows.js';
import type { Config } from '../config.js';
import { AppConfig, provide, record, ServerHost, SqlRunner, useCaseBinder } from './bind.js';

/** Starts this server process's mail sending (its share of the queue); stop it before the database. */
export type StartMailWorker = () => Promise<MailWorker>;
export const StartMailWorker = Symbol.for('StartMailWorker');

/** The inbound endpoint's settings (InboundMailRouteUseCases' `endpoint`), from the configuration. */
const InboundEndpoint = Symbol.for('InboundEndpoint');

/** Starts this server process's SMTP listener of reply by e-mail on INBOUND_SMTP_PORT; stop it before the database. */
export type StartInboundSmtp = () => Promise<InboundSmtpListener>;
export const StartInboundSmtp = Symbol.for('StartInboundSmtp');

/**
 * Mail (contract §17): the consumer that queues a job for each account event (run by DispatchInTransaction,
 * events.ts), the sender and its worker, and the data folder's mail for forumctl; reply by e-mail's ReceiveMail,
 * which its endpoint and its SMTP listener share, and the record of received mail.
 */
export const mailModule = new ContainerModule(({ bind }) => {
  provide(bind, MailQueue, (staged: StagedRows) => new SqlMailQueue(staged), [StagedRows]);
  provide(bind, MailProducer, (queue: MailQueue) => new MailProducer(queue), [MailQueue]);
  provide(bind, MailFacts, (sql: Sql) => new SqlMailFacts(sql), [SqlRunner]);
  provide(
    bind,
    MailComposer,
    (config: Config): MailComposer => new LetterMailComposer(new InlinedPostHtml(config.publicUrl)),
    [AppConfig],
  );
  provide(bind, Mailbox, (config: Config, clock: Clock) => new EmlFolder(config.mail.folder, config.mail.from, clock), [
    AppConfig,
    Clock,
  ]);
  // Without SMTP_URL, mail is written to the data folder that forumctl reads.
  provide(
    bind,
    Mailer,
    (config: Config, clock: Clock, folder: Mailbox): Mailer =>
      config.mail.smtpUrl ? new SmtpMailer(config.mail.smtpUrl, config.mail.from, clock) : (folder as EmlFolder),
    [AppConfig, Clock, Mailbox],
  );
  provide(
    bind,
    DeliverMail,
    (facts: MailFacts, keys: MailTokenKeys, mailer: Mailer, clock: Clock, composer: MailComposer, config: Config) =>
      new DeliverMail(facts, keys, mailer, clock, composer, {
        publicUrl: config.publicUrl,
        topicUrl: config.mail.topicUrl,
        replyAddress: config.mail.replyAddress,
        from: config.mail.from,
      }),
    [MailFacts, MailTokenKeys, Mailer, Clock, MailComposer, AppConfig],
  );
  const useCase = useCaseBinder(bind);
  useCase(ListMail, [Mailbox]);
  useCase(ShowMail, [Mailbox]);
  useCase(Unsubscribe, [MailTokenKeys, UserRepository, UnitOfWork, Clock]);
  provide(bind, DigestQueue, (sql: Sql) => new SqlDigestQueue(sql), [SqlRunner]);
  useCase(QueueDigests, [DigestQueue, Clock]);

  provide(bind, NotificationMailQueue, (sql: Sql, config: Config) => new NotificationMailQueue(sql, config.mail.delayMinutes), [
    SqlRunner,
    AppConfig,
  ]);
  // Reply by e-mail: the endpoint and the SMTP listener both hand each mail to ReceiveMail.
  provide(bind, MailReader, () => new MailparserReader(), []);
  provide(bind, InboundMailLog, (sql: Sql) => new SqlInboundMailLog(sql), [SqlRunner]);
  provide(
    bind,
    ReceiveMail,
    (
      config: Config,
      reader: MailReader,
      keys: MailTokenKeys,
      users: UserRepository,
      createReply: CreateReply,
      unsubscribe: Unsubscribe,
      log: InboundMailLog,
      uow: UnitOfWork,
      clock: Clock,
    ) => new ReceiveMail(config.mail.replyAddress, reader, keys, users, createReply, unsubscribe, log, uow, clock),
    [AppConfig, MailReader, MailTokenKeys, UserRepository, CreateReply, Unsubscribe, InboundMailLog, UnitOfWork, Clock],
  );
  useCase(ListInboundMail, [InboundMailLog]);
  provide(
    bind,
    InboundEndpoint,
    (config: Config) => ({
      token: config.mail.inboundToken,
      enabled: config.mail.inboundToken !== null && config.mail.replyAddress !== null,
    }),
    [AppConfig],
  );
  record<InboundMailRouteUseCases>(bind, InboundMailRouteUseCases, { receiveMail: ReceiveMail, endpoint: InboundEndpoint });

  provide(
    bind,
    StartMailWorker,
    (
      deliver: DeliverMail,
      due: NotificationMailQueue,
      queueDigests: QueueDigests,
      metrics: ServiceMetrics,
      config: Config,
      server: ServerHost,
    ): StartMailWorker =>
      () =>
        MailWorker.start(server.database.orm.config.get('clientUrl') as string, deliver, {
          task: MAIL_TASK,
          concurrency: config.mail.concurrency,
          scope: server.database.scope,
          onOutcome: (outcome) => metrics.mailTries.inc({ outcome }),
          notice: (message, details) => server.logger.warn(details ?? {}, message),
          // Every 10 seconds: a notification mail goes out at most that long after its delay.
          dueMail: { everyMs: 10_000, move: () => due.moveDue() },
          digests: {
            task: DIGEST_TASK,
            schedule: DIGEST_SCHEDULE,
            run: () => queueDigests.execute(),
            onRun: (queued) => server.logger.info({ queued }, 'digests queued'),
          },
        }),
    [DeliverMail, NotificationMailQueue, QueueDigests, ServiceMetrics, AppConfig, ServerHost],
  );
  provide(
    bind,
    StartInboundSmtp,
    (receive: ReceiveMail, config: Config, server: ServerHost): StartInboundSmtp =>
      () =>
        InboundSmtpListener.start(receive, {
          port: config.mail.inboundSmtpPort ?? 0,
          host: config.host,
          scope: server.database.scope,
          notice: (message, details) => server.logger.warn(details, message),
        }),
    [ReceiveMail, AppConfig, ServerHost],
  );
});
