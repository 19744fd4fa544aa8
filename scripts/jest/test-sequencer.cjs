// Jest's own order (failed first, then longest first by the durations in its cache), except for files the cache
// knows nothing of: jest orders those by file size, and a fresh checkout (CI) has no cache at all. Size says little
// here: a short end-to-end file that starts processes runs for a minute while a long unit file takes a second, and
// one slow file started last keeps the whole run waiting. So files without a recorded duration go by project first
// (e2e, then integration, then unit), by size within one.
const Sequencer = require('@jest/test-sequencer').default;

const PROJECT_RANK = { e2e: 0, integration: 1, unit: 2 };

const rank = (test) => PROJECT_RANK[test.context.config.displayName?.name] ?? 1;

class ProjectFirstSequencer extends Sequencer {
  sort(tests) {
    // Array#sort is stable: what this key leaves equal keeps super.sort's order (failed first, untimed by size).
    const key = (test) => [this.hasFailed(test) ? 0 : 1, test.duration == null ? rank(test) : PROJECT_RANK.unit + 1];
    const compare = (a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return ka[0] - kb[0] || ka[1] - kb[1];
    };
    return super.sort(tests).sort(compare);
  }
}

module.exports = ProjectFirstSequencer;
