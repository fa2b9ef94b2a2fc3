import { expect } from 'chai';
import { REVIEW_ACTIONS, type ReviewAction } from '../../src/domain/events.js';
import { type ReviewItem, flagsHide, requireResolvable } from '../../src/domain/review/review-item.js';
import { RuleViolated } from '../../src/domain/shared/errors.js';

function item(changes: Partial<ReviewItem> = {}): ReviewItem {
  return {
    id: 5,
    kind: 'flag',
    status: 'pending',
    resolution: null,
    targetType: 'Reply',
    targetId: 40,
    topicId: 9,
    userId: 2,
    ...changes,
  };
}

describe('requireResolvable', () => {
  it('lets a pending flag item be agreed or disagreed with, or its author called a spammer', () => {
    for (const action of ['agree', 'disagree', 'spammer'] as const) {
      expect(() => requireResolvable(item({ kind: 'flag' }), action), action).not.to.throw();
    }
  });

  it('lets a pending hold item be approved or rejected, or its author called a spammer', () => {
    for (const action of ['approve', 'reject', 'spammer'] as const) {
      expect(() => requireResolvable(item({ kind: 'hold' }), action), action).not.to.throw();
    }
  });

  it('refuses approve and reject on a flag item, naming the actions that fit', () => {
    for (const action of ['approve', 'reject'] as const) {
      expect(() => requireResolvable(item({ kind: 'flag' }), action), action).to.throw(
        RuleViolated,
        `Validation failed: ${action} does not apply to a flag item; use agree, disagree, spammer`,
      );
    }
  });

  it('refuses agree and disagree on a hold item, naming the actions that fit', () => {
    for (const action of ['agree', 'disagree'] as const) {
      expect(() => requireResolvable(item({ kind: 'hold' }), action), action).to.throw(
        RuleViolated,
        `Validation failed: ${action} does not apply to a hold item; use approve, reject, spammer`,
      );
    }
  });

  it('refuses any action on a resolved item, naming how it was resolved', () => {
    const resolved = item({ status: 'resolved', resolution: 'disagree' });
    for (const action of REVIEW_ACTIONS) {
      expect(() => requireResolvable(resolved, action as ReviewAction), action).to.throw(
        RuleViolated,
        /^Validation failed: review item 5 is resolved already \(disagree\)$/,
      );
    }
  });

  it('names a resolution by deletion too, and checks resolution before kind', () => {
    expect(() => requireResolvable(item({ kind: 'hold', status: 'resolved', resolution: 'deleted' }), 'agree')).to.throw(
      RuleViolated,
      /resolved already \(deleted\)/,
    );
  });
});

describe('flagsHide', () => {
  it('does not hide below the threshold of distinct flaggers', () => {
    expect(flagsHide(0, false, 3)).to.equal(false);
    expect(flagsHide(2, false, 3)).to.equal(false);
  });

  it('hides at the threshold and beyond', () => {
    expect(flagsHide(3, false, 3)).to.equal(true);
    expect(flagsHide(4, false, 3)).to.equal(true);
    expect(flagsHide(1, false, 1)).to.equal(true);
  });

  it('hides at once when an administrator flagged it', () => {
    expect(flagsHide(1, true, 3)).to.equal(true);
  });
});
