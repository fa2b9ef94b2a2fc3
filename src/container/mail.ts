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
import { ConversationStore } from '../application/conversations/ports.js';
import { ReplyToConversation } from '../application/conversations/write-conversations.js';
import { InboundSmtpListener } from '../adapters/mail/inbound-smtp.js';
import { MailparserReader } from '../adapters/mail/mail-reader.js';
import { SqlInboundMailLog } from '../adapters/persistence/mail/inbound-mail-log.js';
import { UserRepository } from '../domain/users/user-repository.js';
import { EmlFolder } from '../adapters/mail/eml-folder.js';
import { LetterMailComposer } from '../adapters/mail/compose/composer.js';
import { InlinedPostHtml } from '../adapters/mail/compose/post-html.js';
import { SmtpMailer } from '../adapters/mail/smtp-mailer.js';
import { SqlMailFacts } from '../adapters/persistence/mail/mail-facts.js';
import { SqlMailQueue } from '../adapters/persistence/mail/mail-queue.js';
import { SqlDigestQueue } from '../adapters/persistence/mail/digest-queue.js';
import { DIGEST_TASK, DUE_MAIL_TASK, MAIL_TASK } from '../adapters/persistence/mail/mail-task.js';
import { SqlNotificationMailQueue } from '../adapters/persistence/mail/notification-mail-queue.js';
import { NotificationMailQueue, NotificationMailer } from '../application/mail/notification-mail.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { StagedRows } from '../adapters/persistence/staged/staged-rows.js';
import type { Config } from '../config.js';
import { digestsTask } from '../adapters/jobs/tasks/digests.js';
import { dueMailTask } from '../adapters/jobs/tasks/due-mail.js';
import { mailDeliveryTask } from '../adapters/jobs/tasks/mail-delivery.js';
import { AppConfig, provide, ServerHost, SqlRunner, useCaseBinder } from './bind.js';
import { registerJobTasks, TaskMetrics } from './jobs.js';

/** Starts this server process's SMTP listener of reply by e-mail on INBOUND_SMTP_PORT; stop it before the database. */
export type StartInboundSmtp = () => Promise<InboundSmtpListener>;
export const StartInboundSmtp = Symbol.for('StartInboundSmtp');

/**
 * Mail (contract §17): the consumer that queues a job for each account event (run by DispatchInTransaction,
 * events.ts), the sender and its background tasks, and the data folder's mail for forumctl; reply by e-mail's
 * ReceiveMail, which its endpoint and its SMTP listener share, and the record of received mail.
 */
export const mailModule = new ContainerModule(({ bind }) => {
  provide(bind, MailQueue, (staged: StagedRows) => new SqlMailQueue(staged), [StagedRows]);
  provide(bind, MailProducer, (queue: MailQueue) => new MailProducer(queue), [MailQueue]);
  provide(bind, MailFacts, (sql: Sql) => new SqlMailFacts(sql), [SqlRunner]);
  provide(bind, MailComposer, (config: Config): MailComposer => new LetterMailComposer(new InlinedPostHtml(config.publicUrl)), [
    AppConfig,
  ]);
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

  provide(
    bind,
    SqlNotificationMailQueue,
    (sql: Sql, staged: StagedRows, config: Config) => new SqlNotificationMailQueue(sql, staged, config.mail.delayMinutes),
    [SqlRunner, StagedRows, AppConfig],
  );
  bind(NotificationMailQueue).toService(SqlNotificationMailQueue);
  provide(bind, NotificationMailer, (queue: NotificationMailQueue) => new NotificationMailer(queue), [NotificationMailQueue]);
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
      conversations: ConversationStore,
      replyToConversation: ReplyToConversation,
      unsubscribe: Unsubscribe,
      log: InboundMailLog,
      uow: UnitOfWork,
      clock: Clock,
    ) =>
      new ReceiveMail(
        config.mail.replyAddress,
        reader,
        keys,
        users,
        createReply,
        conversations,
        replyToConversation,
        unsubscribe,
        log,
        uow,
        clock,
      ),
    [
      AppConfig,
      MailReader,
      MailTokenKeys,
      UserRepository,
      CreateReply,
      ConversationStore,
      ReplyToConversation,
      Unsubscribe,
      InboundMailLog,
      UnitOfWork,
      Clock,
    ],
  );
  useCase(ListInboundMail, [InboundMailLog]);

  // Mail's background work, in the processes that send mail (MAIL_CONCURRENCY above 0): sending, the digests'
  // schedule, and moving the notification mail whose delay is over onto the queue.
  registerJobTasks(
    bind,
    (
      deliver: DeliverMail,
      due: SqlNotificationMailQueue,
      queueDigests: QueueDigests,
      metrics: TaskMetrics,
      config: Config,
      server: ServerHost,
    ) => {
      if (config.mail.concurrency === 0) return [];
      const notice = (message: string, details?: Record<string, unknown>) => server.logger.warn(details ?? {}, message);
      return [
        mailDeliveryTask(deliver, {
          identifier: MAIL_TASK,
          concurrency: config.mail.concurrency,
          onOutcome: (outcome) => metrics.mailTries.inc({ outcome }),
          notice,
        }),
        digestsTask({
          identifier: DIGEST_TASK,
          schedule: DIGEST_SCHEDULE,
          run: () => queueDigests.execute(),
          onRun: (queued) => server.logger.info({ queued }, 'digests queued'),
        }),
        // Every 10 seconds: a notification mail goes out at most that long after its delay.
        dueMailTask({ identifier: DUE_MAIL_TASK, everyMs: 10_000, move: () => due.moveDue(), notice }),
      ];
    },
    [DeliverMail, SqlNotificationMailQueue, QueueDigests, TaskMetrics, AppConfig, ServerHost],
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
