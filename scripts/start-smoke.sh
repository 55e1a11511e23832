#!/usr/bin/env bash
# `npm start` as a newcomer runs it, on whatever Node the machine has: the product must come up in
# sandbox mode (embedded database, emulated providers) and answer /readyz.
set -uo pipefail
port="${SMOKE_PORT:-3987}"
data_dir="$(mktemp -d)"
# Its own process group, so the server npm starts goes with it.
PORT="$port" PGLITE_DATA_DIR="$data_dir/db" setsid npm start >"$data_dir/start.log" 2>&1 &
pid=$!
ready=1
for _ in $(seq 1 120); do
  if curl -fsS "http://localhost:$port/readyz" >/dev/null 2>&1; then ready=0; break; fi
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 1
done
kill -TERM -- "-$pid" 2>/dev/null; wait "$pid" 2>/dev/null
if [ "$ready" -ne 0 ]; then
  echo "npm start did not become ready on node $(node -v):"; tail -40 "$data_dir/start.log"
else
  echo "npm start is ready on a machine with node $(node -v)"
fi
rm -rf "$data_dir"
exit "$ready"
