// SPDX-License-Identifier: GPL-2.0
/*
 * era-bench: one rank of the agreement benchmark (make bench, see
 * Documentation/bench.rst, "Agreement among processes"). Started by
 * ftnl-launch, which passes the group in FTNL_GROUP_PEERS,
 * FTNL_GROUP_RANK and FTNL_GROUP_FAILURE_DIR.
 *
 *   era-bench --dir D --out FILE [--warmup W] [--iters N] [--no-rebalance]
 *             [--topo binary|star|string] [--engine era|strict|loose]
 *             [--fail RANK --post P --tag T]
 *
 * --engine: the group's consensus engine (ERA, the default, or
 * validate-all with strict or loose semantics).
 *
 * Failure-free (no --fail): W agreements to warm up (connections), then N
 * timed ftnl_group_agree() calls. Each rank writes its figures to
 * D/res-<rank>; an agreement then serves as a barrier, and rank 0 reads
 * every file and appends one line to FILE:
 *
 *   n=.. r0_med_us=.. r0_p90_us=.. max_med_us=.. max_p90_us=.. msgs=..
 *
 * r0_*: rank 0's median and 90th percentile per call; max_*: the largest
 * per-rank median and 90th percentile; msgs: ERA messages sent by all
 * ranks during the N timed agreements, divided by N.
 *
 * With --fail R: W + N failure-free agreements (the last N timed), then
 * every rank sleeps 100 ms (so that every decision has reached everyone),
 * rank R kills itself with SIGKILL and the survivors, at once, time:
 * the failure-detecting agreement (expected: -FTNL_EPROCFAILED, which
 * they acknowledge with ftnl_group_failure_ack()), the stabilizing one
 * (expected: 0) and P post-failure ones. The detector is whatever the
 * group uses (with ftnl-launch: its failure directory). The lowest
 * surviving rank appends:
 *
 *   tag=T n=.. victim=R pre_us=.. detect_us=.. detect_min_us=.. stab_us=..
 *   post_us=.. detect_rc=.. stab_rc=.. msgs_detect=.. msgs_stab=..
 *   msgs_post=..
 *
 * pre_us, post_us: the largest per-survivor median; detect_us, stab_us:
 * the largest time over the survivors (detect_min_us the smallest);
 * msgs_*: messages sent by the survivors in that phase (per agreement for
 * post).
 *
 * Exit status: 0, or 1 if an agreement failed unexpectedly (the figures
 * are then not written).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ftnl/group.h>

#include "stats.h"

struct opts {
	const char *dir;
	const char *out;
	const char *tag;
	long warmup;
	long iters;
	long post;
	long fail;
	struct ftnl_group_attr attr;
};

/* What each rank leaves in D/res-<rank>. */
struct rank_res {
	uint64_t med, p90, detect, stab, post;
	uint64_t msgs, msgs_detect, msgs_stab, msgs_post;
	int detect_rc, stab_rc;
};

static uint32_t world_rank;

static void die(const char *what, int err)
{
	fprintf(stderr, "era-bench rank %u: %s: %s\n", world_rank, what,
		strerror(err < 0 ? -err : err));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: era-bench --dir D --out FILE [--warmup W] [--iters N]\n"
		"                 [--no-rebalance] [--topo binary|star|string]\n"
		"                 [--engine era|strict|loose]\n"
		"                 [--fail RANK --post P --tag T]\n");
	exit(2);
}

static long num_arg(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0)
		usage();
	return v;
}

static void parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "out", required_argument, NULL, 'o' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "iters", required_argument, NULL, 'i' },
		{ "fail", required_argument, NULL, 'f' },
		{ "post", required_argument, NULL, 'p' },
		{ "tag", required_argument, NULL, 't' },
		{ "topo", required_argument, NULL, 'T' },
		{ "no-rebalance", no_argument, NULL, 'R' },
		{ "engine", required_argument, NULL, 'E' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->warmup = 100;
	o->iters = 1000;
	o->post = 50;
	o->fail = -1;
	o->tag = "-";
	/* The detector is the launcher's failure directory only. */
	o->attr.module = FTNL_GROUP_MODULE_OFF;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'd': o->dir = optarg; break;
		case 'o': o->out = optarg; break;
		case 'w': o->warmup = num_arg(optarg); break;
		case 'i': o->iters = num_arg(optarg); break;
		case 'f': o->fail = num_arg(optarg); break;
		case 'p': o->post = num_arg(optarg); break;
		case 't': o->tag = optarg; break;
		case 'R': o->attr.no_rebalance = true; break;
		case 'E':
			if (!strcmp(optarg, "era"))
				o->attr.engine = FTNL_GROUP_ENGINE_ERA;
			else if (!strcmp(optarg, "strict"))
				o->attr.engine = FTNL_GROUP_ENGINE_VALIDATE_ALL;
			else if (!strcmp(optarg, "loose"))
				o->attr.engine =
					FTNL_GROUP_ENGINE_VALIDATE_ALL_LOOSE;
			else
				usage();
			break;
		case 'T':
			if (!strcmp(optarg, "binary"))
				o->attr.topology = FTNL_GROUP_TOPO_BINARY;
			else if (!strcmp(optarg, "star"))
				o->attr.topology = FTNL_GROUP_TOPO_STAR;
			else if (!strcmp(optarg, "string"))
				o->attr.topology = FTNL_GROUP_TOPO_STRING;
			else
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc || !o->dir || !o->out || o->iters < 1 ||
	    (o->fail >= 0 && o->post < 1))
		usage();
}

static uint64_t msgs_sent(struct ftnl_group *g)
{
	struct ftnl_group_stats st;

	ftnl_group_get_stats(g, &st);
	return st.msgs_sent;
}

/* Agreements that must succeed (failure-free phases, the barrier). */
static void agree_ok(struct ftnl_group *g, const char *what)
{
	uint64_t flag = ~(uint64_t)0;
	int rc = ftnl_group_agree(g, &flag);

	if (rc)
		die(what, rc);
}

/* @iters timed agreements: median and 90th percentile into @res. */
static void timed_loop(struct ftnl_group *g, long iters,
		       uint64_t *med, uint64_t *p90, const char *what)
{
	uint64_t *t = calloc((size_t)iters, sizeof(*t));

	if (!t)
		die("calloc", ENOMEM);
	for (long i = 0; i < iters; i++) {
		uint64_t flag = ~(uint64_t)0 ^ ((uint64_t)1 << (world_rank % 64));
		uint64_t t0 = bench_now_ns();
		int rc = ftnl_group_agree(g, &flag);

		t[i] = bench_now_ns() - t0;
		if (rc)
			die(what, rc);
	}
	*med = bench_quantile(t, (size_t)iters, 0.5);
	if (p90)
		*p90 = bench_quantile(t, (size_t)iters, 0.9);
	free(t);
}

static void write_res(const struct opts *o, const struct rank_res *r)
{
	char path[4096], tmp[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/res-%u", o->dir, world_rank);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		die(tmp, errno);
	fprintf(f, "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %d %d\n",
		r->med, r->p90, r->detect, r->stab, r->post, r->msgs,
		r->msgs_detect, r->msgs_stab, r->msgs_post, r->detect_rc,
		r->stab_rc);
	if (fclose(f) || rename(tmp, path))
		die(path, errno);
}

static void read_res(const struct opts *o, uint32_t rank, struct rank_res *r)
{
	char path[4096];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/res-%u", o->dir, rank);
	f = fopen(path, "r");
	if (!f)
		die(path, errno);
	n = fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %d %d",
		   &r->med, &r->p90, &r->detect, &r->stab, &r->post, &r->msgs,
		   &r->msgs_detect, &r->msgs_stab, &r->msgs_post,
		   &r->detect_rc, &r->stab_rc);
	fclose(f);
	if (n != 11)
		die(path, EBADMSG);
}

static FILE *open_out(const struct opts *o)
{
	FILE *f = fopen(o->out, "a");

	if (!f)
		die(o->out, errno);
	return f;
}

static void failure_free(struct ftnl_group *g, const struct opts *o)
{
	uint32_t n = ftnl_group_world_size(g);
	struct rank_res me = { 0 }, r, sum = { 0 }, r0 = { 0 };
	uint64_t m0;
	FILE *out;

	for (long i = 0; i < o->warmup; i++)
		agree_ok(g, "warm-up agreement");
	m0 = msgs_sent(g);
	timed_loop(g, o->iters, &me.med, &me.p90, "agreement");
	me.msgs = msgs_sent(g) - m0;
	write_res(o, &me);
	agree_ok(g, "barrier agreement");
	if (world_rank != 0)
		return;
	for (uint32_t q = 0; q < n; q++) {
		read_res(o, q, &r);
		if (q == 0)
			r0 = r;
		if (r.med > sum.med)
			sum.med = r.med;
		if (r.p90 > sum.p90)
			sum.p90 = r.p90;
		sum.msgs += r.msgs;
	}
	out = open_out(o);
	fprintf(out,
		"n=%u r0_med_us=%.1f r0_p90_us=%.1f max_med_us=%.1f max_p90_us=%.1f msgs=%.2f\n",
		n, r0.med / 1e3, r0.p90 / 1e3, sum.med / 1e3, sum.p90 / 1e3,
		(double)sum.msgs / (double)o->iters);
	fclose(out);
}

static void with_failure(struct ftnl_group *g, const struct opts *o)
{
	uint32_t n = ftnl_group_world_size(g), *dead, ndead, low;
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	struct rank_res me = { 0 }, r, agg = { 0 };
	uint64_t flag, t0, m0, dmin = UINT64_MAX;
	FILE *out;
	int rc;

	if ((uint64_t)o->fail >= n)
		die("--fail: no such rank", EINVAL);
	for (long i = 0; i < o->warmup; i++)
		agree_ok(g, "warm-up agreement");
	timed_loop(g, o->iters, &me.med, NULL, "pre-failure agreement");
	nanosleep(&pause, NULL);
	if (world_rank == (uint32_t)o->fail) {
		raise(SIGKILL);
		die("still alive after SIGKILL", EINTR);
	}

	/* The failure-detecting agreement. */
	m0 = msgs_sent(g);
	flag = ~(uint64_t)0;
	t0 = bench_now_ns();
	rc = ftnl_group_agree(g, &flag);
	me.detect = bench_now_ns() - t0;
	me.detect_rc = rc;
	if (rc && rc != -FTNL_EPROCFAILED)
		die("failure-detecting agreement", rc);
	ftnl_group_failure_ack(g);

	/* The stabilizing agreement. */
	me.msgs_detect = msgs_sent(g) - m0;
	m0 = msgs_sent(g);
	flag = ~(uint64_t)0;
	t0 = bench_now_ns();
	rc = ftnl_group_agree(g, &flag);
	me.stab = bench_now_ns() - t0;
	me.stab_rc = rc;
	if (rc && rc != -FTNL_EPROCFAILED)
		die("stabilizing agreement", rc);
	ftnl_group_failure_ack(g);
	me.msgs_stab = msgs_sent(g) - m0;

	m0 = msgs_sent(g);
	timed_loop(g, o->post, &me.post, NULL, "post-failure agreement");
	me.msgs_post = msgs_sent(g) - m0;
	write_res(o, &me);
	agree_ok(g, "barrier agreement");

	/* The lowest survivor sums up. */
	ndead = (uint32_t)ftnl_group_failed(g, NULL, 0);
	dead = calloc(ndead + 1, sizeof(*dead));
	if (!dead)
		die("calloc", ENOMEM);
	ndead = (uint32_t)ftnl_group_failed(g, dead, ndead + 1);
	low = 0;
	for (uint32_t i = 0; i < ndead && dead[i] == low; i++)
		low++;
	if (world_rank != low) {
		free(dead);
		return;
	}
	agg.detect_rc = 0;
	agg.stab_rc = 0;
	for (uint32_t q = 0, d = 0; q < n; q++) {
		if (d < ndead && dead[d] == q) {
			d++;
			continue;
		}
		read_res(o, q, &r);
		if (r.med > agg.med)
			agg.med = r.med;
		if (r.detect > agg.detect)
			agg.detect = r.detect;
		if (r.detect < dmin)
			dmin = r.detect;
		if (r.stab > agg.stab)
			agg.stab = r.stab;
		if (r.post > agg.post)
			agg.post = r.post;
		/* Every survivor gets the same result; keep a deviant one. */
		if (r.detect_rc != me.detect_rc)
			agg.detect_rc = 1;
		if (r.stab_rc != me.stab_rc)
			agg.stab_rc = 1;
		agg.msgs_detect += r.msgs_detect;
		agg.msgs_stab += r.msgs_stab;
		agg.msgs_post += r.msgs_post;
	}
	out = open_out(o);
	fprintf(out,
		"tag=%s n=%u victim=%ld pre_us=%.1f detect_us=%.1f detect_min_us=%.1f stab_us=%.1f post_us=%.1f detect_rc=%s stab_rc=%s msgs_detect=%" PRIu64 " msgs_stab=%" PRIu64 " msgs_post=%.2f\n",
		o->tag, n, o->fail, agg.med / 1e3, agg.detect / 1e3,
		dmin / 1e3, agg.stab / 1e3, agg.post / 1e3,
		agg.detect_rc ? "differ" :
		me.detect_rc == -FTNL_EPROCFAILED ? "EPROCFAILED" :
		me.detect_rc ? "error" : "0",
		agg.stab_rc ? "differ" :
		me.stab_rc == -FTNL_EPROCFAILED ? "EPROCFAILED" :
		me.stab_rc ? "error" : "0",
		agg.msgs_detect, agg.msgs_stab,
		(double)agg.msgs_post / (double)o->post);
	fclose(out);
	free(dead);
}

int main(int argc, char **argv)
{
	struct ftnl_group_spec spec;
	struct ftnl_group *g;
	struct opts o;
	char err[256] = "";
	int rc;

	parse(argc, argv, &o);
	rc = ftnl_group_spec_from_env(&spec, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "era-bench: group spec: %s%s%s\n", strerror(-rc),
			*err ? ": " : "", err);
		return 1;
	}
	world_rank = spec.rank;
	rc = ftnl_group_open(&spec, &o.attr, &g);
	ftnl_group_spec_free(&spec);
	if (rc)
		die("ftnl_group_open", rc);
	if (o.fail >= 0)
		with_failure(g, &o);
	else
		failure_free(g, &o);
	ftnl_group_close(g);
	return 0;
}
