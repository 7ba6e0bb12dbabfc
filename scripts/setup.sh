#!/usr/bin/env bash
# Sets up a machine that has only Node (20.19+) and npm, then builds every
# artifact from the document. Run as `npm run setup` from the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [ "$(pnpm --version 2>/dev/null)" != "$pnpm_version" ]; then
  echo "setup: installing pnpm $pnpm_version with npm"
  npm install --global "pnpm@$pnpm_version"
fi

bash scripts/system-deps.sh
pnpm install --frozen-lockfile
pnpm build
