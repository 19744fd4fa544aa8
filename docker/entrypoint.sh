#!/bin/sh
# The image's entry point: the role is the command (api, worker, sim, migrate; rotate-master-key for the operator).
# Node replaces this shell (exec), so that signals reach the service itself. The entry points and flags are those of
# packages/config/src/service-processes.ts (scripts/build-wiring.test.ts checks that they agree).
set -e
role="${1:-api}"
[ "$#" -gt 0 ] && shift
case "$role" in
  api) exec node --max-semi-space-size=8 --heap-growing-percent=75 apps/api/dist/main.js "$@" ;;
  worker) exec node --max-semi-space-size=2 --heap-growing-percent=75 apps/worker/dist/main.js "$@" ;;
  sim) exec node --max-semi-space-size=8 --heap-growing-percent=75 apps/authority-sim/dist/main.js "$@" ;;
  migrate) exec node packages/db/dist/migrate-cli.js "$@" ;;
  rotate-master-key) exec node scripts/dist/rotate-master-key.js "$@" ;;
  *) exec "$role" "$@" ;;
esac
