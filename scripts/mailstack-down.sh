#!/usr/bin/env bash
# mailstack-down.sh — stop the mail system started by mailstack-up.sh and
# remove its folder.
#
# It signals only the two master processes named in the stack's own pid
# files (Postfix's and Dovecot's masters take their children with them),
# waits up to 15 s for both, then kills what is left of them. The folder
# $MAILSTACK_DIR (default /tmp/taflmail-mailstack) is removed unless
# MAILSTACK_KEEP=1, e.g. to read the logs in $MAILSTACK_DIR/*/log.
set -uo pipefail

dir=${MAILSTACK_DIR:-/tmp/taflmail-mailstack}
declare -A pidfiles=(
  [postfix]=$dir/postfix/queue/pid/master.pid
  [dovecot]=$dir/dovecot/run/master.pid
)

declare -A running=()
for name in "${!pidfiles[@]}"; do
  file=${pidfiles[$name]}
  [ -r "$file" ] || continue
  pid=$(tr -dc '0-9' <"$file")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || continue
  kill -TERM "$pid" && running[$name]=$pid
done

# Dovecot takes about 3 s to exit, Postfix about 2 s; wait for both at once.
for _ in $(seq 150); do
  alive=0
  for name in "${!running[@]}"; do
    kill -0 "${running[$name]}" 2>/dev/null && alive=1
  done
  [ $alive -eq 0 ] && break
  sleep 0.1
done
for name in "${!running[@]}"; do
  pid=${running[$name]}
  if kill -0 "$pid" 2>/dev/null; then
    echo "mailstack-down: $name (pid $pid) still running after 15 s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null
  else
    echo "mailstack-down: stopped $name (pid $pid)"
  fi
done

if [ "${MAILSTACK_KEEP:-0}" != 1 ]; then
  rm -rf "$dir"
fi
