// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The group failure detector: the oracle directory (files present at
 * open, files created, renamed into place and written after it, names
 * that are not ranks), and the module choice on a host without the ftnl
 * family (the module path itself runs in the VM selftests).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "group/detector.h"
#include "group/loop.h"
#include "tap.h"

#define SIZE 6
#define SELF 0

static char tmpdir[] = "/tmp/ftnl-group-detector-XXXXXX";
static int epfd = -1;

struct deaths {
	unsigned int reports[SIZE + 1];	/* per rank; [SIZE]: out of range */
	uint32_t max_inc[SIZE + 1];	/* the highest incarnation reported */
};

static void on_dead(void *ctx, uint32_t rank, uint32_t inc)
{
	struct deaths *d = ctx;

	d->reports[rank < SIZE ? rank : SIZE]++;
	if (inc > d->max_inc[rank < SIZE ? rank : SIZE])
		d->max_inc[rank < SIZE ? rank : SIZE] = inc;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Dispatch events, sleeping in epoll_wait(), until @rank is reported. */
static bool wait_report(const struct deaths *d, uint32_t rank, int timeout_ms)
{
	uint64_t end = now_ms() + (uint64_t)timeout_ms;

	while (!d->reports[rank]) {
		struct epoll_event evs[8];
		uint64_t now = now_ms();
		int n, i;

		if (now >= end)
			return false;
		n = epoll_wait(epfd, evs, 8, (int)(end - now));
		for (i = 0; i < n; i++) {
			struct grp_source *src = evs[i].data.ptr;

			src->ready(src, evs[i].events);
		}
	}
	return true;
}

/* Dispatch whatever arrives for @ms. */
static void settle(int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;
	uint64_t now;

	while ((now = now_ms()) < end) {
		struct epoll_event evs[8];
		int n = epoll_wait(epfd, evs, 8, (int)(end - now)), i;

		for (i = 0; i < n; i++) {
			struct grp_source *src = evs[i].data.ptr;

			src->ready(src, evs[i].events);
		}
	}
}

static void touch(const char *dir, const char *name)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	else
		tap_diag("cannot create %s", path);
}

static struct ftnl_group_peer peers[SIZE];

static struct ftnl_group_spec make_spec(const char *dir)
{
	return (struct ftnl_group_spec){
		.job = 42, .size = SIZE, .rank = SELF, .peers = peers,
		.failure_dir = (char *)dir,
	};
}

static void test_oracle(const void *arg)
{
	char dir[256], from[512], to[512];
	struct ftnl_group_spec spec;
	struct grp_detector *det = NULL;
	struct deaths d = { { 0 }, { 0 } };
	uint32_t r;

	(void)arg;
	snprintf(dir, sizeof(dir), "%s/oracle", tmpdir);
	if (!TAP_CHECK(!mkdir(dir, 0755)))
		return;
	spec = make_spec(dir);
	/* before open: one death, and names that are not deaths */
	touch(dir, "2");
	touch(dir, "0");	/* this process: never reported */
	touch(dir, "03");	/* not as printf writes a rank */
	touch(dir, "6");	/* out of range */
	touch(dir, "4.tmp");
	touch(dir, "4.1");	/* incarnation 1 is "4" */
	touch(dir, "4.02");
	touch(dir, "4.");
	touch(dir, ".4");
	touch(dir, "x");
	if (!TAP_CHECK_INT(grp_detector_open(&spec, FTNL_GROUP_MODULE_OFF, epfd,
					     on_dead, &d, &det), 0))
		return;
	TAP_CHECK(!grp_detector_uses_module(det));
	TAP_CHECK(d.reports[2] >= 1);	/* during open */

	/* after open: created, renamed into place, written */
	touch(dir, "3");
	TAP_CHECK(wait_report(&d, 3, 2000));
	snprintf(from, sizeof(from), "%s/.pending-1", dir);
	snprintf(to, sizeof(to), "%s/1", dir);
	touch(dir, ".pending-1");
	TAP_CHECK(!rename(from, to));
	TAP_CHECK(wait_report(&d, 1, 2000));
	touch(dir, "5");
	TAP_CHECK(wait_report(&d, 5, 2000));
	TAP_CHECK_UINT(d.max_inc[5], 1);
	/* a restarted rank's process: "R.I" */
	touch(dir, "5.3");
	for (int i = 0; i < 200 && d.max_inc[5] != 3; i++)
		settle(10);
	TAP_CHECK_UINT(d.max_inc[5], 3);
	touch(dir, "-4");
	touch(dir, "+4");
	touch(dir, "4 ");
	touch(dir, "99999999999999999999");
	touch(dir, "65536");
	settle(100);

	TAP_CHECK_UINT(d.reports[0], 0);
	TAP_CHECK_UINT(d.reports[4], 0);
	TAP_CHECK_UINT(d.reports[SIZE], 0);
	for (r = 1; r < SIZE; r++)
		if (r != 4)
			TAP_CHECK(d.reports[r] >= 1);
	grp_detector_close(det, true);
}

static void test_no_sources(const void *arg)
{
	struct ftnl_group_spec spec = make_spec(NULL);
	struct grp_detector *det = NULL;
	struct deaths d = { { 0 }, { 0 } };

	(void)arg;
	TAP_CHECK_INT(grp_detector_open(&spec, FTNL_GROUP_MODULE_OFF, epfd,
					on_dead, &d, &det), 0);
	TAP_CHECK(det && !grp_detector_uses_module(det));
	grp_detector_close(det, true);
	grp_detector_close(NULL, false);
}

static void test_missing_dir(const void *arg)
{
	struct ftnl_group_spec spec = make_spec("/nonexistent/ftnl-failed");
	struct grp_detector *det = NULL;
	struct deaths d = { { 0 }, { 0 } };

	(void)arg;
	TAP_CHECK_INT(grp_detector_open(&spec, FTNL_GROUP_MODULE_OFF, epfd,
					on_dead, &d, &det), -ENOENT);
	TAP_CHECK(!det);
}

static void test_bad_args(const void *arg)
{
	struct ftnl_group_spec spec = make_spec(NULL);
	struct grp_detector *det = NULL;
	struct deaths d = { { 0 }, { 0 } };

	(void)arg;
	TAP_CHECK_INT(grp_detector_open(&spec, (enum ftnl_group_module)7, epfd,
					on_dead, &d, &det), -EINVAL);
	spec.rank = SIZE;
	TAP_CHECK_INT(grp_detector_open(&spec, FTNL_GROUP_MODULE_OFF, epfd,
					on_dead, &d, &det), -EINVAL);
	TAP_CHECK(!det);
}

/* Whether this host has the ftnl family (then the module tests are the VM's). */
static void test_event_gap(const void *arg)
{
	(void)arg;
	/* In order, from nothing and from somewhere. */
	TAP_CHECK(!grp_event_gap(true, 0, 1));
	TAP_CHECK(!grp_event_gap(true, 41, 42));
	/* Numbers skipped. */
	TAP_CHECK(grp_event_gap(true, 0, 2));
	TAP_CHECK(grp_event_gap(true, 41, 43));
	TAP_CHECK(grp_event_gap(true, 1, UINT64_MAX));
	/* Met again after a recovery: not a gap. */
	TAP_CHECK(!grp_event_gap(true, 41, 41));
	TAP_CHECK(!grp_event_gap(true, 41, 7));
	/* A module without numbers, or the numbering not read at open. */
	TAP_CHECK(!grp_event_gap(true, 41, 0));
	TAP_CHECK(!grp_event_gap(false, 0, 5));
	TAP_CHECK(!grp_event_gap(false, 41, 43));
}

static bool host_has_module(void)
{
	struct ftnl_handle *h;

	if (ftnl_open(&h))
		return false;
	ftnl_close(h);
	return true;
}

static void test_module_auto(const void *arg)
{
	struct ftnl_group_spec spec = make_spec(NULL);
	struct grp_detector *det = NULL;
	struct deaths d = { { 0 }, { 0 } };

	(void)arg;
	if (host_has_module()) {
		TAP_SKIP("the ftnl family is registered on this host");
		return;
	}
	TAP_CHECK_INT(grp_detector_open(&spec, FTNL_GROUP_MODULE_AUTO, epfd,
					on_dead, &d, &det), 0);
	TAP_CHECK(det && !grp_detector_uses_module(det));
	grp_detector_close(det, true);
}

static void test_module_on(const void *arg)
{
	struct ftnl_group_spec spec = make_spec(NULL);
	struct grp_detector *det = NULL;
	struct deaths d = { { 0 }, { 0 } };

	(void)arg;
	if (host_has_module()) {
		TAP_SKIP("the ftnl family is registered on this host");
		return;
	}
	TAP_CHECK_INT(grp_detector_open(&spec, FTNL_GROUP_MODULE_ON, epfd,
					on_dead, &d, &det), -ENOENT);
	TAP_CHECK(!det);
}

/*
 * A PROC_EXIT counts as a rank's death only from the rank's node and the
 * job's owner: another user registering this job's (job, rank), or the
 * same rank number on another node, is not the rank.
 */
static void test_proc_exit_filter(const void *arg)
{
	struct ftnl_group_peer peers[SIZE] = { 0 };
	struct ftnl_group_spec spec = { .job = 77, .size = SIZE, .rank = SELF,
					.peers = peers };
	/* ranks 0-1 on node 1, 2-3 on node 2, 4 on node 3, 5 unknown */
	const uint32_t rank_node[SIZE] = { 1, 1, 2, 2, 3, FTNL_GROUP_NODE_ANY };
	struct ftnl_event_proc_exit pe = { .job = 77, .rank = 2, .node_id = 2,
					   .owner_uid = 1000, .has_owner = true };
	struct ftnl_event_proc_exit e;

	(void)arg;
	TAP_CHECK(grp_proc_exit_is_death(&spec, rank_node, 1000, &pe));
	/* another user's registration of the same (job, rank) on its node */
	e = pe;
	e.owner_uid = 1001;
	TAP_CHECK(!grp_proc_exit_is_death(&spec, rank_node, 1000, &e));
	/* root's too: the owner is the job's, not any privileged one */
	e.owner_uid = 0;
	TAP_CHECK(!grp_proc_exit_is_death(&spec, rank_node, 1000, &e));
	/* the right owner, on another node than the rank's */
	e = pe;
	e.node_id = 1;
	TAP_CHECK(!grp_proc_exit_is_death(&spec, rank_node, 1000, &e));
	e.node_id = 3;
	TAP_CHECK(!grp_proc_exit_is_death(&spec, rank_node, 1000, &e));
	/* no owner in the event: never a guess */
	e = pe;
	e.has_owner = false;
	TAP_CHECK(!grp_proc_exit_is_death(&spec, rank_node, 1000, &e));
	/* another job, a rank out of range, a rank whose node is unknown */
	e = pe;
	e.job = 78;
	TAP_CHECK(!grp_proc_exit_is_death(&spec, rank_node, 1000, &e));
	e = pe;
	e.rank = SIZE;
	TAP_CHECK(!grp_proc_exit_is_death(&spec, rank_node, 1000, &e));
	e = pe;
	e.rank = 5;
	e.node_id = FTNL_GROUP_NODE_ANY;
	TAP_CHECK(!grp_proc_exit_is_death(&spec, rank_node, 1000, &e));
	/* every rank with a known node, from its node and owner */
	for (uint32_t r = 0; r < SIZE - 1; r++) {
		e = pe;
		e.rank = r;
		e.node_id = rank_node[r];
		TAP_CHECK(grp_proc_exit_is_death(&spec, rank_node, 1000, &e));
	}
}

int main(void)
{
	char cmd[300];
	int ret;

	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp failed\n");
		return 2;
	}
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0) {
		printf("Bail out! epoll_create1 failed\n");
		return 2;
	}
	tap_add(test_oracle, NULL, "oracle directory");
	tap_add(test_no_sources, NULL, "no sources");
	tap_add(test_missing_dir, NULL, "missing oracle directory");
	tap_add(test_event_gap, NULL, "a sequence number skipped is a gap, a repeat or 0 is not");
	tap_add(test_bad_args, NULL, "bad arguments");
	tap_add(test_module_auto, NULL, "module auto: falls back without it");
	tap_add(test_module_on, NULL, "module on: -ENOENT without it");
	tap_add(test_proc_exit_filter, NULL, "a process exit counts only from the rank's node and the job's owner");
	ret = tap_run();
	close(epfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		ret = ret ? ret : 1;
	return ret;
}
