#!/usr/bin/env bash
# devserver.sh: a dev-server command for e2e-mcp, in Bash. Copy it into your
# project and change DEV_SERVER_CMD (or set it in the environment).
#
#   devserver.sh --start | --restart | --status | --shutdown   (no verb: --start)
#
# It prints one JSON object on stdout and exits 0 on success, 1 on failure
# (the contract of e2e-mcp's docs/dev-server.md). The server runs in a session of its own,
# so it outlives this script; its PID, port and start time are kept in
# $DEV_SERVER_STATE_DIR/state, its output in stdout.log, stderr.log and
# combined.log there.
#
# Settings (environment):
#   DEV_SERVER_CMD            the server's command line; $PORT in it is the port
#                             picked for it (PORT is exported too). It runs with
#                             bash, in the script's working directory.
#                             Default: python3 -m http.server $PORT --bind 127.0.0.1
#   DEV_SERVER_STATE_DIR      default: ${XDG_STATE_HOME:-~/.local/state}/devserver-sh
#   DEV_SERVER_READY_PATH     the path that must answer HTTP < 500 (default /)
#   DEV_SERVER_START_TIMEOUT  seconds to wait for it (default 25, within the 30 s
#                             e2e-mcp gives --start)
#
# Needs bash 4+, curl (or bash's /dev/tcp: then readiness is "port open"),
# setsid (util-linux) or perl, and flock where available.
set -u -o pipefail

CMD=${DEV_SERVER_CMD:-'python3 -m http.server $PORT --bind 127.0.0.1'}
STATE_DIR=${DEV_SERVER_STATE_DIR:-${XDG_STATE_HOME:-$HOME/.local/state}/devserver-sh}
READY_PATH=${DEV_SERVER_READY_PATH:-/}
START_TIMEOUT=${DEV_SERVER_START_TIMEOUT:-25}
STOP_GRACE=10 # seconds between SIGTERM and SIGKILL

verb=start
if (($# > 0)); then
	case "${!#}" in
	--start) verb=start ;;
	--restart) verb=restart ;;
	--status) verb=status ;;
	--shutdown) verb=shutdown ;;
	*) ;;
	esac
fi

# --- JSON -------------------------------------------------------------------

json_str() { # a JSON string literal
	local s=$1
	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//$'\n'/\\n}
	s=${s//$'\r'/\\r}
	s=${s//$'\t'/\\t}
	s=$(printf '%s' "$s" | LC_ALL=C tr -d '\000-\037')
	printf '"%s"' "$s"
}

fail() { # fail KIND MESSAGE: the error answer, exit 1
	printf '{"status":"error","error":%s,"message":%s,"logs":%s}\n' "$(json_str "$1")" "$(json_str "$2")" "$(logs_json)"
	exit 1
}

logs_json() {
	printf '{"stdout":%s,"stderr":%s,"combined":%s}' "$(json_str "$STATE_DIR/stdout.log")" \
		"$(json_str "$STATE_DIR/stderr.log")" "$(json_str "$STATE_DIR/combined.log")"
}

now_iso() { date -u +%Y-%m-%dT%H:%M:%SZ; }

# --- state ------------------------------------------------------------------

mkdir -p "$STATE_DIR" || fail io_error "cannot create $STATE_DIR"
chmod 700 "$STATE_DIR"
STATE_DIR=$(cd "$STATE_DIR" && pwd) # log paths must be absolute
STATE_FILE=$STATE_DIR/state

# One verb at a time for this server.
if command -v flock >/dev/null; then
	exec 9>"$STATE_DIR/lock"
	flock -w 20 9 || fail timeout "another verb is still running (lock $STATE_DIR/lock)"
fi

PID='' PORT='' URL='' STARTED_AT='' STARTED_EPOCH=''
load_state() {
	PID='' PORT='' URL='' STARTED_AT='' STARTED_EPOCH=''
	# shellcheck disable=SC1090
	[[ -f $STATE_FILE ]] && . "$STATE_FILE"
}

save_state() { # written to a temporary file, then renamed: never half-written
	printf 'PID=%q\nPORT=%q\nURL=%q\nSTARTED_AT=%q\nSTARTED_EPOCH=%q\n' \
		"$PID" "$PORT" "$URL" "$STARTED_AT" "$STARTED_EPOCH" >"$STATE_FILE.tmp" && mv -f "$STATE_FILE.tmp" "$STATE_FILE"
}

alive() { # alive PID: running, and not a zombie
	[[ -n $1 ]] && kill -0 "$1" 2>/dev/null || return 1
	if [[ -r /proc/$1/stat ]]; then
		local s
		s=$(<"/proc/$1/stat")
		s=${s##*) }
		[[ ${s%% *} != Z ]]
	fi
}

group_alive() { # group_alive PGID: some process of the group runs (zombies do not count)
	kill -0 -- "-$1" 2>/dev/null || return 1
	command -v ps >/dev/null || return 0
	ps -eo pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { found = 1 } END { exit !found }'
}

uptime_s() { echo $(($(date +%s) - ${STARTED_EPOCH:-$(date +%s)})); }

# --- probes -----------------------------------------------------------------

free_port() {
	if command -v python3 >/dev/null; then
		python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' && return
	fi
	local p
	for _ in $(seq 50); do
		p=$((20000 + RANDOM % 40000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
	done
	return 1
}

healthy() { # healthy URL: answers HTTP below 500 (or, without curl, the port is open)
	if command -v curl >/dev/null; then
		local code
		code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 --noproxy '*' "$1$READY_PATH") || true
		[[ $code =~ ^[1-4][0-9][0-9]$ ]]
	else
		(exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null
	fi
}

# --- verbs ------------------------------------------------------------------

# stop_server: SIGTERM to the server's process group, up to STOP_GRACE seconds,
# then SIGKILL. Sets FORCED=1 if SIGKILL was needed.
FORCED=0
stop_server() {
	FORCED=0
	kill -TERM -- "-$PID" 2>/dev/null
	local end=$((SECONDS + STOP_GRACE))
	while group_alive "$PID" && ((SECONDS < end)); do sleep 0.1; done
	if group_alive "$PID"; then
		FORCED=1
		kill -KILL -- "-$PID" 2>/dev/null
		end=$((SECONDS + 3))
		while group_alive "$PID" && ((SECONDS < end)); do sleep 0.1; done
	fi
	rm -f "$STATE_FILE"
}

# DETACH runs a command as the leader of a new session (and process group),
# keeping its PID: setsid from util-linux, or perl (macOS).
if command -v setsid >/dev/null; then
	DETACH=(setsid)
else
	DETACH=(perl -MPOSIX -e 'POSIX::setsid() or die "setsid: $!"; exec @ARGV or die "exec: $!"' --)
fi

# launch [AVOID_PORT]: start the server, wait until it answers, record it.
launch() {
	local avoid=${1:-} log
	PORT=$(free_port) || fail io_error "no free port"
	[[ $PORT == "$avoid" ]] && { PORT=$(free_port) || fail io_error "no free port"; }
	export PORT
	for log in stdout stderr combined; do
		[[ -f $STATE_DIR/$log.log ]] && mv -f "$STATE_DIR/$log.log" "$STATE_DIR/$log.log.1"
		(umask 077 && : >"$STATE_DIR/$log.log")
	done
	# The new session's shell sends the output through tee into the three
	# logs, then becomes the server (exec): its PID is the group's.
	# shellcheck disable=SC2016
	# It must not keep this script's stdout, stderr or lock (fd 9) open.
	"${DETACH[@]}" bash -c 'exec > >(tee -a "$1" >>"$3" 2>/dev/null) 2> >(tee -a "$2" >>"$3" 2>/dev/null) </dev/null; eval "exec $4"' \
		devserver "$STATE_DIR/stdout.log" "$STATE_DIR/stderr.log" "$STATE_DIR/combined.log" "$CMD" \
		</dev/null >/dev/null 2>&1 9>&- &
	PID=$!
	URL="http://localhost:$PORT"
	STARTED_AT=$(now_iso)
	STARTED_EPOCH=$(date +%s)
	save_state
	local end=$((SECONDS + START_TIMEOUT))
	while ((SECONDS < end)); do
		if ! alive "$PID"; then
			sleep 0.2 # let tee write the last lines
			rm -f "$STATE_FILE"
			fail not_ready "the dev server exited before it was ready; last output:"$'\n'"$(tail -n 20 "$STATE_DIR/combined.log")"
		fi
		healthy "$URL" && return 0
		sleep 0.1
	done
	stop_server
	fail not_ready "the dev server did not answer on $URL$READY_PATH within ${START_TIMEOUT}s; last output:"$'\n'"$(tail -n 20 "$STATE_DIR/combined.log")"
}

answer() { # answer STATUS MESSAGE [EXTRA_JSON_FIELDS]
	printf '{"status":%s,"url":%s,"port":%s,"pid":%s,"startedAt":%s,"logs":%s,"message":%s%s}\n' \
		"$(json_str "$1")" "$(json_str "$URL")" "$PORT" "$PID" "$(json_str "$STARTED_AT")" "$(logs_json)" "$(json_str "$2")" "${3:-}"
}

load_state
case $verb in
start)
	if alive "$PID"; then
		answer already_running "already running (pid $PID)" ",\"uptime\":$(uptime_s)"
		exit 0
	fi
	[[ -n $PID ]] && group_alive "$PID" && stop_server # leftovers of a server that died
	launch
	answer ready "started: $CMD"
	;;
restart)
	old_pid=$PID old_port=$PORT status=started
	if alive "$PID"; then
		stop_server
		status=restarted
	elif [[ -n $PID ]] && group_alive "$PID"; then
		stop_server
	fi
	launch "$old_port"
	extra=''
	[[ -n $old_pid ]] && extra=",\"previousPid\":$old_pid,\"previousPort\":$old_port"
	answer "$status" "$status: $CMD" "$extra"
	;;
status)
	if ! alive "$PID"; then
		printf '{"status":"stopped","message":%s}\n' "$(json_str "not running${PID:+ (pid $PID exited)}")"
	elif healthy "$URL"; then
		answer running "running and healthy" ",\"uptime\":$(uptime_s),\"healthy\":true"
	else
		answer unhealthy "the process runs but $URL$READY_PATH does not answer" ",\"uptime\":$(uptime_s),\"healthy\":false"
	fi
	;;
shutdown)
	if [[ -z $PID ]] || ! group_alive "$PID"; then
		rm -f "$STATE_FILE"
		printf '{"status":"already_stopped","message":"not running","stoppedAt":%s}\n' "$(json_str "$(now_iso)")"
		exit 0
	fi
	up=$(uptime_s)
	stop_server
	status=stopped
	((FORCED)) && status=force_stopped
	printf '{"status":%s,"previousPid":%s,"previousPort":%s,"stoppedAt":%s,"uptime":%s,"message":%s}\n' \
		"$(json_str "$status")" "$PID" "$PORT" "$(json_str "$(now_iso)")" "$up" "$(json_str "$status pid $PID")"
	;;
esac
