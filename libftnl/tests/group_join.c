// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Views that grow (ftnl_group_join, ftnl_group_grow) on the real TCP
 * transport: a world of active ranks and spares opened in this one
 * process on 127.0.0.1. Blocking calls (grow at the members, join at the
 * spares) run in one thread per rank; a "killed" rank is a closed group
 * reported dead to every other (the tests' perfect detector). Checks that
 * every member and every joiner gets the identical view, that a grow lets
 * in no more than asked (lowest ranks first, the others keep waiting),
 * that the view callbacks see the new views, and that agreements go on
 * over the grown view - with each engine.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <ftnl/group.h>

#include "tap.h"

#define MAXN		8
#define DEADLINE_MS	20000
/* Below group_api's ports (10000+) and the transport test's (20000+). */
#define PORT_FIRST	4000
#define PORT_BLOCKS	20

struct world {
	uint32_t n;
	struct ftnl_group_peer peers[MAXN];
	struct ftnl_group *g[MAXN];
	int view_calls[MAXN];
	uint64_t last_view_id[MAXN];
	uint32_t last_view_size[MAXN];
};

static uint16_t next_port;
static uint64_t next_job;
static enum ftnl_group_engine engine;
static bool threaded;	/* the groups run their progress thread */

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct world *cb_world;

static void on_view(const struct ftnl_view *v, void *arg)
{
	uint32_t r = (uint32_t)(uintptr_t)arg;

	cb_world->view_calls[r]++;
	cb_world->last_view_id[r] = v->id;
	cb_world->last_view_size[r] = v->size;
}

/* @n ranks, the last @spares of them spares. */
static bool world_open(struct world *w, uint32_t n, uint32_t spares)
{
	struct ftnl_group_attr a = { .module = FTNL_GROUP_MODULE_OFF,
				     .engine = engine,
				     .progress_thread = threaded };

	for (int attempt = 0; attempt < 8; attempt++) {
		uint64_t job = next_job++;
		int err = 0;

		memset(w, 0, sizeof(*w));
		w->n = n;
		cb_world = w;
		for (uint32_t r = 0; r < n; r++) {
			w->peers[r] = (struct ftnl_group_peer){
				.family = AF_INET, .port = next_port++,
				.host = r, .node_id = FTNL_GROUP_NODE_ANY,
				.spare = r >= n - spares,
			};
			w->peers[r].addr.v4.s_addr = htonl(INADDR_LOOPBACK);
		}
		for (uint32_t r = 0; r < n && !err; r++) {
			struct ftnl_group_spec spec = {
				.job = job, .size = n, .rank = r,
				.peers = w->peers,
			};

			err = ftnl_group_open(&spec, &a, &w->g[r]);
			if (!err)
				ftnl_group_on_view_change(w->g[r], on_view,
							  (void *)(uintptr_t)r);
		}
		if (!err)
			return true;
		for (uint32_t r = 0; r < n; r++)
			ftnl_group_close(w->g[r]);
		if (err != -EADDRINUSE)
			return TAP_CHECK_INT(err, 0);
	}
	return TAP_CHECK(!"no free ports");
}

static void world_close(struct world *w)
{
	for (uint32_t r = 0; r < w->n; r++) {
		ftnl_group_close(w->g[r]);
		w->g[r] = NULL;
	}
}

static void world_kill(struct world *w, uint32_t victim)
{
	ftnl_group_close(w->g[victim]);
	w->g[victim] = NULL;
	for (uint32_t r = 0; r < w->n; r++)
		if (w->g[r])
			TAP_CHECK_INT(ftnl_group_report_failure(w->g[r],
								victim), 0);
}

/* Progress everyone until every live member knows @want joiners. */
static bool wait_joiners(struct world *w, int want)
{
	int64_t deadline = now_ms() + DEADLINE_MS;

	for (;;) {
		struct pollfd fds[MAXN];
		nfds_t nfds = 0;
		bool all = true;

		for (uint32_t r = 0; r < w->n; r++)
			if (w->g[r] && ftnl_group_is_member(w->g[r]) == 1 &&
			    ftnl_group_joiners(w->g[r]) != want)
				all = false;
		if (all)
			return true;
		if (now_ms() > deadline)
			return TAP_CHECK(!"join requests did not arrive");
		for (uint32_t r = 0; r < w->n; r++)
			if (w->g[r])
				fds[nfds++] = (struct pollfd){
					.fd = ftnl_group_fd(w->g[r]),
					.events = POLLIN,
				};
		poll(fds, nfds, 100);
		for (uint32_t r = 0; r < w->n; r++)
			if (w->g[r])
				TAP_CHECK_INT(ftnl_group_progress(w->g[r]), 0);
	}
}

/* What one thread does to one rank. */
enum job_kind { JOB_GROW, JOB_JOIN, JOB_AGREE };

/*
 * @then_agree: after a grow or join, the first agreement of the new view
 * (@flag, result in @agreed): members keep making progress that way, which
 * is also what carries the welcome to a joiner they never talked to.
 */
struct job {
	struct ftnl_group *g;
	enum job_kind kind;
	uint32_t max_size;
	bool then_agree;
	uint64_t flag;
	int result;
	int agreed;
};

static void *run_job(void *arg)
{
	struct job *j = arg;

	switch (j->kind) {
	case JOB_GROW:
		j->result = ftnl_group_grow(j->g, j->max_size);
		break;
	case JOB_JOIN:
		j->result = ftnl_group_join(j->g);
		break;
	case JOB_AGREE:
		j->result = ftnl_group_agree(j->g, &j->flag);
		break;
	}
	if (j->then_agree && !j->result)
		j->agreed = ftnl_group_agree(j->g, &j->flag);
	return NULL;
}

/* Every thread of @jobs that agreed got 0 and the same flag, @and. */
static void check_agreed(const struct job *jobs, uint32_t n, uint64_t and)
{
	for (uint32_t r = 0; r < n; r++) {
		if (!jobs[r].g || !jobs[r].then_agree)
			continue;
		TAP_CHECK_INT(jobs[r].agreed, 0);
		TAP_CHECK_UINT(jobs[r].flag, and);
	}
}

/* Run @jobs (g NULL: none) in threads, wait for all. */
static void run_jobs(struct job *jobs, uint32_t n)
{
	pthread_t t[MAXN];
	bool started[MAXN] = { false };

	for (uint32_t r = 0; r < n; r++)
		if (jobs[r].g)
			started[r] = TAP_CHECK_INT(pthread_create(&t[r], NULL,
							run_job, &jobs[r]), 0);
	for (uint32_t r = 0; r < n; r++)
		if (started[r])
			pthread_join(t[r], NULL);
}

/* Every live member has view @id with exactly @members (@size). */
static void check_views(struct world *w, uint64_t id, const uint32_t *members,
			uint32_t size)
{
	for (uint32_t r = 0; r < w->n; r++) {
		struct ftnl_view v;
		bool in = false;

		if (!w->g[r])
			continue;
		for (uint32_t i = 0; i < size; i++)
			in |= members[i] == r;
		ftnl_group_view(w->g[r], &v);
		if (!in) {
			/* A spare still outside: an empty view. */
			TAP_CHECK_INT(ftnl_group_is_member(w->g[r]), 0);
			TAP_CHECK_UINT(v.size, 0);
			continue;
		}
		TAP_CHECK_INT(ftnl_group_is_member(w->g[r]), 1);
		TAP_CHECK_UINT(v.id, id);
		if (!TAP_CHECK_UINT(v.size, size))
			continue;
		for (uint32_t i = 0; i < size; i++)
			TAP_CHECK_UINT(v.members[i], members[i]);
		TAP_CHECK_UINT(v.members[v.self], r);
		if (id) {	/* the callback saw it: view 0 has none */
			TAP_CHECK_UINT(w->last_view_id[r], id);
			TAP_CHECK_UINT(w->last_view_size[r], size);
		}
	}
}

/* An agreement among the members of @members: the AND, no error. */
static void agree_members(struct world *w, const uint32_t *members,
			  uint32_t size, int want)
{
	struct job jobs[MAXN] = { 0 };
	uint64_t and = ~(uint64_t)0;

	for (uint32_t i = 0; i < size; i++) {
		uint32_t r = members[i];

		jobs[r] = (struct job){ .g = w->g[r], .kind = JOB_AGREE,
					.flag = ~((uint64_t)1 << r) };
		and &= jobs[r].flag;
	}
	run_jobs(jobs, w->n);
	for (uint32_t i = 0; i < size; i++) {
		TAP_CHECK_INT(jobs[members[i]].result, want);
		TAP_CHECK_UINT(jobs[members[i]].flag, and);
	}
}

/*
 * 4 active ranks and 2 spares: rank 1 dies, grow(4) lets spare 4 in (the
 * lowest), spare 5 keeps waiting; rank 2 dies, grow(4) lets 5 in.
 */
static void test_spares(const void *arg)
{
	static const uint32_t v0[] = { 0, 1, 2, 3 }, v1[] = { 0, 2, 3, 4 },
			      v2[] = { 0, 3, 4, 5 };
	struct world w;
	struct job jobs[MAXN] = { 0 };
	uint64_t flag = 1;

	(void)arg;
	if (!world_open(&w, 6, 2))
		return;
	check_views(&w, 0, v0, 4);
	/* Outside, a spare can neither agree nor grow; inside, no join. */
	TAP_CHECK_INT(ftnl_group_agree(w.g[4], &flag), -ENOTCONN);
	TAP_CHECK_INT(ftnl_group_grow(w.g[4], 0), -ENOTCONN);
	TAP_CHECK_INT(ftnl_group_shrink(w.g[5]), -ENOTCONN);
	TAP_CHECK_INT(ftnl_group_join_start(w.g[0]), -EALREADY);
	TAP_CHECK_INT(ftnl_group_join(w.g[3]), -EALREADY);
	TAP_CHECK_INT(ftnl_group_join_start(NULL), -EINVAL);
	TAP_CHECK_INT(ftnl_group_is_member(NULL), -EINVAL);
	agree_members(&w, v0, 4, 0);

	TAP_CHECK_INT(ftnl_group_join_start(w.g[4]), 0);
	TAP_CHECK_INT(ftnl_group_join_start(w.g[5]), 0);
	TAP_CHECK_INT(ftnl_group_join_start(w.g[5]), 0);	/* again: fine */
	if (!wait_joiners(&w, 2))
		goto out;

	world_kill(&w, 1);
	for (uint32_t r = 0; r < 6; r++) {
		if (!w.g[r])
			continue;
		jobs[r] = (struct job){ .g = w.g[r], .max_size = 4,
					.kind = r < 4 ? JOB_GROW : JOB_JOIN,
					.then_agree = true,
					.flag = ~((uint64_t)1 << r) };
	}
	/* Spare 5 is not let in: its join would block; leave it be. */
	jobs[5].g = NULL;
	run_jobs(jobs, 6);
	for (uint32_t r = 0; r < 5; r++)
		if (w.g[r])
			TAP_CHECK_INT(jobs[r].result, 0);
	check_agreed(jobs, 6, ~(uint64_t)0x1d);
	check_views(&w, 1, v1, 4);
	TAP_CHECK_INT(w.view_calls[4], 1);	/* its first view */
	TAP_CHECK_INT(w.view_calls[0], 1);
	/* Spare 5 still waits, and the members still know it. */
	if (!wait_joiners(&w, 1))
		goto out;
	agree_members(&w, v1, 4, 0);

	world_kill(&w, 2);
	memset(jobs, 0, sizeof(jobs));
	for (uint32_t r = 0; r < 6; r++)
		if (w.g[r])
			jobs[r] = (struct job){ .g = w.g[r], .max_size = 4,
						.kind = r == 5 ? JOB_JOIN :
							JOB_GROW,
						.then_agree = true,
						.flag = ~((uint64_t)1 << r) };
	run_jobs(jobs, 6);
	for (uint32_t r = 0; r < 6; r++)
		if (w.g[r])
			TAP_CHECK_INT(jobs[r].result, 0);
	check_agreed(jobs, 6, ~(uint64_t)0x39);
	check_views(&w, 2, v2, 4);
	TAP_CHECK_INT(w.view_calls[4], 2);
	TAP_CHECK_INT(w.view_calls[5], 1);
	agree_members(&w, v2, 4, 0);
	/* A shrink after the grow: same view, id + 1, no joiner left. */
	memset(jobs, 0, sizeof(jobs));
	for (uint32_t i = 0; i < 4; i++)
		jobs[v2[i]] = (struct job){ .g = w.g[v2[i]], .kind = JOB_GROW };
	run_jobs(jobs, 6);
	check_views(&w, 3, v2, 4);
	for (uint32_t i = 0; i < 4; i++)
		TAP_CHECK_INT(ftnl_group_joiners(w.g[v2[i]]), 0);
out:
	world_close(&w);
}

/* grow(0): every joiner at once; a failure and two spares in one step. */
static void test_grow_all(const void *arg)
{
	static const uint32_t v1[] = { 0, 1, 3, 4, 5 };
	struct world w;
	struct job jobs[MAXN] = { 0 };

	(void)arg;
	if (!world_open(&w, 6, 2))
		return;
	TAP_CHECK_INT(ftnl_group_join_start(w.g[4]), 0);
	TAP_CHECK_INT(ftnl_group_join_start(w.g[5]), 0);
	if (!wait_joiners(&w, 2))
		goto out;
	world_kill(&w, 2);
	for (uint32_t r = 0; r < 6; r++)
		if (w.g[r])
			jobs[r] = (struct job){ .g = w.g[r], .max_size = 0,
						.kind = r < 4 ? JOB_GROW :
							JOB_JOIN,
						.then_agree = true,
						.flag = ~((uint64_t)1 << r) };
	run_jobs(jobs, 6);
	for (uint32_t r = 0; r < 6; r++)
		if (w.g[r])
			TAP_CHECK_INT(jobs[r].result, 0);
	check_agreed(jobs, 6, ~(uint64_t)0x3b);
	check_views(&w, 1, v1, 5);
	agree_members(&w, v1, 5, 0);
out:
	world_close(&w);
}

/* Reopen rank @r as incarnation @inc (a restarted process). */
static bool world_restart(struct world *w, uint32_t r, uint32_t inc)
{
	struct ftnl_group_attr a = { .module = FTNL_GROUP_MODULE_OFF,
				     .engine = engine,
				     .progress_thread = threaded };
	struct ftnl_group_spec spec = {
		.job = next_job - 1, .size = w->n, .rank = r,
		.peers = w->peers, .incarnation = inc,
	};

	if (!TAP_CHECK_INT(ftnl_group_open(&spec, &a, &w->g[r]), 0))
		return false;
	ftnl_group_on_view_change(w->g[r], on_view, (void *)(uintptr_t)r);
	return true;
}

/*
 * Rank 2 of 4 dies and restarts as incarnation 2: it starts outside,
 * joins, and the grow puts it back under rank 2; the agreements go on
 * with it. Then it dies again, and incarnation 3 comes back the same way:
 * the death of incarnation 2 is not confused with the life of 3.
 */
static void test_restart(const void *arg)
{
	static const uint32_t all[] = { 0, 1, 2, 3 };
	struct world w;

	(void)arg;
	if (!world_open(&w, 4, 0))
		return;
	agree_members(&w, all, 4, 0);
	for (uint32_t inc = 2; inc <= 3; inc++) {
		struct job jobs[MAXN] = { 0 };
		uint64_t id = inc - 1;

		world_kill(&w, 2);
		if (!world_restart(&w, 2, inc))
			break;
		TAP_CHECK_INT(ftnl_group_is_member(w.g[2]), 0);
		TAP_CHECK_INT(ftnl_group_join_start(w.g[2]), 0);
		if (!wait_joiners(&w, 1))
			break;
		for (uint32_t r = 0; r < 4; r++)
			jobs[r] = (struct job){ .g = w.g[r], .max_size = 4,
						.kind = r == 2 ? JOB_JOIN :
							JOB_GROW,
						.then_agree = true,
						.flag = ~((uint64_t)1 << r) };
		run_jobs(jobs, 4);
		for (uint32_t r = 0; r < 4; r++)
			TAP_CHECK_INT(jobs[r].result, 0);
		check_agreed(jobs, 4, ~(uint64_t)0xf);
		check_views(&w, id, all, 4);
		/* The dead incarnation is not a failure of the view. */
		TAP_CHECK_INT(ftnl_group_failed(w.g[0], NULL, 0), 0);
		agree_members(&w, all, 4, 0);
	}
	world_close(&w);
}

/* Without joiners, grow is a shrink; a spare-only world is refused. */
static void test_no_joiner(const void *arg)
{
	static const uint32_t v1[] = { 0, 2 };
	struct ftnl_group_peer peers[2] = {
		{ .family = AF_INET, .port = 1, .spare = true },
		{ .family = AF_INET, .port = 2, .spare = true },
	};
	struct ftnl_group_spec spec = { .job = 1, .size = 2, .peers = peers };
	struct ftnl_group *g = NULL;
	struct world w;
	struct job jobs[MAXN] = { 0 };

	(void)arg;
	TAP_CHECK_INT(ftnl_group_open(&spec, NULL, &g), -EINVAL);
	TAP_CHECK(!g);
	if (!world_open(&w, 3, 0))
		return;
	world_kill(&w, 1);
	jobs[0] = (struct job){ .g = w.g[0], .kind = JOB_GROW, .max_size = 3 };
	jobs[2] = (struct job){ .g = w.g[2], .kind = JOB_GROW, .max_size = 3 };
	run_jobs(jobs, 3);
	TAP_CHECK_INT(jobs[0].result, 0);
	TAP_CHECK_INT(jobs[2].result, 0);
	check_views(&w, 1, v1, 2);
	world_close(&w);
}

static void run_engine(const void *arg)
{
	engine = *(const enum ftnl_group_engine *)arg;
	test_spares(NULL);
	test_grow_all(NULL);
	test_restart(NULL);
	engine = FTNL_GROUP_ENGINE_ERA;
}

static void run_threaded(const void *arg)
{
	(void)arg;
	threaded = true;
	test_spares(NULL);
	test_restart(NULL);
	threaded = false;
}

int main(void)
{
	static const enum ftnl_group_engine vall[] = {
		FTNL_GROUP_ENGINE_VALIDATE_ALL,
		FTNL_GROUP_ENGINE_VALIDATE_ALL_LOOSE,
	};

	next_port = (uint16_t)(PORT_FIRST + (getpid() % PORT_BLOCKS) * 256);
	next_job = (uint64_t)getpid() << 20;
	tap_add(test_spares, NULL,
		"spares: grow lets in the lowest joiners up to the size asked");
	tap_add(test_grow_all, NULL, "grow(0): every joiner, with a failure");
	tap_add(test_restart, NULL,
		"a restarted rank rejoins under its rank, twice");
	tap_add(test_no_joiner, NULL,
		"no joiner: grow is a shrink; a world of spares is refused");
	tap_add(run_engine, &vall[0], "validate-all strict: spares and grow");
	tap_add(run_engine, &vall[1], "validate-all loose: spares and grow");
	tap_add(run_threaded, NULL,
		"with the progress thread: spares, a restarted rank");
	return tap_run();
}
