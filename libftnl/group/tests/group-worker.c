// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-group-worker: the workload of the group system tests. One process
 * of a group started by ftnl-launch (Documentation/ftnl-launch.rst): it
 * opens the group from the environment, runs a sequence of agreements,
 * acknowledges failures, shrinks, and logs every result on stdout, one
 * line each, for group-check to compare across ranks:
 *
 *	start rank <r> size <n> pid <pid> job <job>
 *	agree <view id> <i> rc=<rc> flag=<16 hex digits> known=<ranks> us=<t>
 *	ack acked=<ranks>
 *	view <id> <member,member,...>
 *	done agreements=<count> view=<id>
 *
 * What ERA guarantees identical at every survivor is what group-check
 * compares: per agreement index, the rc and the flag; per view id, the
 * members. known= (this process's local knowledge, ftnl_group_failed())
 * and us= (the call's duration) are diagnostics only.
 *
 * Agreement i's contribution of world rank r is all ones, except bit
 * r % 64 cleared when (r + i) % 3 == 0: the AND names its contributors,
 * changes from one agreement to the next, and the checker can tell which
 * bits must be (survivors') and may be (the view's members') cleared.
 *
 * After the A agreements: a last shrink, one more agreement (index A) in
 * the resulting view, which every member reaches only once all have the
 * view, then --linger ms of progress before closing, for peers that may
 * still need this process's decisions.
 *
 * Exit status: 0; 1 on an error (logged as "error ..."); 2 usage; 3 if the
 * group decided this process dead (-ESTALE).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ftnl/group.h>

struct opts {
	unsigned long agreements;
	unsigned long shrink_every;	/* 0: only on error and at the end */
	bool shrink_on_error;
	unsigned long pause_us;
	unsigned long iagree;		/* 0: blocking agree */
	unsigned long linger_ms;
	/* --stall R:I:MS (repeatable): rank R sleeps MS ms before agreement I */
	unsigned int nstall;
	struct {
		unsigned long rank, at, ms;
	} stall[16];
	struct ftnl_group_attr attr;
};

static struct ftnl_group *grp;
static uint32_t my_rank;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ftnl-group-worker [OPTIONS]   (environment from ftnl-launch)\n"
		"  -a, --agreements A    agreements to run (default 20)\n"
		"  -s, --shrink-every S  shrink after every S agreements (default 0: never\n"
		"                        but after an error and at the end)\n"
		"      --no-shrink-on-error\n"
		"  -p, --pause US        sleep US microseconds between agreements\n"
		"  -k, --iagree K        keep K agreements in flight with iagree\n"
		"  -t, --thread          start the library's progress thread\n"
		"      --topo T          binary|star|string|hier (and --inter T, --intra T)\n"
		"      --no-rebalance    keep the first tree\n"
		"      --engine E        era (default), strict or loose (validate-all)\n"
		"      --window W        iagree window of the group\n"
		"      --module M        on|off|auto (default: $FTNL_GROUP_MODULE, else auto)\n"
		"      --linger MS       progress for MS ms before closing (default 500)\n"
		"      --stall R:I:MS    rank R sleeps MS ms before joining agreement I\n"
		"                        (the others wait in it); up to 16 times\n");
}

static int parse_ulong(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_topo(const char *s, enum ftnl_group_topology *t)
{
	static const char *const names[] = {
		[FTNL_GROUP_TOPO_BINARY] = "binary",
		[FTNL_GROUP_TOPO_STAR] = "star",
		[FTNL_GROUP_TOPO_STRING] = "string",
		[FTNL_GROUP_TOPO_HIER] = "hier",
	};
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*t = (enum ftnl_group_topology)i;
			return 0;
		}
	}
	return -1;
}

static int parse_module(const char *s, enum ftnl_group_module *m)
{
	if (!strcmp(s, "on"))
		*m = FTNL_GROUP_MODULE_ON;
	else if (!strcmp(s, "off"))
		*m = FTNL_GROUP_MODULE_OFF;
	else if (!strcmp(s, "auto"))
		*m = FTNL_GROUP_MODULE_AUTO;
	else
		return -1;
	return 0;
}

static int parse_engine(const char *s, enum ftnl_group_engine *e)
{
	if (!strcmp(s, "era"))
		*e = FTNL_GROUP_ENGINE_ERA;
	else if (!strcmp(s, "strict"))
		*e = FTNL_GROUP_ENGINE_VALIDATE_ALL;
	else if (!strcmp(s, "loose"))
		*e = FTNL_GROUP_ENGINE_VALIDATE_ALL_LOOSE;
	else
		return -1;
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	enum { O_NOSHRINK = 256, O_TOPO, O_INTER, O_INTRA, O_NOREBAL, O_WINDOW,
	       O_MODULE, O_LINGER, O_STALL, O_ENGINE };
	static const struct option longopts[] = {
		{ "agreements", required_argument, NULL, 'a' },
		{ "shrink-every", required_argument, NULL, 's' },
		{ "no-shrink-on-error", no_argument, NULL, O_NOSHRINK },
		{ "pause", required_argument, NULL, 'p' },
		{ "iagree", required_argument, NULL, 'k' },
		{ "thread", no_argument, NULL, 't' },
		{ "topo", required_argument, NULL, O_TOPO },
		{ "inter", required_argument, NULL, O_INTER },
		{ "intra", required_argument, NULL, O_INTRA },
		{ "no-rebalance", no_argument, NULL, O_NOREBAL },
		{ "window", required_argument, NULL, O_WINDOW },
		{ "module", required_argument, NULL, O_MODULE },
		{ "linger", required_argument, NULL, O_LINGER },
		{ "stall", required_argument, NULL, O_STALL },
		{ "engine", required_argument, NULL, O_ENGINE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *env = getenv("FTNL_GROUP_MODULE");
	unsigned long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->agreements = 20;
	o->shrink_on_error = true;
	o->linger_ms = 500;
	o->attr.module = FTNL_GROUP_MODULE_AUTO;
	if (env && *env && parse_module(env, &o->attr.module)) {
		fprintf(stderr, "ftnl-group-worker: FTNL_GROUP_MODULE=%s: not on|off|auto\n", env);
		return -1;
	}
	while ((c = getopt_long(argc, argv, "a:s:p:k:th", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (parse_ulong(optarg, 1000000, &o->agreements))
				goto bad;
			break;
		case 's':
			if (parse_ulong(optarg, 1000000, &o->shrink_every))
				goto bad;
			break;
		case O_NOSHRINK:
			o->shrink_on_error = false;
			break;
		case 'p':
			if (parse_ulong(optarg, 60000000, &o->pause_us))
				goto bad;
			break;
		case 'k':
			if (parse_ulong(optarg, 4096, &o->iagree))
				goto bad;
			break;
		case 't':
			o->attr.progress_thread = true;
			break;
		case O_TOPO:
			if (parse_topo(optarg, &o->attr.topology))
				goto bad;
			break;
		case O_INTER:
			if (parse_topo(optarg, &o->attr.inter))
				goto bad;
			break;
		case O_INTRA:
			if (parse_topo(optarg, &o->attr.intra))
				goto bad;
			break;
		case O_NOREBAL:
			o->attr.no_rebalance = true;
			break;
		case O_WINDOW:
			if (parse_ulong(optarg, 65536, &v))
				goto bad;
			o->attr.window = (uint32_t)v;
			break;
		case O_MODULE:
			if (parse_module(optarg, &o->attr.module))
				goto bad;
			break;
		case O_ENGINE:
			if (parse_engine(optarg, &o->attr.engine))
				goto bad;
			break;
		case O_LINGER:
			if (parse_ulong(optarg, 600000, &o->linger_ms))
				goto bad;
			break;
		case O_STALL: {
			unsigned long r;
			char *a = strdup(optarg), *i, *ms;

			if (!a || o->nstall == 16) {
				free(a);
				goto bad;
			}
			i = strchr(a, ':');
			ms = i ? strchr(i + 1, ':') : NULL;
			if (!ms) {
				free(a);
				goto bad;
			}
			*i++ = 0;
			*ms++ = 0;
			if (parse_ulong(a, FTNL_GROUP_MAX_SIZE - 1, &r) ||
			    parse_ulong(i, 1000000, &o->stall[o->nstall].at) ||
			    parse_ulong(ms, 600000, &o->stall[o->nstall].ms)) {
				free(a);
				goto bad;
			}
			o->stall[o->nstall++].rank = r;
			free(a);
			break;
		}
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "ftnl-group-worker: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	return 0;
bad:
	fprintf(stderr, "ftnl-group-worker: bad value '%s'\n", optarg);
	usage(stderr);
	return -1;
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static uint64_t contribution(uint32_t rank, unsigned long i)
{
	uint64_t flag = ~(uint64_t)0;

	if ((rank + i) % 3 == 0)
		flag &= ~((uint64_t)1 << (rank % 64));
	return flag;
}

/* Print "a,b,c" (or "-" for none) of the ranks @get returns. */
static void print_ranks(int (*get)(struct ftnl_group *, uint32_t *, size_t))
{
	uint32_t small[64], *ranks = small;
	int n, i;

	n = get(grp, small, 64);
	if (n > 64) {
		ranks = malloc((size_t)n * sizeof(*ranks));
		if (!ranks) {
			fputs("?", stdout);
			return;
		}
		n = get(grp, ranks, (size_t)n);
	}
	if (n <= 0)
		fputs("-", stdout);
	for (i = 0; i < n; i++)
		printf(i ? ",%" PRIu32 : "%" PRIu32, ranks[i]);
	if (ranks != small)
		free(ranks);
}

static void log_agree(unsigned long i, int rc, uint64_t flag, uint64_t us)
{
	struct ftnl_view v;

	ftnl_group_view(grp, &v);
	printf("agree %" PRIu64 " %lu rc=%d flag=%016" PRIx64 " known=", v.id, i,
	       rc, rc == 0 || rc == -FTNL_EPROCFAILED ? flag : 0);
	print_ranks(ftnl_group_failed);
	printf(" us=%" PRIu64 "\n", us);
}

static void log_view(void)
{
	struct ftnl_view v;
	uint32_t k;

	ftnl_group_view(grp, &v);
	printf("view %" PRIu64 " ", v.id);
	for (k = 0; k < v.size; k++)
		printf(k ? ",%" PRIu32 : "%" PRIu32, v.members[k]);
	printf("\n");
}

static void fail(const char *what, int err)
{
	printf("error %s: %s (%d)\n", what, strerror(err < 0 ? -err : err), err);
	fflush(stdout);
	exit(err == -ESTALE ? 3 : 1);
}

/*
 * The result of one agreement: log it; acknowledge on FTNL_EPROCFAILED.
 * Return: whether it asks for a shrink.
 */
static bool handle_result(unsigned long i, int rc, uint64_t flag, uint64_t us)
{
	log_agree(i, rc, flag, us);
	if (rc == -FTNL_EPROCFAILED) {
		ftnl_group_failure_ack(grp);
		printf("ack acked=");
		print_ranks(ftnl_group_get_acked);
		printf("\n");
		return true;
	}
	if (rc < 0)
		fail("agree", rc);
	return false;
}

static void do_shrink(void)
{
	int rc = ftnl_group_shrink(grp);

	if (rc < 0)
		fail("shrink", rc);
	log_view();
}

static void pause_between(const struct opts *o)
{
	struct timespec ts = {
		.tv_sec = (time_t)(o->pause_us / 1000000),
		.tv_nsec = (long)(o->pause_us % 1000000) * 1000,
	};

	if (o->pause_us)
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
}

/*
 * --stall: this rank makes the others wait in agreement @i (a test samples
 * their CPU meanwhile, or kills this rank while they wait).
 */
static void stall_before(const struct opts *o, unsigned long i)
{
	struct timespec ts;
	unsigned int k;

	for (k = 0; k < o->nstall; k++) {
		if (o->stall[k].rank != my_rank || o->stall[k].at != i)
			continue;
		printf("stall %lu %lu\n", i, o->stall[k].ms);
		ts.tv_sec = (time_t)(o->stall[k].ms / 1000);
		ts.tv_nsec = (long)(o->stall[k].ms % 1000) * 1000000;
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
}

static unsigned long next_boundary(const struct opts *o, unsigned long done)
{
	if (!o->shrink_every)
		return o->agreements;
	done = (done / o->shrink_every + 1) * o->shrink_every;
	return done < o->agreements ? done : o->agreements;
}

static void run_blocking(const struct opts *o)
{
	unsigned long i;

	for (i = 0; i < o->agreements; i++) {
		uint64_t flag = contribution(my_rank, i), t0;
		bool err;
		int rc;

		stall_before(o, i);
		t0 = now_us();
		rc = ftnl_group_agree(grp, &flag);
		err = handle_result(i, rc, flag, now_us() - t0);

		if ((err && o->shrink_on_error) ||
		    (o->shrink_every && (i + 1) % o->shrink_every == 0 &&
		     i + 1 < o->agreements))
			do_shrink();
		pause_between(o);
	}
}

struct inflight {
	struct ftnl_group_req *req;
	unsigned long i;
	uint64_t t0;
};

/*
 * K agreements in flight. Every rank issues the same indices in the same
 * order: before waiting for index i it has issued up to
 * min(i + K - 1, boundary - 1), where the boundary is the next periodic
 * shrink or, once an agreement failed, the indices already issued (the
 * error is agreed, so every survivor sets the same boundary). At a
 * boundary the window drains, then the group shrinks.
 */
static void run_iagree(const struct opts *o)
{
	struct inflight *q = calloc(o->iagree, sizeof(*q));
	unsigned long head = 0, count = 0, issued = 0, done = 0, boundary;
	bool shrink = false;

	if (!q)
		fail("calloc", -ENOMEM);
	boundary = next_boundary(o, 0);
	while (done < o->agreements) {
		struct inflight *f;
		uint64_t flag;
		int rc;

		while (count < o->iagree && issued < boundary) {
			f = &q[(head + count) % o->iagree];
			stall_before(o, issued);
			f->i = issued;
			f->t0 = now_us();
			rc = ftnl_group_iagree(grp, contribution(my_rank, issued), &f->req);
			if (rc < 0)
				fail("iagree", rc);
			issued++;
			count++;
		}
		f = &q[head];
		rc = ftnl_group_req_wait(f->req, &flag);
		ftnl_group_req_free(f->req);
		head = (head + 1) % o->iagree;
		count--;
		done++;
		if (handle_result(f->i, rc, flag, now_us() - f->t0) &&
		    o->shrink_on_error) {
			shrink = true;
			boundary = issued;
		}
		if (done == boundary && done < o->agreements) {
			if (shrink || o->shrink_every)
				do_shrink();
			shrink = false;
			boundary = next_boundary(o, done);
		}
		pause_between(o);
	}
	free(q);
}

/* Serve peers for @ms: with the progress thread, it does; else here. */
static void linger(const struct opts *o, unsigned long ms)
{
	uint64_t end = now_us() + (uint64_t)ms * 1000, t;

	while ((t = now_us()) < end) {
		if (o->attr.progress_thread) {
			struct timespec ts = {
				.tv_sec = (time_t)((end - t) / 1000000),
				.tv_nsec = (long)((end - t) % 1000000) * 1000,
			};

			nanosleep(&ts, NULL);
		} else {
			struct pollfd p = { .fd = ftnl_group_fd(grp), .events = POLLIN };

			if (poll(&p, 1, (int)((end - t + 999) / 1000)) > 0 &&
			    ftnl_group_progress(grp) < 0)
				return;
		}
	}
}

int main(int argc, char **argv)
{
	struct ftnl_group_spec spec;
	struct opts o;
	char err[256] = "";
	uint64_t flag, t0;
	struct ftnl_view v;
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse_args(argc, argv, &o))
		return 2;
	rc = ftnl_group_spec_from_env(&spec, err, sizeof(err));
	if (rc < 0) {
		printf("error spec: %s%s%s\n", strerror(-rc), *err ? ": " : "", err);
		return 1;
	}
	my_rank = spec.rank;
	printf("start rank %" PRIu32 " size %" PRIu32 " pid %ld job %" PRIu64 "\n",
	       spec.rank, spec.size, (long)getpid(), spec.job);
	rc = ftnl_group_open(&spec, &o.attr, &grp);
	ftnl_group_spec_free(&spec);
	if (rc < 0)
		fail("open", rc);

	if (o.iagree)
		run_iagree(&o);
	else
		run_blocking(&o);

	/* The end: one view of the survivors, and one agreement in it. */
	do_shrink();
	flag = contribution(my_rank, o.agreements);
	t0 = now_us();
	rc = ftnl_group_agree(grp, &flag);
	handle_result(o.agreements, rc, flag, now_us() - t0);
	ftnl_group_view(grp, &v);
	printf("done agreements=%lu view=%" PRIu64 "\n", o.agreements + 1, v.id);
	linger(&o, o.linger_ms);
	ftnl_group_close(grp);
	return 0;
}
