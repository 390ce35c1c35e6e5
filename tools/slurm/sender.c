// SPDX-License-Identifier: GPL-2.0
/*
 * sender.c - ftnl-slurm's sending thread (sender.h). It sleeps on a
 * condition variable until an update is queued or a retry is due: no
 * polling. libslurm is called from this thread only.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "sender.h"
#include "slurmctl.h"

/* A resync slurmctld did not answer is tried again this much later. */
#define FS_RESYNC_RETRY_MS 2000

static double fs_ms(uint64_t from_ns, uint64_t to_ns)
{
	return to_ns > from_ns ? (to_ns - from_ns) / 1e6 : 0.0;
}

/* Does @u change anything for a node Slurm has in state @node? */
static bool fs_update_wanted(const struct fs_update *u, const struct fs_slurm_node *node)
{
	if (u->about_self && u->op == FS_OP_RESUME)
		return fs_expel_resume_wanted(u->incarnation, node);
	return fs_needs_update(u->op, node);
}

/*
 * Sends @u. Return: 0 when done with it (sent, skipped, or given up),
 * else the monotonic time to try again.
 */
static uint64_t fs_send(struct fs_sender *s, const struct fs_update *u, bool minority)
{
	struct fs_slurm_state state;
	uint64_t sent_ns, read_ns, done_ns;
	bool read_first;
	int err;

	if (s->dry_run) {
		fs_log("%s: would set %s: %s", u->name, fs_op_name(u->op), u->reason);
		return 0;
	}
	/* A node that sees fewer than half alive is likely cut off (hence
	 * the failed sends): it drops its report. */
	if (fs_retry_dropped(u->op, u->attempts, minority, u->about_self)) {
		fs_log("%s: DOWN dropped: slurmctld was not reached and this node now sees "
		       "fewer than half the cluster alive: it may be the one cut off", u->name);
		return 0;
	}
	if (s->verbose)
		fs_log("%s: sending %s to slurmctld (attempt %u)", u->name, fs_op_name(u->op),
		       u->attempts + 1);
	sent_ns = fs_real_ns();
	read_first = u->verify || u->about_self || fs_read_first(&s->policy, u->op);
	err = read_first ? fs_slurm_get(u->name, &state) : 0;
	read_ns = fs_real_ns();
	if (!err && read_first && !fs_update_wanted(u, &state.node)) {
		if (s->verbose || u->op != FS_OP_RESUME)
			fs_log("%s: already %s in Slurm (\"%s\"): %s not sent", u->name,
			       state.state_name, state.reason, fs_op_name(u->op));
		return 0;
	}
	if (!err)
		err = fs_slurm_update(u->name, u->op, u->op == FS_OP_RESUME ? NULL : u->reason);
	done_ns = fs_real_ns();
	if (s->verbose)
		fs_log("%s: reading its Slurm state took %.1f ms, the update %.1f ms", u->name,
		       fs_ms(sent_ns, read_ns), fs_ms(read_ns, done_ns));
	if (!err) {
		if (!u->learned_real_ns) {
			fs_log("%s: %s in Slurm", u->name, fs_op_name(u->op));
			return 0;
		}
		fs_log("%s: %s in Slurm (%s), %.1f ms after ftnl learned it", u->name,
		       fs_op_name(u->op), u->reason, fs_ms(u->learned_real_ns, done_ns));
		/* Where the time went, on CLOCK_REALTIME (the clock of ftnl's
		 * events and of slurmctld's log). */
		if (s->verbose)
			fs_log("%s: timeline: ftnl learned it at %.6f, read +%.1f ms, "
			       "queued +%.1f ms, sent +%.1f ms, answered +%.1f ms", u->name,
			       u->learned_real_ns / 1e9,
			       fs_ms(u->learned_real_ns, u->read_real_ns),
			       fs_ms(u->learned_real_ns, u->queued_real_ns),
			       fs_ms(u->learned_real_ns, sent_ns),
			       fs_ms(u->learned_real_ns, done_ns));
		return 0;
	}
	if (!fs_error_is_transient(err)) {
		fs_log("%s: setting %s failed: %s (not retried)", u->name, fs_op_name(u->op),
		       fs_slurm_strerror(err));
		return 0;
	}
	fs_log("%s: slurmctld not reached (%s): %s retried in %u ms", u->name,
	       fs_slurm_strerror(err), fs_op_name(u->op), fs_backoff_ms(u->attempts + 1));
	return fs_now_ms() + fs_backoff_ms(u->attempts + 1);
}

struct fs_resync_ctx {
	struct fs_sender *s;
	struct fs_alive *alive;
	size_t count;
};

static int fs_resync_node(const char *name, const struct fs_slurm_state *state, void *arg)
{
	struct fs_resync_ctx *ctx = arg;
	struct fs_update u = { .op = FS_OP_RESUME, .verify = true };
	size_t i;

	for (i = 0; i < ctx->count; i++) {
		if (strcmp(ctx->alive[i].name, name))
			continue;
		if (!fs_resume_wanted(ctx->alive[i].incarnation, &state->node))
			break;
		fs_log("%s: alive in ftnl again, %s in Slurm (\"%s\"): resuming",
		       name, state->state_name, state->reason);
		snprintf(u.name, sizeof(u.name), "%s", name);
		u.queued_real_ns = fs_real_ns();
		fs_sender_put(ctx->s, &u);
		break;
	}
	return 0;
}

/* Return: true if slurmctld was not reached (to try again). */
static bool fs_resync_run(struct fs_sender *s, struct fs_alive *alive, size_t count)
{
	struct fs_resync_ctx ctx = { .s = s, .alive = alive, .count = count };
	int err;

	if (s->dry_run)
		return false;
	err = fs_slurm_each(fs_resync_node, &ctx);
	if (!err)
		return false;
	fs_log("resync: reading Slurm's nodes: %s%s", fs_slurm_strerror(err),
	       fs_error_is_transient(err) ? " (retrying)" : "");
	return fs_error_is_transient(err);
}

static void fs_deadline(struct timespec *ts, uint64_t due_ms)
{
	ts->tv_sec = due_ms / 1000;
	ts->tv_nsec = (long)(due_ms % 1000) * 1000000;
}

static void *fs_sender_main(void *arg)
{
	struct fs_sender *s = arg;

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		uint64_t now = fs_now_ms(), due = 0, retry;
		struct fs_update u;
		bool have_due, minority;

		if (s->resync_pending && s->resync_due_ms <= now) {
			struct fs_alive *alive = s->resync_alive;
			size_t count = s->resync_count;

			s->resync_pending = false;
			s->resync_alive = NULL;
			pthread_mutex_unlock(&s->lock);
			retry = fs_resync_run(s, alive, count);
			pthread_mutex_lock(&s->lock);
			if (retry && !s->resync_pending) {
				/* Nothing newer came meanwhile: this one again. */
				s->resync_pending = true;
				s->resync_due_ms = fs_now_ms() + FS_RESYNC_RETRY_MS;
				s->resync_alive = alive;
				s->resync_count = count;
			} else {
				free(alive);
			}
			continue;
		}
		if (fs_queue_take(&s->queue, now, &u)) {
			minority = s->minority;
			pthread_mutex_unlock(&s->lock);
			retry = fs_send(s, &u, minority);
			pthread_mutex_lock(&s->lock);
			fs_queue_done(&s->queue, u.name, retry);
			continue;
		}
		have_due = fs_queue_next_due(&s->queue, &due);
		if (s->resync_pending && (!have_due || s->resync_due_ms < due)) {
			due = s->resync_due_ms;
			have_due = true;
		}
		if (have_due) {
			struct timespec ts;

			fs_deadline(&ts, due);
			pthread_cond_timedwait(&s->wake, &s->lock, &ts);
		} else {
			pthread_cond_wait(&s->wake, &s->lock);
		}
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

int fs_sender_start(struct fs_sender *s)
{
	pthread_condattr_t attr;
	int err;

	err = pthread_mutex_init(&s->lock, NULL);
	if (err)
		return err;
	err = pthread_condattr_init(&attr);
	if (!err) {
		/* Deadlines are fs_now_ms()'s, a wall-clock step moves none. */
		err = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
		if (!err)
			err = pthread_cond_init(&s->wake, &attr);
		pthread_condattr_destroy(&attr);
	}
	if (err) {
		pthread_mutex_destroy(&s->lock);
		return err;
	}
	err = pthread_create(&s->thread, NULL, fs_sender_main, s);
	if (err) {
		pthread_cond_destroy(&s->wake);
		pthread_mutex_destroy(&s->lock);
	}
	return err;
}

void fs_sender_stop(struct fs_sender *s)
{
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	free(s->resync_alive);
	s->resync_alive = NULL;
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
}

void fs_sender_put(struct fs_sender *s, const struct fs_update *u)
{
	int err;

	pthread_mutex_lock(&s->lock);
	err = fs_queue_put(&s->queue, u, fs_now_ms());
	if (!err)
		pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	if (err)
		fs_log("%s: %d updates already wait for slurmctld: %s dropped",
		       u->name, FS_QUEUE_MAX, fs_op_name(u->op));
}

void fs_sender_set_minority(struct fs_sender *s, bool minority)
{
	pthread_mutex_lock(&s->lock);
	s->minority = minority;
	pthread_mutex_unlock(&s->lock);
}

void fs_sender_resync(struct fs_sender *s, struct fs_alive *alive, size_t count)
{
	pthread_mutex_lock(&s->lock);
	free(s->resync_alive);
	s->resync_alive = alive;
	s->resync_count = count;
	s->resync_pending = true;
	s->resync_due_ms = fs_now_ms();
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
}
