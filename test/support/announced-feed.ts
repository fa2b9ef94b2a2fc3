import type { EventFeed, PublishedEvent } from '../../src/application/events.js';

/** An event feed a test speaks for: `announce` hands its listeners one event of a type, as the outbox's poll would. */
export function announcedFeed(): { feed: EventFeed; announce: (type: PublishedEvent['type']) => void } {
  const listeners: ((events: readonly PublishedEvent[]) => void)[] = [];
  return {
    feed: {
      subscribe: (listener) => (listeners.push(listener), () => undefined),
      ready: async () => undefined,
    },
    announce: (type) => listeners.forEach((listener) => listener([{ id: 1, type, payload: {} }])),
  };
}
