// SPDX-License-Identifier: GPL-2.0
/*
 * The real ftnl-cli binary (build/bin/ftnl-cli, beside this test's
 * directory): exit statuses, where messages go, help texts. Commands that
 * need the module are expected to fail with status 3 where it is not
 * loaded (and are skipped where it is).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "tap.h"

extern char **environ;

static char cli_path[PATH_MAX + 32];

struct run {
	int status;		/* exit status, or -1 */
	char out[8192];
	char err[8192];
};

static void slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? 0 : read(fd, buf, size - 1);

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	unlink(path);
}

/* Run ftnl-cli with @args (space separated). */
static bool run(struct run *r, const char *args)
{
	char storage[1024], *argv[64], *p, *save = NULL;
	char out_path[] = "/tmp/ftnl-cli-out-XXXXXX";
	char err_path[] = "/tmp/ftnl-cli-err-XXXXXX";
	posix_spawn_file_actions_t actions;
	int argc = 0, out_fd, err_fd, wstatus;
	pid_t pid;
	bool ok;

	snprintf(storage, sizeof(storage), "%s", args);
	argv[argc++] = cli_path;
	for (p = strtok_r(storage, " ", &save); p && argc < 63;
	     p = strtok_r(NULL, " ", &save))
		argv[argc++] = p;
	argv[argc] = NULL;

	out_fd = mkstemp(out_path);
	err_fd = mkstemp(err_path);
	if (out_fd < 0 || err_fd < 0)
		return false;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
	ok = !posix_spawn(&pid, cli_path, &actions, NULL, argv, environ) &&
	     waitpid(pid, &wstatus, 0) == pid;
	posix_spawn_file_actions_destroy(&actions);
	close(out_fd);
	close(err_fd);
	r->status = ok && WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
	slurp(out_path, r->out, sizeof(r->out));
	slurp(err_path, r->err, sizeof(r->err));
	return ok;
}

struct exec_case {
	const char *args;
	int status;
	const char *out;	/* substring of stdout; "" means empty */
	const char *err;	/* whole stderr; NULL: don't care */
};

static const struct exec_case cases[] = {
	{ "help", 0, "Usage: ftnl-cli [OPTIONS] OBJECT", "" },
	{ "-h", 0, "Exit status: 0 success", "" },
	{ "cluster help", 0, "ARGS := [ id ID ]", "" },
	{ "n h", 0, "Usage: ftnl-cli node list", "" },
	{ "help monitor", 0, "one JSON object per line", "" },
	{ "stats help", 0, "histogram", "" },
	{ "bcast help", 0, "Usage: ftnl-cli bcast [ show ]", "" },
	{ "b h", 0, "origin starting a broadcast", "" },
	{ "help bcast", 0, "duplicates", "" },
	{ "help", 0, "bcast [ show | help ]", "" },
	{ "cluster help", 0, "[ bcast { hypercube | bmg | fcg } ]", "" },
	{ "-V", 0, "ftnl-cli " FTNL_LIB_VERSION, "" },
	{ "help", 0, "proc [ list | help ]", "" },
	{ "proc help", 0, "Usage: ftnl-cli proc [ list ]", "" },
	{ "p h", 0, "job, rank, owner uid and the netlink port id", "" },
	{ "help monitor", 0, "proc_exit  a registered process died", "" },
	{ "proc lsit", 1, "",
	  "ftnl-cli: unknown command \"lsit\" (did you mean \"list\"?); try \"ftnl-cli proc help\"\n" },
	{ "", 1, "",
	  "ftnl-cli: missing object; try \"ftnl-cli help\"\n" },
	{ "clutser show", 1, "",
	  "ftnl-cli: unknown object \"clutser\" (did you mean \"cluster\"?); try \"ftnl-cli help\"\n" },
	{ "cluster set id 1 heartbeat 10xs", 1, "",
	  "ftnl-cli: cluster set: invalid heartbeat \"10xs\" (expected a duration such as 100ms; units us, ms, s)\n" },
	{ "cluster set id 1 self 1 heartbeat 100ms timeout 50ms key "
	  "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	  " node 1 10.0.0.1 7400", 1, "",
	  "ftnl-cli: cluster set: timeout must be greater than the heartbeat period\n" },
	{ "cluster set id 1 bcast ring", 1, "",
	  "ftnl-cli: cluster set: unknown broadcast algorithm \"ring\" (expected hypercube, bmg or fcg)\n" },
	{ "bcast show now", 1, "",
	  "ftnl-cli: unexpected argument \"now\" after bcast show\n" },
	{ "cluster set file /nonexistent/ftnl.conf", 1, "",
	  "ftnl-cli: cluster set: /nonexistent/ftnl.conf: No such file or directory\n" },
	{ "health help", 0, "2 CRITICAL  module not loaded", "" },
	{ "he", 0, "Usage: ftnl-cli [OPTIONS] OBJECT", "" },
	{ "help", 0, "health [ window D ]", "" },
	/* A broken health check is UNKNOWN to the monitoring system. */
	{ "health windwo 1s", 3, "",
	  "ftnl-cli: unknown argument \"windwo\" (did you mean \"window\"?); try \"ftnl-cli health help\"\n" },
	{ "hea late-warn 10ms late-crit 5ms", 3, "",
	  "ftnl-cli: late-warn must not be above late-crit\n" },
	{ "-n ftnl-no-such-netns info", 1, "",
	  "ftnl-cli: cannot open network namespace \"ftnl-no-such-netns\": No such file or directory\n" },
};

static void test_case(const void *arg)
{
	const struct exec_case *c = arg;
	struct run r;

	if (!TAP_CHECK(run(&r, c->args)))
		return;
	TAP_CHECK_INT(r.status, c->status);
	if (c->out[0])
		TAP_CHECK_CONTAINS(r.out, c->out);
	else
		TAP_CHECK_STR(r.out, "");
	if (c->err)
		TAP_CHECK_STR(r.err, c->err);
}

/* The limits in the help are the uapi header's, not a copy of them. */
static void test_help_limits(const void *arg)
{
	char want[160];
	struct run r;

	(void)arg;
	if (!TAP_CHECK(run(&r, "cluster help")))
		return;
	TAP_CHECK_INT(r.status, 0);
	snprintf(want, sizeof(want), "is its f, %u..%u (failures",
		 (unsigned int)FTNL_FCG_F_MIN, (unsigned int)FTNL_FCG_F_MAX);
	TAP_CHECK_CONTAINS(r.out, want);
	snprintf(want, sizeof(want), "default %u)",
		 (unsigned int)FTNL_FCG_F_DEFAULT);
	TAP_CHECK_CONTAINS(r.out, want);
	snprintf(want, sizeof(want), "time T, %uus..%us or auto",
		 (unsigned int)FTNL_GOSSIP_SLOT_US,
		 (unsigned int)(FTNL_GOSSIP_T_MAX_US / 1000000));
	TAP_CHECK_CONTAINS(r.out, want);
}

/* Commands that need the module. */
static const char *const module_commands[] = {
	"info", "-j cluster show", "node list", "cluster delete", "monitor",
	"stats", "cluster leave", "node readmit 3", "bcast", "-j bcast show",
	"-jp b", "proc", "-j proc list", "proc show",
};

static bool module_loaded(void)
{
	struct ftnl_handle *h;

	if (ftnl_open(&h))
		return false;
	ftnl_close(h);
	return true;
}

/* health without the module: CRITICAL, one line on stdout, nothing else. */
static void test_health_without_module(const void *arg)
{
	struct run r;

	(void)arg;
	if (module_loaded()) {
		TAP_SKIP("the ftnl module is loaded here");
		return;
	}
	if (!TAP_CHECK(run(&r, "health window 0")))
		return;
	TAP_CHECK_INT(r.status, 2);
	TAP_CHECK_STR(r.out,
		      "ftnl CRITICAL: module not loaded (no \"ftnl\" generic netlink family)\n");
	TAP_CHECK_STR(r.err, "");
}

static void test_without_module(const void *arg)
{
	struct run r;

	if (module_loaded()) {
		TAP_SKIP("the ftnl module is loaded here");
		return;
	}
	if (!TAP_CHECK(run(&r, arg)))
		return;
	TAP_CHECK_INT(r.status, CLI_EXIT_UNAVAILABLE);
	TAP_CHECK_STR(r.out, "");
	TAP_CHECK_STR(r.err,
		      "ftnl-cli: the \"ftnl\" generic netlink family is not registered; is the ftnl module loaded?\n");
}

int main(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t i;

	if (n <= 0) {
		printf("Bail out! cannot find myself\n");
		return 1;
	}
	exe[n] = '\0';
	snprintf(cli_path, sizeof(cli_path), "%s/../bin/ftnl-cli", dirname(exe));
	if (access(cli_path, X_OK)) {
		printf("Bail out! %s is not built: run \"make -C tools\"\n",
		       cli_path);
		return 1;
	}

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tap_add(test_case, &cases[i], "ftnl-cli %s: exit %d", cases[i].args,
			cases[i].status);
	tap_add(test_help_limits, NULL,
		"ftnl-cli cluster help: FCG's limits from the uapi header");
	tap_add(test_health_without_module, NULL,
		"ftnl-cli health without the module: exit 2, one line");
	for (i = 0; i < sizeof(module_commands) / sizeof(module_commands[0]); i++)
		tap_add(test_without_module, module_commands[i],
			"ftnl-cli %s without the module: exit 3",
			module_commands[i]);
	return tap_run();
}
