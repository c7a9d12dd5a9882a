#!/usr/bin/env bash
# A real xAPI Learning Record Store on loopback for the end-to-end tests: ralph's LRS server
# (PyPI's ralph-malph, pinned) with its file-system backend, one user, HTTP Basic auth.
#   .ci/lrs.sh start DIR [ORIGIN...]  start it; prints one line of JSON:
#       {"endpoint": "http://127.0.0.1:PORT/xAPI/", "auth": "Basic …", "pid": N}
#   .ci/lrs.sh stop DIR               stop the server started for DIR (TERM, then KILL)
# Each ORIGIN (e.g. http://127.0.0.1:8765) may call it from a browser: ralph's CORS setting
# is a list of exact origins, so a page's origin must be named (no wildcard, no port range).
# DIR holds auth.json (ralph's credentials file), store/ (the statements, one JSON a line,
# kept from one start to the next), lrs_app.py (ralph's app with two fixes, see below),
# history.json (ralph's record of reads and writes), lrs.log (the server's log) and lrs.pid.
# ralph is installed once, in a virtual environment under
# ${ABS_CACHE:-~/.cache/abs-playground}/ralph-VERSION.
set -euo pipefail
say() { printf '\033[1mlrs:\033[0m %s\n' "$*" >&2; }
usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}

ralph_version=5.1.0
venv="${ABS_CACHE:-$HOME/.cache/abs-playground}/ralph-$ralph_version"
py="$venv/bin/python"
start_limit=60 # seconds `start` waits for the server to answer
stop_limit=10  # seconds `stop` waits after TERM

command="${1:-}"
dir="${2:-}"
[ -n "$command" ] && [ -n "$dir" ] || usage
[ "$command" != start ] || mkdir -p "$dir"
if [ -d "$dir" ]; then dir="$(cd "$dir" && pwd)"; fi

# A pid file is trusted only while its process is still uvicorn on DIR's lrs_app (a pid
# can be reused once its process has gone).
pid_of() {
  local pid
  pid="$(cat "$dir/lrs.pid" 2>/dev/null)" || return 1
  [ -r "/proc/$pid/cmdline" ] \
    && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "uvicorn lrs_app:app --app-dir $dir " \
    && printf '%s\n' "$pid"
}

stop() {
  local pid until=$((SECONDS + stop_limit))
  if pid="$(pid_of)"; then
    kill -TERM "$pid" 2>/dev/null || true
    while pid_of >/dev/null && [ "$SECONDS" -lt "$until" ]; do sleep 0.2; done
    if pid_of >/dev/null; then
      say "the LRS (pid $pid) did not stop on TERM within $stop_limit s: KILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$dir/lrs.pid"
}

# Extras: `lrs` is the server (FastAPI, uvicorn, bcrypt), `cli` the `ralph auth` command that
# writes the credentials file; the fs backend needs none. ralph 5.1.0's API imports requests
# (its OIDC module, loaded even for Basic auth) without declaring it: named here. Built aside
# and renamed, so that an interrupted install is started again, never used; requirements.txt
# inside says what it holds, so a change here installs afresh. Run as `python -m`: a moved
# venv's bin/ scripts still name the .partial folder in their first line.
requirements="ralph-malph[cli,lrs]==$ralph_version requests==2.34.2"
install() {
  [ "$(cat "$venv/requirements.txt" 2>/dev/null)" = "$requirements" ] && return 0
  say "installing $requirements into $venv"
  mkdir -p "$(dirname "$venv")"
  rm -rf "$venv.partial"
  python3 -m venv "$venv.partial"
  # shellcheck disable=SC2086 # the requirements are words
  "$venv.partial/bin/python" -m pip install --quiet --disable-pip-version-check $requirements >&2
  RALPH_RUNSERVER_BACKEND=fs "$venv.partial/bin/python" -c 'import ralph.api, ralph.cli, uvicorn'
  printf '%s\n' "$requirements" >"$venv.partial/requirements.txt"
  rm -rf "$venv"
  mv "$venv.partial" "$venv"
}

start() {
  if pid_of >/dev/null; then
    say "an LRS from $dir is already running: stop it first (.ci/lrs.sh stop $dir)"
    exit 1
  fi
  install
  # A fresh password each start; a port free when picked (another program could take it
  # before uvicorn); the origins as the JSON list ralph reads.
  local t0=$EPOCHREALTIME user=abs password port origins
  read -r password port origins < <("$py" -c 'import json, secrets, socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0))
print(secrets.token_urlsafe(18), s.getsockname()[1], json.dumps(sys.argv[1:], separators=(",", ":")))' "$@")
  mkdir -p "$dir/store"
  rm -f "$dir/auth.json" "$dir/lrs.pid"

  # ralph reads its settings from RALPH_* variables (and from a .env in its working folder:
  # it runs in DIR, which holds none). Scopes are enforced (RESTRICT_BY_SCOPES needs
  # RESTRICT_BY_AUTHORITY), as a real deployment would, so the user's scopes must be right.
  export RALPH_APP_DIR="$dir" RALPH_AUTH_FILE="$dir/auth.json" \
    RALPH_RUNSERVER_BACKEND=fs RALPH_BACKENDS__LRS__FS__DEFAULT_DIRECTORY_PATH="$dir/store" \
    RALPH_LRS_RESTRICT_BY_AUTHORITY=true RALPH_LRS_RESTRICT_BY_SCOPES=true \
    RALPH_RUNSERVER_CORS_ALLOW_ORIGINS="$origins"
  # ralph's own command writes the credentials file (a bcrypt hash), in its own format.
  (cd "$dir" && "$py" -m ralph auth -w -u "$user" -p "$password" \
    -s statements/write -s statements/read -A "$user" http://127.0.0.1/ \
    >>"$dir/lrs.log" 2>&1) || {
    say "ralph auth failed, or ralph refused its settings; its log ends:"
    tail -n 20 "$dir/lrs.log" >&2
    exit 1
  }

  # uvicorn on ralph's app, as ralph's docs advise beyond development (`ralph runserver`
  # runs uvicorn with reload=True: a second process watching files), through lrs_app.py:
  # ralph's own app, with two bugs of ralph 5.1.0's fs backend (5.0.1's too) worked
  # around, since no setting reaches them. 1. Its writes default to CREATE, which
  # refuses an existing file: every POST after the first failed with 500 ("Statements bulk
  # indexation failed"). 2. The API hands it the verb and activity filters as IRI objects,
  # never equal to the stored strings: GET with verb= or activity= found nothing.
  cat >"$dir/lrs_app.py" <<'EOF'
"""ralph's LRS app (ralph.api:app), two bugs of its fs backend worked around: see lrs.sh."""
from ralph.backends.data.base import BaseOperationType
from ralph.backends.lrs.fs import FSLRSBackend
FSLRSBackend.default_operation_type = BaseOperationType.APPEND
query_statements = FSLRSBackend.query_statements
def query_statements_by_str(self, params, target=None):
    for name in ("verb", "activity"):
        if getattr(params, name, None) is not None:
            setattr(params, name, str(getattr(params, name)))
    return query_statements(self, params, target)
FSLRSBackend.query_statements = query_statements_by_str
from ralph.api import app  # noqa: E402,F401
EOF
  # Its own session (setsid), so a signal to the caller's process group does not reach it;
  # `$$` is the pid python ends up with.
  (cd "$dir" && exec setsid bash -c 'echo $$ >"$0"; exec "$@"' "$dir/lrs.pid" \
    "$py" -m uvicorn lrs_app:app --app-dir "$dir" --host 127.0.0.1 --port "$port" \
    </dev/null >>"$dir/lrs.log" 2>&1) &
  trap 'rc=$?; if [ "$rc" -ne 0 ]; then stop; fi' EXIT
  trap 'exit 1' INT TERM

  local auth endpoint="http://127.0.0.1:$port/xAPI/" until=$((SECONDS + start_limit)) i why
  auth="Basic $(printf '%s:%s' "$user" "$password" | base64 -w0)"
  for i in $(seq 50); do [ -s "$dir/lrs.pid" ] && break; sleep 0.1; done
  # Up means it answers /whoami with these credentials: the server, its backend and the
  # credentials file all work.
  until "$py" -c 'import sys, urllib.request
r = urllib.request.Request(sys.argv[1], headers={"Authorization": sys.argv[2]})
sys.exit(urllib.request.urlopen(r, timeout=2).status != 200)' \
    "http://127.0.0.1:$port/whoami" "$auth" 2>/dev/null; do
    why=""
    pid_of >/dev/null || why="its process stopped"
    [ "$SECONDS" -lt "$until" ] || why="it did not answer within $start_limit s"
    if [ -n "$why" ]; then
      say "the LRS did not start: $why (see $dir/lrs.log); its log ends:"
      tail -n 20 "$dir/lrs.log" >&2
      exit 1
    fi
    sleep 0.3
  done
  trap - EXIT INT TERM
  local pid
  pid="$(pid_of)"
  say "up in $(awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $t0 }") s: $endpoint (pid $pid, CORS origins $origins)"
  printf '{"endpoint": "%s", "auth": "%s", "pid": %s}\n' "$endpoint" "$auth" "$pid"
}

case "$command" in
  start) shift 2; start "$@" ;;
  stop) stop ;;
  *) usage ;;
esac
