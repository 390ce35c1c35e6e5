// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-solver: a fault-tolerant iterative solver on libftnl process groups,
 * the complete example of Documentation/libftnl-group.rst.
 *
 * It solves -u'' = 1 on (0, 1), u(0) = u(1) = 0, discretized on N interior
 * points, by Jacobi iterations, the points split in blocks among the
 * members of the group's current view. Each iteration:
 *
 *   1. read the two halo values of the previous iterate;
 *   2. compute the new values of its own block;
 *   3. write its block of the new iterate;
 *   4. ftnl_group_agree() on the flag "my block has converged":
 *      the AND is "every block has converged", and the agreement is also
 *      the barrier after which every block of the new iterate is written.
 *
 * The iterates live in a shared state file (two buffers, iteration i in
 * buffer i % 2): it stands for both the halo exchange an MPI code would do
 * and the checkpoint it would keep. ftnl only agrees; it moves no data.
 *
 * If an agreement returns -FTNL_EPROCFAILED, a member died during the
 * iteration: its block of the new iterate may be missing. Every survivor
 * gets the same error, so every survivor then does the same thing:
 * acknowledge (ftnl_group_failure_ack), grow (ftnl_group_grow: drop the
 * dead and let in spares or restarted ranks up to the full size; the new
 * view arrives through the view callback too), split the domain over the
 * new view, agree with the newcomers on the last iterate whose agreement
 * returned 0 (that buffer is complete: an agreement that returns 0 had
 * every member's contribution, hence every member's write, and the next
 * iteration writes the other buffer) and redo the iteration after it. The
 * arithmetic of a point does not depend on who owns it, so the result is
 * bitwise the one of a failure-free run.
 *
 * Spares (ftnl-launch --spares) and restarted ranks (ftnl-launch
 * --respawn) start outside the view: they ask to join and sleep until a
 * grow lets them in, or until the job ends without them (STATE.done,
 * written by every member that finishes). Below full size, each agreement
 * also says whether any member knows of a process waiting to join; if
 * one does, everyone grows after that iteration.
 *
 * Once converged, every survivor reads the whole solution and prints one
 * line "result ..." and one "view ..."; the new rank 0 of the view also
 * prints "final ...".
 *
 * Usage (under ftnl-launch, which sets FTNL_GROUP_PEERS, FTNL_GROUP_RANK,
 * FTNL_GROUP_FAILURE_DIR and FTNL_GROUP_MODULE):
 *
 *   ftnl-solver --state FILE [-N POINTS] [--tol T] [--max-iter K]
 *               [--crash RANK:ITER]...
 *
 * --crash RANK:ITER makes world rank RANK SIGKILL itself in iteration
 * ITER, after computing and before writing its block (fault injection for
 * tests; killing a rank from outside works just as well). Only its first
 * incarnation does: a restarted one goes on.
 *
 * Exit status: 0 converged; 1 error; 3 this process was declared dead
 * (-ESTALE); 4 not converged within --max-iter.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ftnl/group.h>

#define MAX_CRASH 16

struct crash {
	uint32_t rank;
	long iter;
};

struct solver {
	struct ftnl_group *g;
	uint32_t me;		/* world rank */
	long n;			/* interior points: u[1..n] */
	double h2;		/* h squared */
	int fd;			/* the state file */
	/* this member's block [lo, hi) of 1..n+1, in the current view */
	long lo, hi;
	double *u, *unew;	/* u[lo-1 .. hi], i.e. with halos */
	uint64_t view_id;
	unsigned int view_changes;
	uint32_t target;	/* the full size: the world's non-spare ranks */
	uint32_t inc;		/* this process's incarnation of its rank */
};

static void die(struct solver *s, const char *what, int err)
{
	fprintf(stderr, "ftnl-solver rank %u: %s: %s\n", s ? s->me : 0, what,
		strerror(err < 0 ? -err : err));
	exit(1);
}

/* Where point i (0..n+1) of buffer b lives in the state file. */
static off_t offset_of(const struct solver *s, long buf, long i)
{
	return (off_t)((buf * (s->n + 2) + i) * (long)sizeof(double));
}

static void read_points(struct solver *s, long buf, long from, long count,
			double *to)
{
	size_t len = (size_t)count * sizeof(double);
	ssize_t r = pread(s->fd, to, len, offset_of(s, buf, from));

	if (r != (ssize_t)len)
		die(s, "reading the state file", r < 0 ? errno : EIO);
}

static void write_points(struct solver *s, long buf, long from, long count,
			 const double *what)
{
	size_t len = (size_t)count * sizeof(double);
	ssize_t r = pwrite(s->fd, what, len, offset_of(s, buf, from));

	if (r != (ssize_t)len)
		die(s, "writing the state file", r < 0 ? errno : EIO);
}

/*
 * Split points 1..n over the view: member k of size gets
 * [1 + k n / size, 1 + (k + 1) n / size).
 */
static void split(struct solver *s)
{
	struct ftnl_view v;

	ftnl_group_view(s->g, &v);
	s->lo = 1 + (long)((int64_t)s->n * v.self / v.size);
	s->hi = 1 + (long)((int64_t)s->n * (v.self + 1) / v.size);
	free(s->u);
	free(s->unew);
	/* u[lo - 1 .. hi]: the block and its two halos */
	s->u = calloc((size_t)(s->hi - s->lo + 2), sizeof(double));
	s->unew = calloc((size_t)(s->hi - s->lo + 2), sizeof(double));
	if (!s->u || !s->unew)
		die(s, "calloc", ENOMEM);
}

/* Load the own block of iterate @iter (buffer iter % 2). */
static void load_block(struct solver *s, long iter)
{
	if (s->hi > s->lo)
		read_points(s, iter % 2, s->lo, s->hi - s->lo, s->u + 1);
}

/*
 * The view callback: called from ftnl_group_shrink() with the new view.
 * A runtime would rebuild its communicator here; the solver notes it.
 */
static void on_view(const struct ftnl_view *v, void *arg)
{
	struct solver *s = arg;

	s->view_id = v->id;
	s->view_changes++;
	printf("rank %u: new view %" PRIu64 ": %u members, I am %u\n", s->me,
	       v->id, v->size, v->self);
	fflush(stdout);
}

static void print_view(const struct solver *s, const char *prefix)
{
	struct ftnl_view v;

	ftnl_group_view(s->g, &v);
	printf("%sview id=%" PRIu64 " size=%u members=", prefix, v.id, v.size);
	for (uint32_t i = 0; i < v.size; i++)
		printf("%s%u", i ? "," : "", v.members[i]);
	printf("\n");
}

/*
 * After a view change, agree on where to resume: each old member
 * contributes good + 1 (the same number at every one: the agreements that
 * returned 0 are the same everywhere), a process that just joined knows
 * nothing and contributes all ones, the identity of AND. The AND is thus
 * good + 1, even if the agreement also reports a new failure; then the
 * group changes again and agrees again.
 */
static long resync(struct solver *s, long good, bool joined)
{
	for (;;) {
		uint64_t flag = joined ? ~(uint64_t)0 : (uint64_t)(good + 1);
		int rc = ftnl_group_agree(s->g, &flag);

		if (rc == -ESTALE) {
			fprintf(stderr, "rank %u: declared dead, leaving\n", s->me);
			exit(3);
		}
		if (rc && rc != -FTNL_EPROCFAILED)
			die(s, "ftnl_group_agree (resync)", rc);
		if (flag == ~(uint64_t)0)
			die(s, "no member that holds the iterates survived", EIO);
		good = (long)flag - 1;
		joined = false;
		if (!rc)
			return good;
		/* More failures meanwhile: change the view again. */
		ftnl_group_failure_ack(s->g);
		rc = ftnl_group_grow(s->g, s->target);
		if (rc)
			die(s, "ftnl_group_grow", rc);
		split(s);
	}
}

/*
 * Change the view: acknowledge the failures, grow (drop the dead, let
 * spares and restarted ranks in up to the full size; a collective, which
 * may itself see more failures: it still succeeds), take the new block,
 * and agree with the newcomers on the iterate to resume from.
 */
static long recover(struct solver *s, long good)
{
	int rc;

	ftnl_group_failure_ack(s->g);
	rc = ftnl_group_grow(s->g, s->target);
	if (rc == -ESTALE) {
		fprintf(stderr, "rank %u: declared dead by the others, leaving\n",
			s->me);
		exit(3);
	}
	if (rc)
		die(s, "ftnl_group_grow", rc);
	split(s);
	return resync(s, good, false);
}

/* STATE.done exists: the job ended (its view's rank 0 wrote it last). */
static bool job_done(const char *state)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s.done", state);
	return access(path, F_OK) == 0;
}

/*
 * A spare or a restarted rank: ask to join, then sleep until let in (the
 * members grow after a failure) or until the job ends without needing
 * it. Sleeps in poll(2) on the group's descriptor and on an inotify watch
 * of the state file's directory; nothing polls.
 */
static bool wait_to_join(struct solver *s, const char *state)
{
	char dir[4096], *slash;
	int ino, rc;

	snprintf(dir, sizeof(dir), "%s", state);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	ino = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (ino < 0 || inotify_add_watch(ino, dir, IN_CREATE | IN_MOVED_TO) < 0)
		die(s, "inotify", errno);
	rc = ftnl_group_join_start(s->g);
	if (rc)
		die(s, "ftnl_group_join_start", rc);
	printf("rank %u: waiting to join\n", s->me);
	fflush(stdout);
	for (;;) {
		struct pollfd fds[2] = {
			{ .fd = ftnl_group_fd(s->g), .events = POLLIN },
			{ .fd = ino, .events = POLLIN },
		};
		char buf[4096];

		rc = ftnl_group_is_member(s->g);
		if (rc == 1)
			break;
		if (rc < 0)
			die(s, "ftnl_group_is_member", rc);
		if (job_done(state)) {
			close(ino);
			return false;
		}
		if (poll(fds, 2, -1) < 0 && errno != EINTR)
			die(s, "poll", errno);
		while (read(ino, buf, sizeof(buf)) > 0)
			;
		rc = ftnl_group_progress(s->g);
		if (rc)
			die(s, "ftnl_group_progress", rc);
	}
	close(ino);
	return true;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ftnl-solver --state FILE [-N POINTS] [--tol T] [--max-iter K]\n"
		"                   [--crash RANK:ITER]...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "state", required_argument, NULL, 's' },
		{ "tol", required_argument, NULL, 't' },
		{ "max-iter", required_argument, NULL, 'm' },
		{ "crash", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	struct ftnl_group_attr attr = { 0 };
	struct ftnl_group_spec spec;
	struct crash crash[MAX_CRASH];
	struct solver s = { .n = 60 };
	const char *state = NULL;
	double tol = 1e-9, sum = 0, err_max = 0;
	long max_iter = 200000, good = -1, iter, recoveries = 0;
	int ncrash = 0, c, rc;
	bool joined = false;
	char err[256] = "";

	while ((c = getopt_long(argc, argv, "N:", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			state = optarg;
			break;
		case 'N':
			s.n = atol(optarg);
			break;
		case 't':
			tol = atof(optarg);
			break;
		case 'm':
			max_iter = atol(optarg);
			break;
		case 'c':
			if (ncrash == MAX_CRASH ||
			    sscanf(optarg, "%" SCNu32 ":%ld", &crash[ncrash].rank,
				   &crash[ncrash].iter) != 2)
				usage();
			ncrash++;
			break;
		default:
			usage();
		}
	}
	if (!state || optind != argc || s.n < 1 || !(tol > 0) || max_iter < 1)
		usage();
	s.h2 = 1.0 / (double)((s.n + 1) * (s.n + 1));

	/* Join the group the launcher describes. */
	rc = ftnl_group_spec_from_env(&spec, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "ftnl-solver: %s%s%s\n", strerror(-rc),
			*err ? ": " : "", err);
		return 1;
	}
	s.me = spec.rank;
	s.inc = spec.incarnation ? spec.incarnation : 1;
	for (uint32_t r = 0; r < spec.size; r++)
		s.target += !spec.peers[r].spare;
	rc = ftnl_group_open(&spec, &attr, &s.g);
	ftnl_group_spec_free(&spec);
	if (rc)
		die(&s, "ftnl_group_open", rc);
	ftnl_group_on_view_change(s.g, on_view, &s);
	printf("rank %u: pid %ld, %ld points\n", s.me, (long)getpid(), s.n);
	fflush(stdout);

	/* A spare, or a restarted rank: outside the view until let in. */
	if (!ftnl_group_is_member(s.g)) {
		if (!wait_to_join(&s, state)) {
			printf("rank %u: the job ended without needing me\n",
			       s.me);
			ftnl_group_close(s.g);
			return 0;
		}
		joined = true;
	}

	s.fd = open(state, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (s.fd < 0)
		die(&s, state, errno);
	split(&s);
	good = -1;	/* no iterate agreed yet */
	if (joined) {
		good = resync(&s, good, true);
		if (good >= 0)
			load_block(&s, good);
	}

	/*
	 * Iteration 0 writes iterate 0 (all zeros) in buffer 0; each next one
	 * computes iterate iter from iterate iter - 1. The agreement after
	 * the writes says whether every block converged and is the barrier
	 * after which the whole iterate is in the file.
	 */
	for (iter = good + 1; iter <= max_iter; iter++) {
		long len = s.hi - s.lo, prev = (iter - 1) % 2;
		struct ftnl_view v;
		double delta = 0;
		uint64_t flag;

		if (iter > 0) {
			/* 1. halos of iterate iter - 1 (the boundary stays 0) */
			if (s.lo > 1)
				read_points(&s, prev, s.lo - 1, 1, &s.u[0]);
			if (s.hi <= s.n)
				read_points(&s, prev, s.hi, 1, &s.u[len + 1]);
			/* 2. Jacobi on the own block */
			for (long i = 1; i <= len; i++) {
				s.unew[i] = 0.5 * (s.u[i - 1] + s.u[i + 1] + s.h2);
				delta = fmax(delta, fabs(s.unew[i] - s.u[i]));
			}
		} else {
			memset(s.unew, 0, (size_t)(len + 2) * sizeof(double));
		}
		for (int k = 0; k < ncrash; k++)
			if (crash[k].rank == s.me && crash[k].iter == iter &&
			    s.inc == 1)
				raise(SIGKILL);
		/* 3. the own block of iterate iter */
		write_points(&s, iter % 2, s.lo, len, s.unew + 1);

		/*
		 * 4. agree: converged everywhere (bit 0)? every block
		 * written? and (bit 1, AND: "nobody") does anyone know of
		 * a process waiting to join?
		 */
		flag = (iter > 0 && delta < tol) |
		       (uint64_t)(ftnl_group_joiners(s.g) == 0) << 1;
		rc = ftnl_group_agree(s.g, &flag);
		if (rc == -ESTALE) {
			fprintf(stderr, "rank %u: declared dead, leaving\n", s.me);
			return 3;
		}
		if (rc == -FTNL_EPROCFAILED) {
			/*
			 * Iterate iter may lack a dead member's block: go back
			 * to iterate good (= iter - 1, the last agreement that
			 * returned 0) with the new view.
			 */
			printf("rank %u: iteration %ld: a member failed, recovering\n",
			       s.me, iter);
			good = recover(&s, good);
			recoveries++;
			if (good >= 0)
				load_block(&s, good);
			iter = good;	/* the loop's ++ redoes iteration good + 1 */
			continue;
		}
		if (rc)
			die(&s, "ftnl_group_agree", rc);
		good = iter;
		memcpy(s.u + 1, s.unew + 1, (size_t)len * sizeof(double));
		if (flag & 1)
			break;
		if (iter % 1000 == 0) {
			printf("rank %u: iteration %ld\n", s.me, iter);
			fflush(stdout);
		}
		/*
		 * Below full size (a rank died and no spare was waiting) and
		 * some member knows of a joiner now (a restarted rank): grow.
		 * The view and the flag are the same everywhere, so every
		 * member grows after the same iteration.
		 */
		ftnl_group_view(s.g, &v);
		if (v.size < s.target && !(flag & 2)) {
			good = recover(&s, good);
			if (good >= 0)
				load_block(&s, good);
			iter = good;
		}
	}

	if (iter > max_iter) {
		fprintf(stderr, "rank %u: no convergence in %ld iterations\n",
			s.me, max_iter);
		return 4;
	}

	/*
	 * Converged: iterate good is complete in the file. Every survivor
	 * reads it whole, in the same order, so every survivor computes the
	 * same sum, bit for bit; the exact solution is x (1 - x) / 2.
	 */
	double *all = calloc((size_t)s.n, sizeof(double));

	if (!all)
		die(&s, "calloc", ENOMEM);
	read_points(&s, good % 2, 1, s.n, all);
	for (long i = 0; i < s.n; i++) {
		double x = (double)(i + 1) / (double)(s.n + 1);

		sum += all[i];
		err_max = fmax(err_max, fabs(all[i] - 0.5 * x * (1 - x)));
	}
	free(all);
	printf("result iterations=%ld sum=%a max_error=%.3e\n", good, sum,
	       err_max);
	print_view(&s, "");
	{
		struct ftnl_view v;

		ftnl_group_view(s.g, &v);
		if (v.self == 0) {
			printf("final: %ld points, %ld iterations, %ld recover%s, "
			       "sum of u = %.15g, max error %.3e; ",
			       s.n, good, recoveries,
			       recoveries == 1 ? "y" : "ies", sum, err_max);
			print_view(&s, "");
		}
	}
	fflush(stdout);

	/*
	 * A last agreement before leaving: nobody closes while a peer may
	 * still need its part in the previous one.
	 */
	{
		uint64_t flag = 1;

		rc = ftnl_group_agree(s.g, &flag);
		if (rc && rc != -FTNL_EPROCFAILED)
			die(&s, "final agreement", rc);
	}
	/* Nobody grows any more: spares still waiting may go (wait_to_join). */
	{
		char path[4096];
		int fd;

		snprintf(path, sizeof(path), "%s.done", state);
		fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			die(&s, path, errno);
		close(fd);
	}
	free(s.u);
	free(s.unew);
	close(s.fd);
	ftnl_group_close(s.g);
	return 0;
}
