// SPDX-License-Identifier: GPL-2.0
/*
 * A process group's failure detector (libftnl/group/detector.c, linked
 * from libftnl.a for its internal header) learns every death of its job
 * although it missed their notifications:
 *
 * - overrun: its events socket gets the smallest receive buffer the kernel
 *   allows, and 63 ranks die before it reads anything; the kernel drops
 *   most notifications (a plain subscription with the same buffer shows
 *   the overrun), and the detector must still report all 63 from the
 *   module's event history;
 * - gap: the module multicasts nothing (event_queue_len 0) while ranks 1
 *   to 10 die, then rank 11's death arrives with a sequence number 11
 *   past the last seen: ranks 1 to 11 are reported, no other.
 *
 * One netns, one node: every rank's peer node is this node, as for a job
 * whose ranks share a host. The waits sleep in epoll_wait().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "ftnl_selftest.h"
#include "group/detector.h"
#include "group/loop.h"
#include "ksft.h"

#define JOB		9090
#define SIZE		64
#define QUEUE_LEN_PARAM	"/sys/module/ftnl/parameters/event_queue_len"

struct deaths {
	unsigned int reports[SIZE];
};

static void on_dead(void *ctx, uint32_t rank, uint32_t inc)
{
	struct deaths *d = ctx;

	(void)inc;	/* the module's reports carry none */
	if (rank < SIZE)
		d->reports[rank]++;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Dispatch the detector's events for up to @ms, until @want ranks died. */
static unsigned int dispatch(int epfd, const struct deaths *d,
			     unsigned int want, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms, now;
	unsigned int dead = 0, r;

	for (;;) {
		struct epoll_event evs[4];
		int n, i;

		for (dead = 0, r = 0; r < SIZE; r++)
			dead += d->reports[r] > 0;
		now = now_ms();
		if (dead >= want || now >= end)
			return dead;
		n = epoll_wait(epfd, evs, 4, (int)(end - now));
		for (i = 0; i < n; i++) {
			struct grp_source *src = evs[i].data.ptr;

			src->ready(src, evs[i].events);
		}
	}
}

FIXTURE(group) {
	struct ftnl_handle *h;
	struct ftnl_handle *ranks[SIZE];
	struct ftnl_cluster_config c;
	struct ftnl_group_peer peers[SIZE];
	struct ftnl_group_spec spec;
	struct grp_detector *det;
	struct deaths deaths;
	int epfd;
};

FIXTURE_SETUP(group)
{
	uint32_t r;

	memset(self->ranks, 0, sizeof(self->ranks));
	self->det = NULL;
	self->epfd = -1;
	ASSERT_EQ(0, st_netns_new());
	ASSERT_EQ(0, ftnl_open(&self->h));
	ASSERT_EQ(0, st_config_small(&self->c, 31));
	ASSERT_EQ(0, ftnl_cluster_set(self->h, &self->c));

	memset(self->peers, 0, sizeof(self->peers));
	for (r = 0; r < SIZE; r++)
		self->peers[r].node_id = self->c.self_id;
	self->spec = (struct ftnl_group_spec){
		.job = JOB, .size = SIZE, .rank = 0, .peers = self->peers,
		.module = FTNL_GROUP_MODULE_ON,
		.has_owner = true, .owner_uid = (uint32_t)getuid(),
	};
	memset(&self->deaths, 0, sizeof(self->deaths));
	self->epfd = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, self->epfd);
	/* Rank 0 is the detector's own process; it registers itself. */
	ASSERT_EQ(0, grp_detector_open(&self->spec, FTNL_GROUP_MODULE_ON,
				       self->epfd, on_dead, &self->deaths,
				       &self->det));
	ASSERT_TRUE(grp_detector_uses_module(self->det));
	for (r = 1; r < SIZE; r++) {
		ASSERT_EQ(0, ftnl_open(&self->ranks[r]));
		ASSERT_EQ(0, ftnl_proc_register(self->ranks[r], JOB, r));
	}
}

FIXTURE_TEARDOWN(group)
{
	uint32_t r;

	st_sh("echo %u > " QUEUE_LEN_PARAM, FTNL_EVENT_HISTORY_LEN);
	for (r = 0; r < SIZE; r++)
		ftnl_close(self->ranks[r]);
	grp_detector_close(self->det, true);
	if (self->epfd >= 0)
		close(self->epfd);
	ftnl_close(self->h);
	st_config_free(&self->c);
}

/* Read @ev until nothing came for half a second; count what came. */
static void drain_quiet(struct ftnl_events *ev, int *overruns, int *exits)
{
	struct ftnl_event e;
	int n;

	for (;;) {
		while ((n = ftnl_events_read(ev, &e)) == 1) {
			if (e.type == FTNL_EVENT_OVERRUN)
				(*overruns)++;
			else if (e.type == FTNL_EVENT_PROC_EXIT &&
				 e.proc_exit.job == JOB)
				(*exits)++;
		}
		if (n < 0 || ftnl_events_wait(ev, 500) != 1)
			return;
	}
}

static void kill_rank(struct ftnl_handle **ranks, uint32_t r)
{
	/* Closing the registered socket is the rank's death. */
	ftnl_close(ranks[r]);
	ranks[r] = NULL;
}

TEST_F(group, overrun_recovered_from_history)
{
	struct ftnl_events *plain, *big;
	int rcvbuf = 1, overruns = 0, exits = 0, big_overruns = 0, big_exits;
	uint64_t end;
	unsigned int dead;
	uint32_t r;

	/* A reader with room for all: when it has them, all were sent. */
	ASSERT_EQ(0, ftnl_events_open(&big));
	ASSERT_EQ(0, ftnl_events_open(&plain));
	ASSERT_EQ(0, setsockopt(ftnl_events_fd(plain), SOL_SOCKET, SO_RCVBUF,
				&rcvbuf, sizeof(rcvbuf)));
	ASSERT_EQ(0, setsockopt(grp_detector_events_fd(self->det), SOL_SOCKET,
				SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)));

	for (r = 1; r < SIZE; r++)
		kill_rank(self->ranks, r);
	end = now_ms() + 10000;
	for (big_exits = 0; big_exits < SIZE - 1 && now_ms() < end;)
		drain_quiet(big, &big_overruns, &big_exits);
	ASSERT_EQ(SIZE - 1, big_exits);
	ASSERT_EQ(0, big_overruns);
	ftnl_events_close(big);
	/* Not read while they were sent: the buffer held what it could. */
	drain_quiet(plain, &overruns, &exits);
	TH_LOG("a plain subscriber with that buffer: %d exits, %d overruns",
	       exits, overruns);
	EXPECT_LE(1, overruns);
	EXPECT_GT(SIZE - 1, exits);
	ftnl_events_close(plain);

	dead = dispatch(self->epfd, &self->deaths, SIZE - 1, 10000);
	EXPECT_EQ((unsigned int)SIZE - 1, dead);
	for (r = 1; r < SIZE; r++) {
		EXPECT_LE(1u, self->deaths.reports[r]) {
			TH_LOG("rank %u not reported", r);
		}
	}
	EXPECT_EQ(0u, self->deaths.reports[0]);
	EXPECT_EQ(0u, grp_detector_events_unrecoverable(self->det));
}

TEST_F(group, gap_recovered_from_history)
{
	unsigned int dead;
	uint32_t r;

	ASSERT_EQ(0, st_sh("echo 0 > " QUEUE_LEN_PARAM));
	for (r = 1; r <= 10; r++)
		kill_rank(self->ranks, r);
	ASSERT_EQ(0, st_sh("echo %u > " QUEUE_LEN_PARAM,
			   FTNL_EVENT_HISTORY_LEN));
	/* Nothing was multicast: the detector knows of no death yet. */
	EXPECT_EQ(0u, dispatch(self->epfd, &self->deaths, 1, 300));

	kill_rank(self->ranks, 11);
	dead = dispatch(self->epfd, &self->deaths, 11, 10000);
	EXPECT_EQ(11u, dead);
	for (r = 1; r <= 11; r++) {
		EXPECT_LE(1u, self->deaths.reports[r]) {
			TH_LOG("rank %u not reported", r);
		}
	}
	/* The live ones are not. */
	dispatch(self->epfd, &self->deaths, SIZE, 300);
	for (r = 12; r < SIZE; r++) {
		EXPECT_EQ(0u, self->deaths.reports[r]) {
			TH_LOG("live rank %u reported dead", r);
		}
	}
	EXPECT_EQ(0u, self->deaths.reports[0]);
	EXPECT_EQ(0u, grp_detector_events_unrecoverable(self->det));
}

TEST_HARNESS_MAIN
