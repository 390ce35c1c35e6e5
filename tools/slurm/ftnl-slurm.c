// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-slurm - tell Slurm what ftnl knows: a node ftnl declares dead is
 * set DOWN in slurmctld at once (Slurm alone waits SlurmdTimeout), a node
 * that left gracefully is drained, a node the cluster expelled while it
 * ran drains itself until it is a member again, and, if the admin wants,
 * a node ftnl sees alive again is returned to service. Runs on every node
 * (man ftnl-slurm(8), Documentation/admin-guide.rst "Slurm integration").
 *
 * The main thread waits in poll(2) on ftnl's event socket and a
 * signalfd, decides what Slurm is to be told and queues it; a second
 * thread (sender.c) sends the queued updates, one per node (a newer one
 * replaces one not yet sent), and retries those slurmctld did not take,
 * with a backoff. An RPC that waits for slurmctld never delays the
 * reading of ftnl's events.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <ftnl/ftnl.h>

#include "log.h"
#include "policy.h"
#include "sender.h"
#include "slurmctl.h"

struct fs_state {
	struct fs_policy policy;
	unsigned int resync_s;
	bool dry_run;
	int verbose;
	struct ftnl_handle *handle;
	struct ftnl_events *events;
	uint32_t self_id;
	uint64_t incarnation;	/* this node's, 0 when not configured */
	uint32_t timeout_us;	/* d */
	bool rejoin_auto;
	bool expelled;		/* this node is out until it is a member again */
	bool expel_comes_back;	/* ... and ftnl brings it back by itself */
	bool resume_checked;	/* Slurm looked at once for a past expulsion */
	uint64_t next_selfcheck_ms;	/* 0: none planned */
	struct ftnl_node_table table;
	struct fs_member *members;
	struct fs_sender *sender;
	uint64_t next_resync_ms;	/* 0: none planned */
};

/* Re-reads this node's id and ftnl's table (after a configuration change,
 * a failure, or lost events). */
static int fs_refresh(struct fs_state *st)
{
	struct ftnl_cluster_info info;
	struct fs_member *members;
	size_t i;
	int err;

	err = ftnl_cluster_get(st->handle, &info);
	if (err == -ENOENT) {
		st->self_id = 0;
		st->incarnation = 0;
		ftnl_node_table_free(&st->table);
		return 0;
	}
	if (err) {
		fs_log("reading the cluster configuration: %s", strerror(-err));
		return err;
	}
	st->self_id = info.self_id;
	st->incarnation = info.incarnation;
	st->timeout_us = info.timeout_us;
	st->rejoin_auto = !info.has_rejoin || info.rejoin == FTNL_REJOIN_AUTO;
	ftnl_node_table_free(&st->table);
	err = ftnl_node_list(st->handle, &st->table);
	if (err) {
		fs_log("reading the node table: %s", strerror(-err));
		return err;
	}
	members = realloc(st->members, (st->table.count ? st->table.count : 1) * sizeof(*members));
	if (!members)
		return -ENOMEM;
	st->members = members;
	for (i = 0; i < st->table.count; i++) {
		members[i].id = st->table.nodes[i].id;
		members[i].alive = st->table.nodes[i].state == FTNL_NODE_STATE_ALIVE;
	}
	fs_sender_set_minority(st->sender, fs_sees_minority(members, st->table.count));
	return 0;
}

static const struct ftnl_node *fs_node(const struct fs_state *st, uint32_t id)
{
	size_t i;

	for (i = 0; i < st->table.count; i++)
		if (st->table.nodes[i].id == id)
			return &st->table.nodes[i];
	return NULL;
}

/* Queues @u for @name, replacing what was queued for it. */
static void fs_put(struct fs_state *st, struct fs_update *u, const char *name,
		   const char *reason)
{
	u->queued_real_ns = fs_real_ns();
	snprintf(u->name, sizeof(u->name), "%s", name);
	snprintf(u->reason, sizeof(u->reason), "%s", reason ? reason : "");
	fs_sender_put(st->sender, u);
}

/* Queues @op for @name, replacing what was queued for it. */
static void fs_enqueue(struct fs_state *st, const char *name, enum fs_op op,
		       const char *reason, uint64_t learned_real_ns, uint64_t read_real_ns,
		       bool verify)
{
	struct fs_update u = {
		.op = op,
		.verify = verify,
		.learned_real_ns = learned_real_ns,
		.read_real_ns = read_real_ns,
	};

	fs_put(st, &u, name, reason);
}

/* @verify: the failure is read back from ftnl's table, maybe long known
 * and already handled in Slurm: read Slurm's state before any update. */
static void fs_on_failure(struct fs_state *st, const struct ftnl_event_failure *ev,
			  bool verify, uint64_t read_real_ns)
{
	struct fs_failure failure = {
		.node_id = ev->node_id,
		.observer_id = ev->observer_id,
		.cause = ev->cause,
		.incarnation = ev->incarnation,
	};
	const struct ftnl_node *obs;
	char observer[FS_NAME_MAX + 16];
	char reason[FS_REASON_MAX];
	enum fs_op op;

	op = fs_failure_op(&st->policy, &failure);
	if (op == FS_OP_NONE)
		return;
	if (!fs_is_actor(&st->policy, st->self_id, &failure, st->members, st->table.count)) {
		if (st->verbose)
			fs_log("node %" PRIu32 " (%s) %s, observer %" PRIu32 ": another node tells Slurm",
			       ev->node_id, ev->node_name, ftnl_event_cause_name(ev->cause),
			       ev->observer_id);
		return;
	}
	if (!fs_failure_reportable(&failure)) {
		fs_log("node %" PRIu32 " (%s) %s, observer %" PRIu32 ", but it never spoke to "
		       "this node since it was configured: not reported to Slurm", ev->node_id,
		       ev->node_name, ftnl_event_cause_name(ev->cause), ev->observer_id);
		return;
	}
	if (!ev->node_name[0]) {
		fs_log("node %" PRIu32 " failed but has no name in ftnl's configuration "
		       "(node ID ADDR PORT name NAME): Slurm cannot be told", ev->node_id);
		return;
	}
	obs = fs_node(st, ev->observer_id);
	if (obs && obs->name[0])
		snprintf(observer, sizeof(observer), "%s", obs->name);
	else
		snprintf(observer, sizeof(observer), "node %" PRIu32, ev->observer_id);
	fs_reason(reason, sizeof(reason), &failure, observer);
	fs_enqueue(st, ev->node_name, op, reason, verify ? 0 : ev->time_real_ns, read_real_ns,
		   verify);
}

/* The next look at this node's own entry while it is expelled and ftnl
 * brings it back by itself (4d after its fence): 4d + 1 s after the
 * expulsion, then every d (at least 1 s) until it is back. ftnl publishes
 * no event when it comes back; a new configuration does (and is looked
 * at then). */
static uint64_t fs_selfcheck_at(const struct fs_state *st, bool first)
{
	uint64_t d_ms = st->timeout_us / 1000;

	if (first)
		return fs_now_ms() + 4 * d_ms + 1000;
	return fs_now_ms() + (d_ms > 1000 ? d_ms : 1000);
}

/* This node was expelled (@e), learned at @learned_real_ns (0: read back
 * from the table): drain (or down) itself in Slurm, unless Slurm has it
 * DOWN or draining already (its observer's update: nothing is sent twice). */
static void fs_on_expelled(struct fs_state *st, const struct fs_expulsion *e,
			   uint64_t learned_real_ns)
{
	const struct ftnl_node *self = fs_node(st, st->self_id), *by = fs_node(st, e->by_id);
	struct fs_update u = {
		.op = fs_expel_op(&st->policy),
		.verify = true,
		.about_self = true,
		.incarnation = e->incarnation,
		.learned_real_ns = learned_real_ns,
		.read_real_ns = learned_real_ns ? fs_real_ns() : 0,
	};
	char by_name[FS_NAME_MAX + 16];
	char reason[FS_REASON_MAX];

	st->expelled = true;
	st->expel_comes_back = fs_expel_comes_back(e, st->rejoin_auto);
	st->next_selfcheck_ms = st->expel_comes_back ? fs_selfcheck_at(st, true) : 0;
	if (by && by->name[0])
		snprintf(by_name, sizeof(by_name), "%s", by->name);
	else
		snprintf(by_name, sizeof(by_name), "node %" PRIu32, e->by_id);
	fs_expel_reason(reason, sizeof(reason), e, by_name);
	fs_log("this node (%" PRIu32 ") is expelled: %s%s", st->self_id, reason,
	       st->next_selfcheck_ms ? "; ftnl brings it back by itself (rejoin auto)" :
	       "; it is back once configured again");
	if (u.op == FS_OP_NONE)
		return;
	if (!self || !self->name[0]) {
		fs_log("this node has no name in ftnl's configuration (node ID ADDR PORT "
		       "name NAME): Slurm cannot be told of its expulsion");
		return;
	}
	fs_put(st, &u, self->name, reason);
}

/*
 * This node's own entry, after a configuration change, at start, and
 * while it is expelled: newly found expelled (events were lost, or
 * ftnl-slurm started late), it is handled as by the event; a member
 * again after an expulsion, or for the first time since ftnl-slurm
 * started (it may have been expelled before), it returns to service if
 * Slurm still has it out for an expulsion of another life (its own
 * update, which nothing else undoes).
 */
static void fs_self_check(struct fs_state *st)
{
	const struct ftnl_node *self = fs_node(st, st->self_id);
	struct fs_update u = { .op = FS_OP_RESUME, .verify = true, .about_self = true };

	st->next_selfcheck_ms = 0;
	if (!self || st->policy.on_expel == FS_EXPEL_IGNORE)
		return;
	if (self->state == FTNL_NODE_STATE_EXPELLED) {
		struct fs_expulsion e = { .incarnation = st->incarnation };

		if (!st->expelled) {
			fs_on_expelled(st, &e, 0);
			/* Why is not known: it may come back by itself. */
			st->expel_comes_back = st->rejoin_auto;
		}
		st->next_selfcheck_ms = st->expel_comes_back ? fs_selfcheck_at(st, false) : 0;
		return;
	}
	if (self->state != FTNL_NODE_STATE_ALIVE || !self->name[0])
		return;
	if (!st->expelled && st->resume_checked)
		return;
	if (st->expelled)
		fs_log("this node is a member again (incarnation %" PRIu64 ")", st->incarnation);
	st->expelled = false;
	st->resume_checked = true;
	if (st->dry_run)
		return;
	u.incarnation = st->incarnation;
	fs_put(st, &u, self->name, NULL);
}

/* Every dead or departed node of the table again, as after a failure
 * (events were lost): only the designated node does it, and an update
 * Slurm already has is skipped. */
static void fs_reconcile(struct fs_state *st)
{
	size_t i;

	if (st->self_id == 0 || st->self_id != fs_designated(st->members, st->table.count, 0))
		return;
	for (i = 0; i < st->table.count; i++) {
		const struct ftnl_node *n = &st->table.nodes[i];
		struct ftnl_event_failure ev = {
			.node_id = n->id,
			.observer_id = 0,	/* unknown: the table does not say */
			.incarnation = n->incarnation,
			.cause = n->state == FTNL_NODE_STATE_LEFT ? FTNL_CAUSE_LEAVE : FTNL_CAUSE_OBSERVED,
		};

		if (n->state != FTNL_NODE_STATE_DEAD && n->state != FTNL_NODE_STATE_LEFT)
			continue;
		snprintf(ev.node_name, sizeof(ev.node_name), "%s", n->name);
		fs_on_failure(st, &ev, true, 0);
	}
}

/* Resume policy: the designated node returns to service every node that
 * ftnl-slurm had taken out and that ftnl now sees alive (readmitted or
 * rejoined): the sender reads every node's Slurm state in one request. */
static void fs_resync(struct fs_state *st)
{
	struct fs_alive *alive;
	size_t i, n = 0;

	st->next_resync_ms = st->resync_s ? fs_now_ms() + st->resync_s * 1000ull : 0;
	if (!st->policy.resume_alive || st->dry_run)
		return;
	if (fs_refresh(st))
		return;
	if (st->self_id == 0 || st->self_id != fs_designated(st->members, st->table.count, 0))
		return;
	alive = calloc(st->table.count ? st->table.count : 1, sizeof(*alive));
	if (!alive) {
		fs_log("resync: out of memory");
		return;
	}
	for (i = 0; i < st->table.count; i++) {
		const struct ftnl_node *node = &st->table.nodes[i];

		if (node->state != FTNL_NODE_STATE_ALIVE || !node->name[0])
			continue;
		snprintf(alive[n].name, sizeof(alive[n].name), "%s", node->name);
		alive[n++].incarnation = node->incarnation;
	}
	fs_sender_resync(st->sender, alive, n);
}

/* The poll timeout: until the next resync or look at this node's own
 * entry, -1 for none. */
static int fs_timeout(const struct fs_state *st)
{
	uint64_t now = fs_now_ms(), next = st->next_resync_ms;

	if (st->next_selfcheck_ms && (next == 0 || st->next_selfcheck_ms < next))
		next = st->next_selfcheck_ms;

	if (next == 0)
		return -1;
	if (next <= now)
		return 0;
	return next - now > 60000 ? 60000 : (int)(next - now);
}

/* What a failure event says, in the table read before it. */
static void fs_mark_failed(struct fs_state *st, uint32_t node_id)
{
	size_t i;

	for (i = 0; i < st->table.count; i++)
		if (st->members[i].id == node_id)
			st->members[i].alive = false;
}

static int fs_drain_events(struct fs_state *st)
{
	struct ftnl_event ev;
	uint64_t read_ns;
	int ret;

	while ((ret = ftnl_events_read(st->events, &ev)) == 1) {
		switch (ev.type) {
		case FTNL_EVENT_CLUSTER:
			if (fs_refresh(st) == 0)
				fs_self_check(st);
			if (st->verbose)
				fs_log("configuration generation %" PRIu32 ": self %" PRIu32
				       ", %zu nodes", ev.cluster.generation, st->self_id,
				       st->table.count);
			if (st->policy.resume_alive)
				st->next_resync_ms = fs_now_ms();
			break;
		case FTNL_EVENT_OVERRUN:
			fs_log("ftnl events were lost: reading the table again");
			if (fs_refresh(st) == 0) {
				fs_reconcile(st);
				fs_self_check(st);
			}
			break;
		case FTNL_EVENT_FAILURE:
			read_ns = fs_real_ns();
			if (st->verbose)
				fs_log("event: node %" PRIu32 " (%s) %s, observer %" PRIu32
				       ", learned at %.6f", ev.failure.node_id,
				       ev.failure.node_name,
				       ftnl_event_cause_name(ev.failure.cause),
				       ev.failure.observer_id, ev.failure.time_real_ns / 1e9);
			/* Decided on the table as of the last event, with this
			 * failure marked in it: the two requests that read the
			 * table again come after the update is queued. */
			fs_mark_failed(st, ev.failure.node_id);
			fs_on_failure(st, &ev.failure, false, read_ns);
			fs_refresh(st);
			break;
		case FTNL_EVENT_EXPELLED: {
			struct fs_expulsion e = {
				.by_id = ev.expelled.by_id,
				.reason = ev.expelled.reason,
				.reason_known = true,
				.incarnation = ev.expelled.incarnation,
			};

			if (fs_refresh(st) || ev.expelled.node_id != st->self_id)
				break;
			if (st->policy.on_expel != FS_EXPEL_IGNORE)
				fs_on_expelled(st, &e, ev.expelled.time_real_ns);
			break;
		}
		case FTNL_EVENT_JOINED:
			if (st->verbose)
				fs_log("event: node %" PRIu32 " (%s) joined", ev.joined.node_id,
				       ev.joined.node_name);
			fs_refresh(st);
			break;
		default:
			break;
		}
	}
	return ret;
}

static void fs_usage(FILE *out)
{
	fputs("usage: ftnl-slurm [--on-leave drain|down|ignore] [--resume never|alive]\n"
	      "                  [--on-expel drain|down|ignore]\n"
	      "                  [--resync SECONDS] [--actor observer|every]\n"
	      "                  [--slurm-conf FILE] [--dry-run] [-v] [-h]\n", out);
}

static int fs_parse(struct fs_state *st, int argc, char **argv, const char **conf)
{
	static const struct option opts[] = {
		{ "on-leave", required_argument, NULL, 'l' },
		{ "on-expel", required_argument, NULL, 'e' },
		{ "resume", required_argument, NULL, 'r' },
		{ "resync", required_argument, NULL, 's' },
		{ "actor", required_argument, NULL, 'a' },
		{ "slurm-conf", required_argument, NULL, 'f' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	uint32_t v;
	int c;

	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (!strcmp(optarg, "drain"))
				st->policy.on_leave = FS_LEAVE_DRAIN;
			else if (!strcmp(optarg, "down"))
				st->policy.on_leave = FS_LEAVE_DOWN;
			else if (!strcmp(optarg, "ignore"))
				st->policy.on_leave = FS_LEAVE_IGNORE;
			else
				goto bad;
			break;
		case 'e':
			if (!strcmp(optarg, "drain"))
				st->policy.on_expel = FS_EXPEL_DRAIN;
			else if (!strcmp(optarg, "down"))
				st->policy.on_expel = FS_EXPEL_DOWN;
			else if (!strcmp(optarg, "ignore"))
				st->policy.on_expel = FS_EXPEL_IGNORE;
			else
				goto bad;
			break;
		case 'r':
			if (!strcmp(optarg, "never"))
				st->policy.resume_alive = false;
			else if (!strcmp(optarg, "alive"))
				st->policy.resume_alive = true;
			else
				goto bad;
			break;
		case 's':
			if (ftnl_parse_u32(optarg, &v) || v > 86400)
				goto bad;
			st->resync_s = v;
			break;
		case 'a':
			if (!strcmp(optarg, "observer"))
				st->policy.actor = FS_ACTOR_OBSERVER;
			else if (!strcmp(optarg, "every"))
				st->policy.actor = FS_ACTOR_EVERY;
			else
				goto bad;
			break;
		case 'f':
			*conf = optarg;
			break;
		case 'n':
			st->dry_run = true;
			break;
		case 'v':
			st->verbose++;
			break;
		case 'h':
			fs_usage(stdout);
			exit(0);
		default:
			fs_usage(stderr);
			return -1;
		}
	}
	if (optind != argc) {
		fs_log("unexpected argument: %s", argv[optind]);
		fs_usage(stderr);
		return -1;
	}
	return 0;
bad:
	fs_log("--%s: invalid value '%s'", c == 'l' ? "on-leave" : c == 'e' ? "on-expel" :
	       c == 'r' ? "resume" :
	       c == 's' ? "resync (0 to 86400 seconds)" : "actor", optarg);
	return -1;
}

int main(int argc, char **argv)
{
	static struct fs_state st = {
		.policy = { .on_leave = FS_LEAVE_DRAIN, .actor = FS_ACTOR_OBSERVER },
		.resync_s = 30,
	};
	static struct fs_sender sender;
	bool sending = false;
	const char *conf = NULL;
	struct pollfd fds[2];
	sigset_t mask;
	int err, sfd, rc = 1;

	setvbuf(stderr, NULL, _IOLBF, 0);
	if (fs_parse(&st, argc, argv, &conf))
		return 2;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		fs_log("signalfd: %s", strerror(errno));
		return 1;
	}
	/* Subscribe first, then read the state: nothing falls in between. */
	err = ftnl_events_open(&st.events);
	if (!err)
		err = ftnl_open(&st.handle);
	if (err) {
		fs_log("ftnl: %s%s", strerror(-err),
		       err == -ENOENT ? " (is the ftnl module loaded?)" : "");
		goto out;
	}
	if (!st.dry_run)
		fs_slurm_open(conf);
	st.sender = &sender;
	sender.policy = st.policy;
	sender.dry_run = st.dry_run;
	sender.verbose = st.verbose;
	err = fs_sender_start(&sender);
	if (err) {
		fs_log("starting the sending thread: %s", strerror(err));
		goto out;
	}
	sending = true;
	if (fs_refresh(&st))
		goto out;
	fs_log("started: self %" PRIu32 " of %zu nodes; on leave %s; on expel %s; resume %s; "
	       "actor %s%s", st.self_id, st.table.count,
	       st.policy.on_leave == FS_LEAVE_DRAIN ? "drain" :
	       st.policy.on_leave == FS_LEAVE_DOWN ? "down" : "ignore",
	       st.policy.on_expel == FS_EXPEL_DRAIN ? "drain" :
	       st.policy.on_expel == FS_EXPEL_DOWN ? "down" : "ignore",
	       st.policy.resume_alive ? "alive" : "never",
	       st.policy.actor == FS_ACTOR_EVERY ? "every" : "observer",
	       st.dry_run ? " (dry run)" : "");
	/* Whatever ftnl already knows, once (a restart of ftnl-slurm). */
	fs_reconcile(&st);
	fs_self_check(&st);
	if (st.policy.resume_alive)
		st.next_resync_ms = fs_now_ms();

	fds[0] = (struct pollfd){ .fd = ftnl_events_fd(st.events), .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	for (;;) {
		int n = poll(fds, 2, fs_timeout(&st));

		if (n < 0 && errno != EINTR) {
			fs_log("poll: %s", strerror(errno));
			goto out;
		}
		if (n > 0 && (fds[1].revents & POLLIN)) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo != SIGHUP) {
					fs_log("stopping (signal %u)", si.ssi_signo);
					rc = 0;
					goto out;
				}
				fs_log("SIGHUP: reconciling with ftnl's table");
				if (fs_refresh(&st) == 0) {
					fs_reconcile(&st);
					fs_self_check(&st);
				}
				if (st.policy.resume_alive)
					st.next_resync_ms = fs_now_ms();
			}
		}
		if (n > 0 && fds[0].revents) {
			err = fs_drain_events(&st);
			if (err < 0) {
				fs_log("reading ftnl events: %s", strerror(-err));
				goto out;
			}
		}
		if (st.next_resync_ms && st.next_resync_ms <= fs_now_ms())
			fs_resync(&st);
		if (st.next_selfcheck_ms && st.next_selfcheck_ms <= fs_now_ms() &&
		    fs_refresh(&st) == 0)
			fs_self_check(&st);
	}
out:
	if (sending)
		fs_sender_stop(&sender);
	if (!st.dry_run)
		fs_slurm_close();
	ftnl_events_close(st.events);
	ftnl_close(st.handle);
	ftnl_node_table_free(&st.table);
	free(st.members);
	close(sfd);
	return rc;
}
