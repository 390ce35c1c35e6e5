// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The process-group API on the real TCP transport: N groups opened in this
 * one process on 127.0.0.1, each its own world rank, driven by a loop that
 * sleeps in poll(2) on every group's descriptor and then progresses each.
 * A "killed" rank is a closed group, reported dead to every survivor with
 * ftnl_group_report_failure() (the tests' perfect detector). Blocking
 * collectives (shrink) run in one thread per group. The last cases use the
 * progress thread and blocking ftnl_group_agree(). The cases on agree,
 * iagree, acknowledgements, a dying root and shrink run again with each
 * validate-all engine: same API, same results, same error codes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <ftnl/group.h>

#include "tap.h"

#define MAXN		8
#define DEADLINE_MS	20000	/* for anything to complete */
#define PORT_FIRST	10000
#define PORT_BLOCKS	39	/* up to 19983: group_transport takes 20000+ */

/**
 * struct world - MAXN ranks of one job, all in this process
 * @n: ranks
 * @job: job id
 * @peers: the spec's peers
 * @g: each rank's group; NULL once closed ("killed")
 * @views: per rank, the views its callback saw
 * @view_calls: per rank, callback calls
 */
struct world {
	uint32_t n;
	uint64_t job;
	struct ftnl_group_peer peers[MAXN];
	struct ftnl_group *g[MAXN];
	struct ftnl_view views[MAXN];
	uint32_t view_members[MAXN][MAXN];
	int view_calls[MAXN];
};

static uint16_t next_port;
static uint64_t next_job;

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Open @n ranks on fresh ports; @attr (NULL: defaults), @hosts (NULL: one
 * rank per host) and @failure_dir (the failure oracle) are optional.
 */
/* The engine every world of the running case uses. */
static enum ftnl_group_engine engine;

static bool world_open_dir(struct world *w, uint32_t n,
			   const struct ftnl_group_attr *attr,
			   const uint32_t *hosts, const char *failure_dir)
{
	struct ftnl_group_attr a = attr ? *attr : (struct ftnl_group_attr){ 0 };

	a.module = FTNL_GROUP_MODULE_OFF;
	a.engine = engine;
	for (int attempt = 0; attempt < 8; attempt++) {
		int err = 0;

		memset(w, 0, sizeof(*w));
		w->n = n;
		w->job = next_job++;
		for (uint32_t r = 0; r < n; r++) {
			w->peers[r] = (struct ftnl_group_peer){
				.family = AF_INET,
				.port = next_port++,
				.host = hosts ? hosts[r] : r,
				.node_id = FTNL_GROUP_NODE_ANY,
			};
			w->peers[r].addr.v4.s_addr = htonl(INADDR_LOOPBACK);
		}
		for (uint32_t r = 0; r < n && !err; r++) {
			struct ftnl_group_spec spec = {
				.job = w->job, .size = n, .rank = r,
				.peers = w->peers,
				.failure_dir = (char *)failure_dir,
			};

			err = ftnl_group_open(&spec, &a, &w->g[r]);
		}
		if (!err)
			return true;
		for (uint32_t r = 0; r < n; r++)
			ftnl_group_close(w->g[r]);
		/* A port taken by someone else: take the next ones. */
		if (err != -EADDRINUSE) {
			TAP_CHECK_INT(err, 0);
			return false;
		}
	}
	TAP_CHECK(!"no free ports");
	return false;
}

static bool world_open(struct world *w, uint32_t n,
		       const struct ftnl_group_attr *attr,
		       const uint32_t *hosts)
{
	return world_open_dir(w, n, attr, hosts, NULL);
}

static void world_close(struct world *w)
{
	for (uint32_t r = 0; r < w->n; r++) {
		ftnl_group_close(w->g[r]);
		w->g[r] = NULL;
	}
}

/* Kill @victim: close it and report it dead to every survivor. */
static void world_kill(struct world *w, uint32_t victim)
{
	ftnl_group_close(w->g[victim]);
	w->g[victim] = NULL;
	for (uint32_t r = 0; r < w->n; r++)
		if (w->g[r])
			TAP_CHECK_INT(ftnl_group_report_failure(w->g[r],
								victim), 0);
}

/* Sleep until some group has work (at most @ms), then progress them all. */
static void world_step(struct world *w, int ms)
{
	struct pollfd fds[MAXN];
	nfds_t nfds = 0;

	for (uint32_t r = 0; r < w->n; r++)
		if (w->g[r])
			fds[nfds++] = (struct pollfd){
				.fd = ftnl_group_fd(w->g[r]), .events = POLLIN,
			};
	poll(fds, nfds, ms);
	for (uint32_t r = 0; r < w->n; r++)
		if (w->g[r])
			TAP_CHECK_INT(ftnl_group_progress(w->g[r]), 0);
}

/*
 * Drive the world until every non-NULL request completes; res[] and
 * flags[] receive the results. Return: false on timeout.
 */
static bool world_complete(struct world *w, struct ftnl_group_req **reqs,
			   int *res, uint64_t *flags)
{
	int64_t deadline = now_ms() + DEADLINE_MS;

	for (uint32_t r = 0; r < w->n; r++)
		res[r] = -EINPROGRESS;
	for (;;) {
		bool all = true;

		for (uint32_t r = 0; r < w->n; r++) {
			if (!reqs[r] || res[r] != -EINPROGRESS)
				continue;
			res[r] = ftnl_group_req_test(reqs[r], &flags[r]);
			all = all && res[r] != -EINPROGRESS;
		}
		if (all)
			return true;
		if (now_ms() > deadline)
			return TAP_CHECK(!"agreement did not complete");
		world_step(w, 100);
	}
}

/* A flag naming its contributor: bit @r cleared, bit 32 + @k cleared. */
static uint64_t flag_of(uint32_t r, uint32_t k)
{
	return ~((uint64_t)1 << r) & ~((uint64_t)1 << (32 + k % 32));
}

/*
 * One agreement at every live rank; check they all return @want_res and
 * the same flag, which is returned.
 */
static uint64_t agree_all(struct world *w, uint32_t k, int want_res)
{
	struct ftnl_group_req *reqs[MAXN] = { 0 };
	uint64_t flags[MAXN] = { 0 }, flag = 0;
	int res[MAXN];
	bool first = true;

	for (uint32_t r = 0; r < w->n; r++)
		if (w->g[r])
			TAP_CHECK_INT(ftnl_group_iagree(w->g[r], flag_of(r, k),
							&reqs[r]), 0);
	if (world_complete(w, reqs, res, flags)) {
		for (uint32_t r = 0; r < w->n; r++) {
			if (!reqs[r])
				continue;
			TAP_CHECK_INT(res[r], want_res);
			if (first)
				flag = flags[r];
			TAP_CHECK_UINT(flags[r], flag);
			first = false;
		}
	}
	for (uint32_t r = 0; r < w->n; r++)
		ftnl_group_req_free(reqs[r]);
	return flag;
}

/* The AND of the flags of the live ranks for agreement @k. */
static uint64_t and_of_live(const struct world *w, uint32_t k)
{
	uint64_t flag = ~(uint64_t)0;

	for (uint32_t r = 0; r < w->n; r++)
		if (w->g[r])
			flag &= flag_of(r, k);
	return flag;
}

/* ---- failure-free ------------------------------------------------------- */

static void test_agree(const void *arg)
{
	uint32_t n = *(const uint32_t *)arg;
	struct ftnl_group_stats st;
	struct ftnl_view view;
	struct world w;

	if (!world_open(&w, n, NULL, NULL))
		return;
	for (uint32_t k = 0; k < 3; k++)
		TAP_CHECK_UINT(agree_all(&w, k, 0), and_of_live(&w, k));
	for (uint32_t r = 0; r < n; r++) {
		ftnl_group_view(w.g[r], &view);
		TAP_CHECK_UINT(view.id, 0);
		TAP_CHECK_UINT(view.size, n);
		TAP_CHECK_UINT(view.self, r);
		TAP_CHECK_UINT(view.members[n - 1], n - 1);
		ftnl_group_get_stats(w.g[r], &st);
		TAP_CHECK_UINT(st.agreements, 3);
		TAP_CHECK_UINT(st.failures, 0);
		TAP_CHECK_UINT(st.dropped, 0);
		TAP_CHECK(n == 1 || (st.msgs_sent && st.msgs_received));
		TAP_CHECK_UINT(ftnl_group_job(w.g[r]), w.job);
		TAP_CHECK_UINT(ftnl_group_world_rank(w.g[r]), r);
		TAP_CHECK_UINT(ftnl_group_world_size(w.g[r]), n);
	}
	world_close(&w);
}

/* Several agreements in flight at once, completed in any order. */
static void test_in_flight(const void *arg)
{
	enum { K = 4 };
	struct ftnl_group_attr attr = { .window = K };
	struct ftnl_group_req *reqs[K][MAXN] = { { 0 } }, *extra;
	uint64_t flags[K][MAXN], flag = 7;
	int res[K][MAXN];
	struct world w;
	uint32_t n = 5;

	(void)arg;
	if (!world_open(&w, n, &attr, NULL))
		return;
	for (uint32_t k = 0; k < K; k++)
		for (uint32_t r = 0; r < n; r++)
			TAP_CHECK_INT(ftnl_group_iagree(w.g[r], flag_of(r, k),
							&reqs[k][r]), 0);
	/* The window is full, and agree refuses while requests pend. */
	TAP_CHECK_INT(ftnl_group_iagree(w.g[0], 1, &extra), -EBUSY);
	TAP_CHECK_INT(ftnl_group_agree(w.g[0], &flag), -EBUSY);
	TAP_CHECK_INT(ftnl_group_shrink(w.g[0]), -EBUSY);
	TAP_CHECK_UINT(flag, 7);
	/* Complete the last ones first. */
	for (int k = K - 1; k >= 0; k--) {
		if (!world_complete(&w, reqs[k], res[k], flags[k]))
			break;
		for (uint32_t r = 0; r < n; r++) {
			TAP_CHECK_INT(res[k][r], 0);
			TAP_CHECK_UINT(flags[k][r], and_of_live(&w, k));
			/* A completed request keeps its result. */
			TAP_CHECK_INT(ftnl_group_req_wait(reqs[k][r],
							  &flag), 0);
			TAP_CHECK_UINT(flag, and_of_live(&w, k));
		}
	}
	for (uint32_t k = 0; k < K; k++)
		for (uint32_t r = 0; r < n; r++)
			ftnl_group_req_free(reqs[k][r]);
	/* A request freed before completion still takes part. */
	for (uint32_t r = 0; r < n; r++) {
		TAP_CHECK_INT(ftnl_group_iagree(w.g[r], 1, &extra), 0);
		if (r % 2)
			ftnl_group_req_free(extra);
		else
			reqs[0][r] = extra;
	}
	for (uint32_t r = 1; r < n; r += 2)
		reqs[0][r] = NULL;
	if (world_complete(&w, reqs[0], res[0], flags[0]))
		for (uint32_t r = 0; r < n; r += 2)
			TAP_CHECK_INT(res[0][r], 0);
	for (uint32_t r = 0; r < n; r += 2)
		ftnl_group_req_free(reqs[0][r]);
	TAP_CHECK_UINT(agree_all(&w, 9, 0), and_of_live(&w, 9));
	world_close(&w);
}

/* The other tree shapes, hierarchical with hosts of 3, 3 and 2 ranks. */
static void test_topologies(const void *arg)
{
	static const uint32_t hosts[MAXN] = { 7, 7, 7, 3, 3, 3, 9, 9 };
	static const struct ftnl_group_attr attrs[] = {
		{ .topology = FTNL_GROUP_TOPO_STAR },
		{ .topology = FTNL_GROUP_TOPO_STRING, .no_rebalance = true },
		{ .topology = FTNL_GROUP_TOPO_HIER,
		  .inter = FTNL_GROUP_TOPO_BINARY,
		  .intra = FTNL_GROUP_TOPO_STAR },
	};
	struct world w;

	(void)arg;
	for (size_t i = 0; i < sizeof(attrs) / sizeof(*attrs); i++) {
		if (!world_open(&w, MAXN, &attrs[i], hosts))
			return;
		TAP_CHECK_UINT(agree_all(&w, 0, 0), and_of_live(&w, 0));
		world_kill(&w, 3);	/* a host's representative */
		TAP_CHECK_UINT(agree_all(&w, 1, -FTNL_EPROCFAILED),
			       and_of_live(&w, 1));
		world_close(&w);
	}
}

/* ---- failures ----------------------------------------------------------- */

static void check_failed(struct ftnl_group *g, uint32_t dead)
{
	uint32_t ranks[MAXN] = { 0 };

	TAP_CHECK_INT(ftnl_group_failed(g, ranks, MAXN), 1);
	TAP_CHECK_UINT(ranks[0], dead);
	TAP_CHECK_INT(ftnl_group_failed(g, NULL, 0), 1);
}

/* A dead member: the error once, until every survivor acknowledged it. */
static void test_failure_ack(const void *arg)
{
	uint32_t ranks[MAXN] = { 0 };
	struct world w;
	uint32_t n = 5;

	(void)arg;
	if (!world_open(&w, n, NULL, NULL))
		return;
	TAP_CHECK_UINT(agree_all(&w, 0, 0), and_of_live(&w, 0));
	world_kill(&w, 3);
	for (uint32_t r = 0; r < n; r++) {
		if (!w.g[r])
			continue;
		check_failed(w.g[r], 3);
		TAP_CHECK_INT(ftnl_group_get_acked(w.g[r], ranks, MAXN), 0);
	}
	TAP_CHECK_UINT(agree_all(&w, 1, -FTNL_EPROCFAILED), and_of_live(&w, 1));
	/* Not acknowledged by everyone: still an error, at everyone. */
	TAP_CHECK_INT(ftnl_group_failure_ack(w.g[0]), 0);
	TAP_CHECK_UINT(agree_all(&w, 2, -FTNL_EPROCFAILED), and_of_live(&w, 2));
	for (uint32_t r = 0; r < n; r++) {
		if (!w.g[r])
			continue;
		TAP_CHECK_INT(ftnl_group_failure_ack(w.g[r]), 0);
		TAP_CHECK_INT(ftnl_group_get_acked(w.g[r], ranks, MAXN), 1);
		TAP_CHECK_UINT(ranks[0], 3);
	}
	TAP_CHECK_UINT(agree_all(&w, 3, 0), and_of_live(&w, 3));
	/* A new failure is an error again. */
	world_kill(&w, 0);
	TAP_CHECK_UINT(agree_all(&w, 4, -FTNL_EPROCFAILED), and_of_live(&w, 4));
	world_close(&w);
}

/*
 * The root dies during an agreement it has already joined: the survivors
 * still agree, on the same flag, with the error.
 */
static void test_root_dies(const void *arg)
{
	struct ftnl_group_req *reqs[MAXN] = { 0 }, *root_req;
	uint64_t flags[MAXN], flag = 0;
	int res[MAXN];
	struct world w;

	(void)arg;
	if (!world_open(&w, MAXN, NULL, NULL))
		return;
	TAP_CHECK_UINT(agree_all(&w, 0, 0), and_of_live(&w, 0));
	TAP_CHECK_INT(ftnl_group_iagree(w.g[0], flag_of(0, 1), &root_req), 0);
	for (uint32_t r = 1; r < MAXN; r++)
		TAP_CHECK_INT(ftnl_group_iagree(w.g[r], flag_of(r, 1),
						&reqs[r]), 0);
	world_step(&w, 0);			/* some progress, not all */
	ftnl_group_req_free(root_req);
	world_kill(&w, 0);
	if (world_complete(&w, reqs, res, flags)) {
		flag = flags[1];
		for (uint32_t r = 1; r < MAXN; r++) {
			TAP_CHECK_INT(res[r], -FTNL_EPROCFAILED);
			TAP_CHECK_UINT(flags[r], flag);
			check_failed(w.g[r], 0);
		}
		/* With or without the root's contribution. */
		TAP_CHECK(flag == and_of_live(&w, 1) ||
			  flag == (and_of_live(&w, 1) & flag_of(0, 1)));
	}
	for (uint32_t r = 1; r < MAXN; r++)
		ftnl_group_req_free(reqs[r]);
	for (uint32_t r = 1; r < MAXN; r++)
		TAP_CHECK_INT(ftnl_group_failure_ack(w.g[r]), 0);
	TAP_CHECK_UINT(agree_all(&w, 2, 0), and_of_live(&w, 2));
	world_close(&w);
}

/*
 * Failures from the oracle directory (the launcher's record of exited
 * processes), with no report_failure(): known at open, and learned later.
 */
static void test_failure_dir(const void *arg)
{
	char dir[] = "/tmp/ftnl-group-api-XXXXXX", path[64];
	struct world w;
	int fd;

	(void)arg;
	if (!TAP_CHECK(mkdtemp(dir)))
		return;
	snprintf(path, sizeof(path), "%s/4", dir);	/* exited before */
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	TAP_CHECK(fd >= 0);
	close(fd);
	if (world_open_dir(&w, 5, NULL, NULL, dir)) {
		ftnl_group_close(w.g[4]);
		w.g[4] = NULL;
		for (uint32_t r = 0; r < 4; r++)
			check_failed(w.g[r], 4);
		TAP_CHECK_UINT(agree_all(&w, 0, -FTNL_EPROCFAILED),
			       and_of_live(&w, 0));
		for (uint32_t r = 0; r < 4; r++)
			ftnl_group_failure_ack(w.g[r]);
		TAP_CHECK_UINT(agree_all(&w, 1, 0), and_of_live(&w, 1));

		ftnl_group_close(w.g[2]);		/* exits now */
		w.g[2] = NULL;
		snprintf(path, sizeof(path), "%s/2", dir);
		fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		TAP_CHECK(fd >= 0);
		close(fd);
		TAP_CHECK_UINT(agree_all(&w, 2, -FTNL_EPROCFAILED),
			       and_of_live(&w, 2));
		for (uint32_t r = 0; r < 4; r++) {
			uint32_t ranks[MAXN];

			if (!w.g[r])
				continue;
			TAP_CHECK_INT(ftnl_group_failed(w.g[r], ranks, MAXN),
				      2);
			TAP_CHECK(ranks[0] == 2 && ranks[1] == 4);
		}
		world_close(&w);
	}
	unlink(path);
	snprintf(path, sizeof(path), "%s/4", dir);
	unlink(path);
	rmdir(dir);
}

/* ---- shrink ------------------------------------------------------------- */

struct shrink_job {
	struct world *w;
	uint32_t rank;
	int shrink_res;
	int agree_res;
	uint64_t flag;
};

static void on_view(const struct ftnl_view *view, void *arg)
{
	struct shrink_job *job = arg;
	struct world *w = job->w;

	w->view_calls[job->rank]++;
	w->views[job->rank] = *view;
	memcpy(w->view_members[job->rank], view->members,
	       view->size * sizeof(*view->members));
}

/*
 * Shrink, then agree at once in the new view: peers that finish first
 * send messages of the new view to the ones still shrinking.
 */
static void *shrink_then_agree(void *arg)
{
	struct shrink_job *job = arg;
	struct ftnl_group *g = job->w->g[job->rank];

	job->shrink_res = ftnl_group_shrink(g);
	job->flag = flag_of(job->rank, 5);
	job->agree_res = job->shrink_res ? job->shrink_res :
			 ftnl_group_agree(g, &job->flag);
	return NULL;
}

/*
 * Every live rank but @victim shrinks and agrees, each in its own thread;
 * @victim (if < n) is killed meanwhile, so the shrink must wait for its
 * death. Killing from this thread needs the progress thread: without it,
 * the blocked shrinks hold their group's lock.
 */
static void shrink_all_but(struct world *w, struct shrink_job *jobs,
			   uint32_t victim)
{
	pthread_t threads[MAXN];
	bool started[MAXN] = { false };

	for (uint32_t r = 0; r < w->n; r++) {
		jobs[r] = (struct shrink_job){ .w = w, .rank = r };
		if (w->g[r])
			ftnl_group_on_view_change(w->g[r], on_view, &jobs[r]);
	}
	for (uint32_t r = 0; r < w->n; r++)
		if (w->g[r] && r != victim)
			started[r] = TAP_CHECK_INT(pthread_create(&threads[r],
					NULL, shrink_then_agree, &jobs[r]), 0);
	if (victim < w->n)
		world_kill(w, victim);
	for (uint32_t r = 0; r < w->n; r++)
		if (started[r])
			pthread_join(threads[r], NULL);
}

static void shrink_all(struct world *w, struct shrink_job *jobs)
{
	shrink_all_but(w, jobs, UINT32_MAX);
}

static void check_shrunk(struct world *w, struct shrink_job *jobs,
			 uint64_t view_id)
{
	uint32_t members[MAXN], size = 0;

	for (uint32_t r = 0; r < w->n; r++)
		if (w->g[r])
			members[size++] = r;
	for (uint32_t r = 0, self = 0; r < w->n; r++) {
		struct ftnl_view view;

		if (!w->g[r])
			continue;
		TAP_CHECK_INT(jobs[r].shrink_res, 0);
		TAP_CHECK_INT(jobs[r].agree_res, 0);
		TAP_CHECK_UINT(jobs[r].flag, and_of_live(w, 5));
		TAP_CHECK_INT(w->view_calls[r], 1);
		TAP_CHECK_UINT(w->views[r].id, view_id);
		TAP_CHECK_UINT(w->views[r].size, size);
		TAP_CHECK_UINT(w->views[r].self, self++);
		TAP_CHECK_MEM(w->view_members[r], members,
			      size * sizeof(*members));
		ftnl_group_view(w->g[r], &view);
		TAP_CHECK_UINT(view.id, view_id);
		TAP_CHECK_MEM(view.members, members, size * sizeof(*members));
		w->view_calls[r] = 0;
	}
}

static void test_shrink(const void *arg)
{
	struct shrink_job jobs[MAXN];
	struct world w;

	(void)arg;
	if (!world_open(&w, MAXN, NULL, NULL))
		return;
	TAP_CHECK_UINT(agree_all(&w, 0, 0), and_of_live(&w, 0));
	world_kill(&w, 0);
	world_kill(&w, 5);
	shrink_all(&w, jobs);
	check_shrunk(&w, jobs, 1);
	/* The failures were shrunk away: no error without any ack. */
	TAP_CHECK_UINT(agree_all(&w, 6, 0), and_of_live(&w, 6));
	TAP_CHECK_UINT(agree_all(&w, 7, 0), and_of_live(&w, 7));
	/* Again, without a failure: the same members, view 2. */
	shrink_all(&w, jobs);
	check_shrunk(&w, jobs, 2);
	world_kill(&w, 7);
	TAP_CHECK_UINT(agree_all(&w, 8, -FTNL_EPROCFAILED), and_of_live(&w, 8));
	shrink_all(&w, jobs);
	check_shrunk(&w, jobs, 3);
	TAP_CHECK_UINT(agree_all(&w, 9, 0), and_of_live(&w, 9));
	world_close(&w);
}

/* ---- bad arguments ------------------------------------------------------ */

static void test_bad_args(const void *arg)
{
	struct ftnl_group_peer peers[2] = {
		{ .family = AF_INET, .port = 1,
		  .node_id = FTNL_GROUP_NODE_ANY },
		{ .family = AF_INET, .port = 2,
		  .node_id = FTNL_GROUP_NODE_ANY },
	};
	struct ftnl_group_spec spec = { .job = 1, .size = 2, .peers = peers };
	struct ftnl_group_attr attr = { .module = FTNL_GROUP_MODULE_OFF };
	struct ftnl_group *g = NULL;
	struct ftnl_group_req *req = NULL;
	uint64_t flag = 1;
	struct world w;

	(void)arg;
	TAP_CHECK_INT(ftnl_group_open(NULL, &attr, &g), -EINVAL);
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, NULL), -EINVAL);
	spec.rank = 2;
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, &g), -EINVAL);
	spec.rank = 0;
	spec.size = 0;
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, &g), -EINVAL);
	spec.size = FTNL_GROUP_MAX_SIZE + 1;
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, &g), -EINVAL);
	spec.size = 2;
	spec.peers = NULL;
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, &g), -EINVAL);
	spec.peers = peers;
	peers[1].family = AF_UNIX;
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, &g), -EINVAL);
	peers[1].family = AF_INET;
	peers[1].port = 0;
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, &g), -EINVAL);
	peers[1].port = 1;		/* rank 0's address and port */
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, &g), -EINVAL);
	peers[1].port = 2;
	attr.window = 1025;
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, &g), -EINVAL);
	attr.window = 0;
	attr.topology = FTNL_GROUP_TOPO_HIER;
	attr.inter = FTNL_GROUP_TOPO_HIER;
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, &g), -EINVAL);
	attr.inter = FTNL_GROUP_TOPO_BINARY;
	attr.intra = 42;
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, &g), -EINVAL);
	attr.topology = 42;
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, &g), -EINVAL);
	attr.topology = FTNL_GROUP_TOPO_BINARY;
	attr.module = 42;
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, &g), -EINVAL);
	attr.module = FTNL_GROUP_MODULE_OFF;
	attr.engine = 3;
	TAP_CHECK_INT(ftnl_group_open(&spec, &attr, &g), -EINVAL);
	attr.engine = FTNL_GROUP_ENGINE_ERA;
	TAP_CHECK(!g);

	if (!world_open(&w, 3, NULL, NULL))
		return;
	g = w.g[1];
	TAP_CHECK_INT(ftnl_group_report_failure(g, 3), -EINVAL);
	TAP_CHECK_INT(ftnl_group_report_failure(g, UINT32_MAX), -EINVAL);
	TAP_CHECK_INT(ftnl_group_report_failure(g, 1), -EINVAL);  /* self */
	TAP_CHECK_INT(ftnl_group_report_failure(NULL, 0), -EINVAL);
	TAP_CHECK_INT(ftnl_group_failed(g, NULL, 0), 0);	/* unchanged */
	TAP_CHECK_INT(ftnl_group_failed(g, NULL, 4), -EINVAL);
	TAP_CHECK_INT(ftnl_group_get_acked(g, NULL, 4), -EINVAL);
	TAP_CHECK_INT(ftnl_group_iagree(g, 1, NULL), -EINVAL);
	TAP_CHECK_INT(ftnl_group_iagree(NULL, 1, &req), -EINVAL);
	TAP_CHECK_INT(ftnl_group_agree(g, NULL), -EINVAL);
	TAP_CHECK_INT(ftnl_group_agree(NULL, &flag), -EINVAL);
	TAP_CHECK_INT(ftnl_group_req_test(NULL, &flag), -EINVAL);
	TAP_CHECK_INT(ftnl_group_req_wait(NULL, &flag), -EINVAL);
	TAP_CHECK_INT(ftnl_group_shrink(NULL), -EINVAL);
	TAP_CHECK_INT(ftnl_group_progress(NULL), -EINVAL);
	TAP_CHECK_INT(ftnl_group_fd(NULL), -EINVAL);
	TAP_CHECK_INT(ftnl_group_failure_ack(NULL), -EINVAL);
	ftnl_group_req_free(NULL);
	ftnl_group_close(NULL);
	/* Nothing above disturbed the group. */
	TAP_CHECK_UINT(agree_all(&w, 0, 0), and_of_live(&w, 0));
	world_close(&w);
}

/* A world of one decides alone, at once. */
static void test_alone(const void *arg)
{
	uint64_t flag = 0x5a;
	struct world w;

	(void)arg;
	if (!world_open(&w, 1, NULL, NULL))
		return;
	TAP_CHECK_INT(ftnl_group_agree(w.g[0], &flag), 0);
	TAP_CHECK_UINT(flag, 0x5a);
	TAP_CHECK_INT(ftnl_group_shrink(w.g[0]), 0);
	world_close(&w);
}

/* ---- the progress thread ------------------------------------------------ */

struct agree_job {
	struct ftnl_group *g;
	uint32_t rank;
	uint32_t k;
	int res;
	uint64_t flag;
};

static void *agree_thread(void *arg)
{
	struct agree_job *job = arg;

	job->flag = flag_of(job->rank, job->k);
	job->res = ftnl_group_agree(job->g, &job->flag);
	return NULL;
}

/* Blocking agree in one thread per live rank; check result and flags. */
static void agree_threads(struct world *w, uint32_t k, int want_res)
{
	struct agree_job jobs[MAXN];
	pthread_t threads[MAXN];

	for (uint32_t r = 0; r < w->n; r++) {
		jobs[r] = (struct agree_job){ .g = w->g[r], .rank = r, .k = k };
		if (w->g[r])
			TAP_CHECK_INT(pthread_create(&threads[r], NULL,
						     agree_thread, &jobs[r]),
				      0);
	}
	for (uint32_t r = 0; r < w->n; r++) {
		if (!w->g[r])
			continue;
		pthread_join(threads[r], NULL);
		TAP_CHECK_INT(jobs[r].res, want_res);
		TAP_CHECK_UINT(jobs[r].flag, and_of_live(w, k));
	}
}

static void test_progress_thread(const void *arg)
{
	struct ftnl_group_attr attr = { .progress_thread = true };
	struct shrink_job jobs[MAXN];
	struct world w;
	uint32_t n = *(const uint32_t *)arg;

	if (!world_open(&w, n, &attr, NULL))
		return;
	for (uint32_t k = 0; k < 3; k++)
		agree_threads(&w, k, 0);
	world_kill(&w, 1);
	agree_threads(&w, 3, -FTNL_EPROCFAILED);
	for (uint32_t r = 0; r < n; r++)
		if (w.g[r])
			TAP_CHECK_INT(ftnl_group_failure_ack(w.g[r]), 0);
	agree_threads(&w, 4, 0);
	world_kill(&w, 0);
	shrink_all(&w, jobs);
	check_shrunk(&w, jobs, 1);
	agree_threads(&w, 6, 0);
	if (n > 3) {		/* a death during the shrink */
		shrink_all_but(&w, jobs, n - 1);
		check_shrunk(&w, jobs, 2);
	}
	/* iagree and wait, the thread making progress meanwhile */
	{
		struct ftnl_group_req *reqs[MAXN] = { 0 };
		uint64_t flags[MAXN];
		int res[MAXN];

		for (uint32_t r = 0; r < n; r++)
			if (w.g[r])
				TAP_CHECK_INT(ftnl_group_iagree(w.g[r],
						flag_of(r, 7), &reqs[r]), 0);
		if (world_complete(&w, reqs, res, flags))
			for (uint32_t r = 0; r < n; r++)
				if (w.g[r])
					TAP_CHECK_UINT(flags[r],
						       and_of_live(&w, 7));
		for (uint32_t r = 0; r < n; r++)
			ftnl_group_req_free(reqs[r]);
	}
	world_close(&w);
}

/* A case run with a validate-all engine. */
struct engine_case {
	tap_case_fn fn;
	const void *arg;
	const char *what;
	enum ftnl_group_engine engine;
};

static void run_engine_case(const void *arg)
{
	const struct engine_case *c = arg;

	engine = c->engine;
	c->fn(c->arg);
	engine = FTNL_GROUP_ENGINE_ERA;
}

static const uint32_t engine_size = MAXN;

#define ENGINE_CASE(f, a, w) { { f, a, w, 0 }, { f, a, w, 0 } }
static struct engine_case engine_cases[][2] = {
	ENGINE_CASE(test_agree, &engine_size,
		    "8 ranks: agreements give the AND of the flags"),
	ENGINE_CASE(test_in_flight, NULL,
		    "iagree: several in flight, window, -EBUSY, freed early"),
	ENGINE_CASE(test_failure_ack, NULL,
		    "a failure: -EPROCFAILED until every survivor acknowledged"),
	ENGINE_CASE(test_root_dies, NULL,
		    "the root dies during an agreement: the same flag everywhere"),
	ENGINE_CASE(test_shrink, NULL,
		    "shrink: identical views, callback, agreements continue"),
	ENGINE_CASE(test_alone, NULL, "a world of one"),
};

int main(void)
{
	static const uint32_t sizes[] = { 2, 5, 8 };
	static const uint32_t thread_sizes[] = { 3, 6 };

	/*
	 * A block of 256 ports per process, below Linux's ephemeral range
	 * (32768-60999) where our own connections' ports would collide,
	 * apart from the previous runs' blocks and from the transport test's
	 * ports; a port taken anyway makes world_open() take the next ones.
	 */
	next_port = (uint16_t)(PORT_FIRST + (getpid() % PORT_BLOCKS) * 256);
	next_job = (uint64_t)getpid() << 20;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++)
		tap_add(test_agree, &sizes[i],
			"%u ranks: agreements give the AND of the flags",
			sizes[i]);
	tap_add(test_in_flight, NULL,
		"iagree: several in flight, window, -EBUSY, freed early");
	tap_add(test_topologies, NULL, "star, string, hierarchical trees");
	tap_add(test_failure_ack, NULL,
		"a failure: -EPROCFAILED until every survivor acknowledged");
	tap_add(test_root_dies, NULL,
		"the root dies during an agreement: the same flag everywhere");
	tap_add(test_failure_dir, NULL,
		"failures from the oracle directory, at open and later");
	tap_add(test_shrink, NULL,
		"shrink: identical views, callback, agreements continue");
	tap_add(test_bad_args, NULL, "bad arguments: -EINVAL, nothing changed");
	tap_add(test_alone, NULL, "a world of one");
	for (size_t i = 0; i < sizeof(thread_sizes) / sizeof(*thread_sizes);
	     i++)
		tap_add(test_progress_thread, &thread_sizes[i],
			"%u ranks, progress thread: blocking agree and shrink",
			thread_sizes[i]);
	for (int e = 0; e < 2; e++) {
		const char *name = e ? "loose" : "strict";

		for (size_t i = 0; i < sizeof(engine_cases) /
		     sizeof(*engine_cases); i++) {
			struct engine_case *c = &engine_cases[i][e];

			c->engine = e ? FTNL_GROUP_ENGINE_VALIDATE_ALL_LOOSE :
				    FTNL_GROUP_ENGINE_VALIDATE_ALL;
			tap_add(run_engine_case, c, "validate-all %s: %s",
				name, c->what);
		}
	}
	return tap_run();
}
