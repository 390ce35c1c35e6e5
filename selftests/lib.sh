# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# lib.sh: sourced by the shell selftests. TAP output (one "ok N" or
# "not ok N" line per check; run_tests.sh renumbers them into its stream),
# iproute2, named network namespaces cleaned up on exit, and a JSON
# flattener for ftnl-cli -j output (the guest has no jq).

IP=${IP:-}
if [ -z "$IP" ]; then
	for p in /sbin/ip /usr/sbin/ip /bin/ip /usr/bin/ip; do
		[ -x "$p" ] && { IP=$p; break; }
	done
fi
: "${IP:=ip}"

tap_n=0
tap_failed=0

# FTNL_TIME_SCALE (run_tests.sh sets 3 on the debug kernel): timing tests
# multiply h, d and their waits by it (see st_time_scale(), st_vcluster.h).
TIME_SCALE=${FTNL_TIME_SCALE:-1}
scaled() { echo $(($1 * TIME_SCALE)); }

diag() { printf '# %s\n' "$*"; }

ok() {
	tap_n=$((tap_n + 1))
	printf 'ok %d %s\n' "$tap_n" "$*"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	printf 'not ok %d %s\n' "$tap_n" "$*"
}

skip() {
	tap_n=$((tap_n + 1))
	printf 'ok %d %s # SKIP\n' "$tap_n" "$*"
}

# check DESC CMD...: one result, ok if CMD succeeds.
check() {
	_desc=$1
	shift
	if "$@"; then ok "$_desc"; else not_ok "$_desc"; fi
}

# expect_empty DESC TEXT: ok if TEXT is empty, else not ok, showing TEXT.
expect_empty() {
	if [ -z "$2" ]; then
		ok "$1"
	else
		not_ok "$1"
		printf '%s\n' "$2" | sed 's/^/#   /'
	fi
}

# tap_end: the plan; exit status 1 if anything failed.
tap_end() {
	printf '1..%d\n' "$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# --- network namespaces --------------------------------------------------------

LIB_NETNS=
# netns_add NAME: ip netns add NAME, deleted again on exit.
netns_add() {
	"$IP" netns add "$1" || return 1
	LIB_NETNS="$LIB_NETNS $1"
	"$IP" -n "$1" link set lo up
}

netns_del() {
	"$IP" netns del "$1" || return 1
	_keep=
	for _ns in $LIB_NETNS; do
		[ "$_ns" = "$1" ] || _keep="$_keep $_ns"
	done
	LIB_NETNS=$_keep
}

# in_ns NAME CMD...: run CMD in netns NAME.
in_ns() {
	_ns=$1
	shift
	"$IP" netns exec "$_ns" "$@"
}

# wait_subscribed NS: wait (up to 10 s) until a generic netlink socket of
# netns NS has joined a multicast group, e.g. a monitor started in the
# background: events caused after that reach it. Return: 1 on timeout.
wait_subscribed() {
	_tries=100
	while [ $_tries -gt 0 ]; do
		"$IP" netns exec "$1" awk 'NR > 1 && $2 == 16 && $4 != "00000000" { found = 1 } END { exit !found }' \
			/proc/net/netlink && return 0
		sleep 0.1
		_tries=$((_tries - 1))
	done
	return 1
}

lib_cleanup() {
	for _ns in $LIB_NETNS; do
		"$IP" netns del "$_ns" 2>/dev/null
	done
	LIB_NETNS=
	[ -z "${LIB_TMP:-}" ] || rm -rf "$LIB_TMP"
}
trap lib_cleanup EXIT

LIB_TMP=$(mktemp -d /tmp/ftnl-selftest.XXXXXX) || exit 1

# --- JSON ------------------------------------------------------------------------

# json_flat: read one JSON value on stdin, print one "PATH=VALUE" line per
# scalar, e.g. [{"id":1,"ok":true}] gives "[0].id=1" and "[0].ok=true", and
# "PATH#=N" for each array of N elements ("#=N" for the top level).
# Strings are printed unquoted and unescaped. Exits 1 on malformed input.
json_flat() {
	awk '
	function ws() { while (pos <= len && index(" \t\r\n", substr(s, pos, 1))) pos++ }
	function out(path, v) { sub(/^\./, "", path); print path "=" v }
	function str(    o, c, e) {
		pos++
		o = ""
		while (pos <= len) {
			c = substr(s, pos, 1)
			if (c == "\"") { pos++; return o }
			if (c == "\\") {
				e = substr(s, pos + 1, 1)
				if (e == "n") o = o "\n"
				else if (e == "t") o = o "\t"
				else if (e == "r") o = o "\r"
				else if (e == "b" || e == "f") o = o " "
				else if (e == "u") { o = o "?"; pos += 4 }
				else o = o e
				pos += 2
				continue
			}
			o = o c
			pos++
		}
		bad = 1
		return o
	}
	function value(path,    c, k, i, lit) {
		ws()
		c = substr(s, pos, 1)
		if (c == "{") {
			pos++
			ws()
			if (substr(s, pos, 1) == "}") { pos++; return 1 }
			for (;;) {
				ws()
				if (substr(s, pos, 1) != "\"") { bad = 1; return 0 }
				k = str()
				ws()
				if (substr(s, pos, 1) != ":") { bad = 1; return 0 }
				pos++
				if (!value(path "." k)) return 0
				ws()
				c = substr(s, pos, 1)
				pos++
				if (c == ",") continue
				if (c == "}") return 1
				bad = 1
				return 0
			}
		}
		if (c == "[") {
			pos++
			ws()
			i = 0
			if (substr(s, pos, 1) == "]") { pos++; out(path "#", 0); return 1 }
			for (;;) {
				if (!value(path "[" i "]")) return 0
				i++
				ws()
				c = substr(s, pos, 1)
				pos++
				if (c == ",") continue
				if (c == "]") { out(path "#", i); return 1 }
				bad = 1
				return 0
			}
		}
		if (c == "\"") { out(path, str()); return !bad }
		lit = substr(s, pos)
		if (match(lit, /^-?[0-9][0-9.eE+-]*/) || match(lit, /^(true|false|null)/)) {
			out(path, substr(lit, 1, RLENGTH))
			pos += RLENGTH
			return 1
		}
		bad = 1
		return 0
	}
	{ s = s $0 "\n" }
	END {
		len = length(s)
		pos = 1
		r = value("")
		ws()
		if (!r || bad || pos <= len) {
			print "json_flat: malformed JSON near offset " pos > "/dev/stderr"
			exit 1
		}
	}'
}

# json_get FILE PATH: the value at PATH of a json_flat output FILE.
json_get() {
	awk -v p="$2" 'index($0, p "=") == 1 { print substr($0, length(p) + 2); found = 1; exit } END { exit !found }' "$1"
}
