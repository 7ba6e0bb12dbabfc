#!/usr/bin/env bash
# Installs the system packages that the tests use and that npm cannot bring:
# Debian's Chromium headless shell (the client's and the docs' browser tests), PostgreSQL (the server's store
# tests on a real database), redis-server (rate limits shared by several server
# instances), wrk (the load generator of `pnpm bench:server`), curl and python3
# (the docs run their curl and Python samples). Skips what is already there; without apt-get or
# root it says what is missing and leaves it to the machine's owner.
set -euo pipefail

missing=()
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v pg_ctlcluster >/dev/null 2>&1 || [ -x /usr/lib/postgresql/*/bin/postgres ] 2>/dev/null || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: not installed (needs root and apt-get): ${missing[*]}; the tests that need them say so when skipped" >&2
  exit 0
fi
echo "system-deps: installing ${missing[*]} from Debian's packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
