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
 * acknowledge (ftnl_group_failure_ack), shrink (ftnl_group_shrink, the
 * new view arrives through the view callback too), split the domain over
 * the new view and redo the iteration from the last iterate whose
 * agreement returned 0 (that buffer is complete: an agreement that
 * returns 0 had every member's contribution, hence every member's write,
 * and the next iteration writes the other buffer). The arithmetic of a
 * point does not depend on who owns it, so the result is bitwise the one
 * of a failure-free run.
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
 * tests; killing a rank from outside works just as well).
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
 * Recover from a failure seen in an agreement: acknowledge it, shrink (a
 * collective, which may itself see more failures: it still succeeds),
 * then take the new block.
 */
static void recover(struct solver *s)
{
	int rc;

	ftnl_group_failure_ack(s->g);
	rc = ftnl_group_shrink(s->g);
	if (rc == -ESTALE) {
		fprintf(stderr, "rank %u: declared dead by the others, leaving\n",
			s->me);
		exit(3);
	}
	if (rc)
		die(s, "ftnl_group_shrink", rc);
	split(s);
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
	long max_iter = 200000, good = 0, iter, recoveries = 0;
	int ncrash = 0, c, rc;
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
	rc = ftnl_group_open(&spec, &attr, &s.g);
	ftnl_group_spec_free(&spec);
	if (rc)
		die(&s, "ftnl_group_open", rc);
	ftnl_group_on_view_change(s.g, on_view, &s);
	printf("rank %u: pid %ld, %ld points\n", s.me, (long)getpid(), s.n);
	fflush(stdout);

	s.fd = open(state, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (s.fd < 0)
		die(&s, state, errno);
	split(&s);

	/*
	 * Iterate 0 (all zeros) in buffer 0: each member writes its block,
	 * then the first agreement says that every block is there.
	 */
	for (;;) {
		uint64_t flag = 1;

		write_points(&s, 0, s.lo, s.hi - s.lo, s.u + 1);
		rc = ftnl_group_agree(s.g, &flag);
		if (rc == 0)
			break;
		if (rc != -FTNL_EPROCFAILED)
			die(&s, "ftnl_group_agree", rc);
		recover(&s);
		recoveries++;
	}

	for (iter = 1; iter <= max_iter; iter++) {
		long len = s.hi - s.lo, prev = (iter - 1) % 2;
		double delta = 0;
		uint64_t flag;

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
		for (int k = 0; k < ncrash; k++)
			if (crash[k].rank == s.me && crash[k].iter == iter)
				raise(SIGKILL);
		/* 3. the own block of iterate iter */
		write_points(&s, iter % 2, s.lo, len, s.unew + 1);

		/* 4. agree: converged everywhere? every block written? */
		flag = delta < tol;
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
			recover(&s);
			recoveries++;
			good = iter - 1;
			load_block(&s, good);
			iter = good;	/* the loop's ++ redoes iteration good + 1 */
			continue;
		}
		if (rc)
			die(&s, "ftnl_group_agree", rc);
		good = iter;
		memcpy(s.u + 1, s.unew + 1, (size_t)len * sizeof(double));
		if (flag)
			break;
		if (iter % 1000 == 0) {
			printf("rank %u: iteration %ld\n", s.me, iter);
			fflush(stdout);
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
	free(s.u);
	free(s.unew);
	close(s.fd);
	ftnl_group_close(s.g);
	return 0;
}
