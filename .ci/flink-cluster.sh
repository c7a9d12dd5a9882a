#!/usr/bin/env bash
# A real Flink 2.3 cluster on loopback, for `abs-sim flink run --cluster URL` (issue 48 §3):
# a standalone session cluster of one JobManager and two TaskManagers (4 slots each), each
# its own JVM from the jars `.ci/flink-setup.sh` installs (ABS_FLINK_HOME, or that script's
# answer when unset).
#   .ci/flink-cluster.sh start DIR     start it; DIR/rest then holds the REST API's URL
#   .ci/flink-cluster.sh stop DIR      stop every process it started (TERM, then KILL)
#   .ci/flink-cluster.sh kill-tm DIR N SIGKILL TaskManager N (1 or 2): a real lost process
#   .ci/flink-cluster.sh status DIR    each process: its pid, alive or not, its RSS
# DIR holds conf/{jm,tm1,tm2}/ (each a config.yaml: Flink 2.x reads no flink-conf.yaml),
# log/ (NAME.log is Flink's log, NAME.out the JVM's stdout and stderr: the job's prints),
# NAME.pid for jm, tm1 and tm2, and rest. The ports are free ones picked at start (the REST
# API's and the JobManager's RPC port) or left to the system (port 0: blob server,
# TaskManager RPC and data ports).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf '\033[1mflink-cluster:\033[0m %s\n' "$*" >&2; }
usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}

names=(jm tm1 tm2)
# How long `start` waits for the REST API to show every slot; how long `stop` waits after TERM.
start_limit="${ABS_FLINK_CLUSTER_TIMEOUT:-90}"
stop_limit=10

command="${1:-}"
dir="${2:-}"
[ -n "$command" ] && [ -n "$dir" ] || usage
[ "$command" != start ] || mkdir -p "$dir"
if [ -d "$dir" ]; then dir="$(cd "$dir" && pwd)"; fi

# Each JVM carries -Dabs.cluster=DIR/NAME: a pid file is trusted only while the process
# behind it still carries it (a pid can be reused once its process has gone).
ours() { # NAME PID
  [ -r "/proc/$2/cmdline" ] && tr '\0' '\n' <"/proc/$2/cmdline" | grep -qxF -- "-Dabs.cluster=$dir/$1"
}
pid_of() { # NAME: its pid, if its process is alive and ours
  local pid
  pid="$(cat "$dir/$1.pid" 2>/dev/null)" || return 1
  ours "$1" "$pid" && printf '%s\n' "$pid"
}
rss_mb() { # PID: resident memory in MB
  awk '/^VmRSS:/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null
}

# Stops the named processes: TERM, and KILL for those still up after $stop_limit seconds.
stop_all() {
  local name pid left=() until
  for name in "$@"; do
    if pid="$(pid_of "$name")"; then
      kill -TERM "$pid" 2>/dev/null || true
      left+=("$name")
    fi
  done
  until=$((SECONDS + stop_limit))
  while [ "${#left[@]}" -gt 0 ] && [ "$SECONDS" -lt "$until" ]; do
    sleep 0.2
    local still=()
    for name in "${left[@]}"; do pid_of "$name" >/dev/null && still+=("$name"); done
    left=("${still[@]+"${still[@]}"}")
  done
  for name in "${left[@]+"${left[@]}"}"; do
    if pid="$(pid_of "$name")"; then
      say "$name (pid $pid) did not stop on TERM within $stop_limit s: KILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  for name in "$@"; do rm -f "$dir/$name.pid"; done
}

start() {
  local lib="${ABS_FLINK_HOME:-}"
  [ -n "$lib" ] || lib="$("$root/.ci/flink-setup.sh")"
  local utils="$lib/../bin/bash-java-utils.jar"
  if [ ! -f "$lib/flink-dist-2.3.0.jar" ] || [ ! -f "$utils" ]; then
    say "Flink's jars were not found in $lib (flink-dist-2.3.0.jar, and ../bin/bash-java-utils.jar): run .ci/flink-setup.sh"
    exit 1
  fi
  local name
  for name in "${names[@]}"; do
    if pid_of "$name" >/dev/null; then
      say "a cluster from $dir is already running: stop it first (.ci/flink-cluster.sh stop $dir)"
      exit 1
    fi
  done
  local began=$SECONDS t0
  t0="$(date +%s.%N)"
  rm -rf "$dir/conf" "$dir/rest"
  mkdir -p "$dir/log" "$dir/upload" "$dir/tmp"

  # Flink's own JVM options for every process (`env.java.opts.all` in the config.yaml that
  # flink-dist carries, Flink's default configuration): the --add-opens and --add-exports
  # Flink needs on Java 17; without them a job is refused with InaccessibleObjectException.
  local java_opts
  java_opts="$(python3 - "$lib/flink-dist-2.3.0.jar" <<'EOF'
import re, sys, zipfile
text = zipfile.ZipFile(sys.argv[1]).read("config.yaml").decode()
print(" ".join(m for m in re.findall(r"^\s+all:\s*(--add-.*)$", text, re.M)))
EOF
)"
  [ -n "$java_opts" ] || { say "Flink's default JVM options were not found in flink-dist-2.3.0.jar's config.yaml"; exit 1; }

  # Two free ports on loopback: the REST API's and the JobManager's RPC port (TaskManagers
  # must know it). A port is free when picked; another program could take it before Flink.
  local ports rest_port rpc_port
  ports="$(python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))')"
  read -r rest_port rpc_port <<<"$ports"

  # The same configuration for the three, a TaskManager's own id added. Small memory: a
  # 2-CPU machine; the TaskManager's managed memory (RocksDB, batch) is left almost empty,
  # as these jobs keep their state on the heap. Short heartbeats, so that a killed
  # TaskManager is noticed within 5 s; a restart strategy for a lost one (a job's own
  # setting wins over it) whose delay outlasts that, so that the restart finds the lost one
  # gone instead of deploying to it once more (each subtask's attempt is then 1, not 2);
  # slots spread over both TaskManagers, so that losing one hits the
  # job; the REST API's cache short and its checkpoint history long, as the local run's.
  local common
  common="$(cat <<EOF
jobmanager.rpc.address: 127.0.0.1
jobmanager.rpc.port: $rpc_port
jobmanager.bind-host: 127.0.0.1
taskmanager.host: 127.0.0.1
taskmanager.bind-host: 127.0.0.1
rest.address: 127.0.0.1
rest.bind-address: 127.0.0.1
rest.port: $rest_port
blob.server.port: "0"
taskmanager.rpc.port: "0"
taskmanager.data.port: 0
taskmanager.numberOfTaskSlots: 4
taskmanager.load-balance.mode: SLOTS
parallelism.default: 1
jobmanager.memory.process.size: 640m
jobmanager.memory.jvm-metaspace.size: 160m
jobmanager.memory.off-heap.size: 64m
jobmanager.memory.jvm-overhead.min: 64m
taskmanager.memory.process.size: 700m
taskmanager.memory.jvm-metaspace.size: 160m
taskmanager.memory.jvm-overhead.min: 64m
taskmanager.memory.framework.heap.size: 64m
taskmanager.memory.framework.off-heap.size: 64m
taskmanager.memory.managed.size: 32m
heartbeat.interval: 1 s
heartbeat.timeout: 5 s
slot.request.timeout: 60 s
jobmanager.execution.failover-strategy: region
restart-strategy.type: fixed-delay
restart-strategy.fixed-delay.attempts: 10
restart-strategy.fixed-delay.delay: 8 s
web.refresh-interval: 100
web.checkpoints.history: 100000
web.upload.dir: $dir/upload
io.tmp.dirs: $dir/tmp
EOF
)"
  for name in "${names[@]}"; do
    mkdir -p "$dir/conf/$name"
    {
      printf '%s\n' "$common"
      case "$name" in tm*) printf 'taskmanager.resource-id: %s\n' "$name" ;; esac
    } >"$dir/conf/$name/config.yaml"
    cat >"$dir/conf/$name/log4j.properties" <<'EOF'
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = MainAppender
appender.main.name = MainAppender
appender.main.type = File
appender.main.append = true
appender.main.fileName = ${sys:log.file}
appender.main.layout.type = PatternLayout
appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n
logger.netty.name = org.apache.flink.shaded.netty4
logger.netty.level = WARN
EOF
  done

  # From here on a failure stops whatever was started.
  trap 'rc=$?; if [ "$rc" -ne 0 ]; then stop_all "${names[@]}"; fi' EXIT
  trap 'exit 1' INT TERM

  # Flink's own memory arithmetic (what bin/jobmanager.sh and bin/taskmanager.sh run): two
  # lines, the JVM's options (-Xmx, -Xms, …) and the -D settings the process must be given
  # (a TaskManager without them stops on taskmanager.cpu.cores).
  params() { # GET_JM_RESOURCE_PARAMS|GET_TM_RESOURCE_PARAMS CONF_DIR
    local out
    out="$(java -cp "$utils:$lib/*" org.apache.flink.runtime.util.bash.BashJavaUtils "$1" -c "$2" 2>&1)" || {
      say "Flink refused the memory settings of $2/config.yaml: $(printf '%s\n' "$out" | grep -m1 -i exception)"
      exit 1
    }
    printf '%s\n' "$out" | sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p'
  }
  launch() { # NAME CLASS PARAMS: one JVM in its own session, its pid into DIR/NAME.pid
    local name="$1" class="$2" out="$3" conf="$dir/conf/$1" jvm dyn
    jvm="$(sed -n 1p <<<"$out")"
    dyn="$(sed -n 2p <<<"$out")"
    rm -f "$dir/$name.pid"
    # Its own session (setsid): a signal to the caller's process group does not reach it. The
    # subshell becomes setsid, then bash, then java: no process is left waiting for it, nor
    # holding the caller's stdout. `$$` is the pid java ends up with.
    # shellcheck disable=SC2086 # the JVM options and -D settings are words
    (cd "$dir" && exec setsid bash -c 'echo $$ >"$0"; exec "$@"' "$dir/$name.pid" \
      java $jvm $java_opts -XX:+UseSerialGC "-Dabs.cluster=$dir/$name" \
      "-Dlog.file=$dir/log/$name.log" "-Dlog4j.configurationFile=file:$conf/log4j.properties" \
      -cp "$lib/*" "$class" -c "$conf" $dyn \
      </dev/null >"$dir/log/$name.out" 2>&1) &
    local i
    for i in $(seq 50); do [ -s "$dir/$name.pid" ] && break; sleep 0.1; done
    pid_of "$name" >/dev/null || { say "the $name JVM did not start: see $dir/log/$name.out"; exit 1; }
  }
  local jm_params tm_params
  jm_params="$(params GET_JM_RESOURCE_PARAMS "$dir/conf/jm")"
  launch jm org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint "$jm_params"
  # The two TaskManagers' memory settings are the same: worked out once.
  tm_params="$(params GET_TM_RESOURCE_PARAMS "$dir/conf/tm1")"
  launch tm1 org.apache.flink.runtime.taskexecutor.TaskManagerRunner "$tm_params"
  launch tm2 org.apache.flink.runtime.taskexecutor.TaskManagerRunner "$tm_params"

  local url="http://127.0.0.1:$rest_port" slots=0 until=$((began + start_limit))
  while :; do
    # python3, not curl: a fresh machine has the one (the tools are Python), not always the other.
    slots="$(python3 -c 'import json, sys, urllib.request
print(json.load(urllib.request.urlopen(sys.argv[1] + "/overview", timeout=2))["slots-total"])' \
      "$url" 2>/dev/null)" || true
    [ "${slots:-0}" -ge 8 ] && break
    for name in "${names[@]}"; do
      if ! pid_of "$name" >/dev/null; then
        say "the cluster did not come up: the $name process stopped (see $dir/log/$name.log and $name.out)"
        exit 1
      fi
    done
    if [ "$SECONDS" -ge "$until" ]; then
      say "the cluster did not show 8 slots within $start_limit s and was stopped (see the logs in $dir/log)"
      exit 1
    fi
    sleep 0.5
  done
  printf '%s\n' "$url" >"$dir/rest"
  trap - EXIT INT TERM
  local took
  took="$(python3 -c "import time; print(f'{time.time() - $t0:.1f}')")"
  local pids=()
  for name in "${names[@]}"; do
    pids+=("$name pid $(pid_of "$name") $(rss_mb "$(pid_of "$name")") MB")
  done
  say "up in $took s: $url, 8 slots ($(IFS=,; printf '%s' "${pids[*]}" | sed 's/,/, /g'))"
  printf '%s\n' "$url"
}

status() {
  local name pid
  for name in "${names[@]}"; do
    if pid="$(pid_of "$name")"; then
      printf '%s pid %s: up, RSS %s MB\n' "$name" "$pid" "$(rss_mb "$pid")"
    else
      printf '%s: not running\n' "$name"
    fi
  done
  [ -f "$dir/rest" ] && printf 'REST API: %s\n' "$(cat "$dir/rest")"
  return 0
}

kill_tm() {
  local n="${1:-}" pid
  case "$n" in 1 | 2) ;; *) say "kill-tm needs the TaskManager's number, 1 or 2, not \"$n\""; exit 2 ;; esac
  if ! pid="$(pid_of "tm$n")"; then
    say "TaskManager $n of $dir is not running"
    exit 1
  fi
  kill -KILL "$pid"
  while ours "tm$n" "$pid"; do sleep 0.1; done
  rm -f "$dir/tm$n.pid"
  say "killed TaskManager $n (pid $pid) with SIGKILL"
}

case "$command" in
  start) start ;;
  stop)
    stop_all "${names[@]}"
    rm -f "$dir/rest"
    ;;
  kill-tm) kill_tm "${3:-}" ;;
  status) status ;;
  *) usage ;;
esac
