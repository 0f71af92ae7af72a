#!/bin/sh
# Restarts the Showroom instances one at a time, each only once the previous one answers /api/ready, so nginx always
# has one to send requests to. Usage: deploy/rolling-restart.sh [PORT...] (default 5001 5002).
set -eu
ports=${*:-"5001 5002"}
for port in $ports; do
  systemctl restart "showroom@$port"
  tries=0
  until curl -fsS "http://127.0.0.1:$port/api/ready" >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -gt 120 ]; then echo "showroom@$port is not ready after 60 s" >&2; exit 1; fi
    sleep 0.5
  done
  echo "showroom@$port ready"
done
