/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftnl/group internals: the group object shared by group.c (open,
 * progress, failures), view.c (one ERA engine per membership view, message
 * demultiplexing) and request.c (agree, iagree, shrink).
 *
 * Locking: every entry point takes @lock; the progress thread, when there
 * is one, takes it to dispatch. Engine callbacks and transport/detector
 * callbacks run with it held.
 *
 * Deaths are applied in two steps because they are learned inside the
 * transport's and detector's own callbacks: grp_mark_dead() records them,
 * grp_settle_engines() (safe anywhere but inside an engine call) feeds the
 * engines, and grp_settle() (only outside any transport or detector
 * callback) also tells the transport and frees the views nobody needs.
 */
#ifndef FTNL_GROUP_CORE_H
#define FTNL_GROUP_CORE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <ftnl/group.h>

#include "era/engine.h"
#include "era/ulfm.h"
#include "group/joinmsg.h"
#include "group/joinop.h"
#include "vall/engine.h"

struct grp_transport;
struct grp_detector;

/* ERA's own bound on agreements in flight (era/engine.c). */
#define GRP_MAX_WINDOW		1024
#define GRP_DEFAULT_WINDOW	16

/**
 * struct grp_view - one membership view and its consensus engine
 * @group: the owner
 * @older: the previous view still kept (serving slow peers), or NULL
 * @id: 0, then +1 per shrink or grow
 * @era_id: the ERA group id of its messages, a mix of (job, @id)
 * @size: members
 * @self: this process's index in @members
 * @members: world ranks, increasing
 * @incs: the incarnation of each member
 * @jop: the value op: ULFM over view ranks and the joiners (its priv
 *	points here: no moving); @jop.ulfm for the era_ulfm_*() accessors
 * @era: the ERA engine (FTNL_GROUP_ENGINE_ERA), else NULL
 * @sink: where @era's actions go (ctx: this view)
 * @vall: the validate-all engine (the other engines), else NULL
 * @vsink: where @vall's actions go (ctx: this view)
 * @rx_desc: a decoded validate-all message's descendant set
 * @started: the last agreement id started here
 * @rx_value: a decoded message's value
 * @contribution: the value being contributed
 */
struct grp_view {
	struct ftnl_group *group;
	struct grp_view *older;
	uint64_t id;
	uint64_t era_id;
	uint32_t size;
	uint32_t self;
	uint32_t *members;
	uint32_t *incs;
	struct grp_join_op jop;
	struct era_group *era;
	struct era_sink sink;
	struct vall_group *vall;
	struct vall_sink vsink;
	uint64_t *rx_desc;
	uint64_t started;
	void *rx_value;
	void *contribution;
};

/**
 * struct ftnl_group_req - one agreement started by this process
 * @group: the owner; NULL once the group is closed
 * @next: in the group's list of requests not decided yet
 * @view: the view it runs in, while not decided
 * @id: agreement id in @view
 * @done: decided (or cancelled by close)
 * @orphan: freed by the caller before completion: freed when decided
 * @result: 0, -FTNL_EPROCFAILED, -ESTALE or -ECANCELED
 * @flag: the agreed flag
 * @value: if not NULL, receives the whole decided value (shrink)
 */
struct ftnl_group_req {
	struct ftnl_group *group;
	struct ftnl_group_req *next;
	struct grp_view *view;
	uint64_t id;
	bool done;
	bool orphan;
	int result;
	uint64_t flag;
	void *value;
};

/* A message for the next view, received before this process reached it. */
struct grp_early_msg {
	struct grp_early_msg *next;
	uint32_t from;
	size_t len;
	uint8_t bytes[];
};

/**
 * struct ftnl_group - one process's membership in a group
 * @spec: our deep copy of the caller's spec
 * @attr: the caller's attributes, defaults applied
 * @epfd: the epoll instance everything waits in (ftnl_group_fd())
 * @transport: TCP to the other ranks
 * @detector: the failure sources
 * @dead: world ranks whose latest known incarnation is dead
 * @dead_inc: per world rank, the highest incarnation known dead (0: none)
 * @acked: world ranks acknowledged dead (ftnl_group_failure_ack())
 * @acked_inc: per world rank, the incarnation acknowledged dead (0: none)
 * @to_engines: dead ranks the engines were not told of yet
 * @to_transport: dead ranks the transport was not told of yet
 * @view: the current view; older ones kept follow ->older
 * @free_below: views with a smaller id can be freed
 * @pending: requests not decided yet
 * @early: messages of the next view, in arrival order; @early_tail
 *	its end, @early_bytes their size
 * @inc: this process's incarnation (>= 1)
 * @incs: per world rank, the latest incarnation heard of (1 at first)
 * @join_inc: per world rank, the incarnation of a pending join request
 *	(0: none): contributed to the next grow, dropped once let in
 * @joining: this process asked to join and is not in a view yet
 * @asked: this process asked to join (ftnl_group_join_start())
 * @welcomed: its first view came; the view callback has not run yet
 * @rx_members: a decoded WELCOME's members (world size entries)
 * @rx_incs: their incarnations (world size entries)
 * @stale: a decision listed this process dead: it must leave
 * @fatal: a negative errno once the group is unusable
 * @txbuf: one encoded message, @txcap bytes
 * @agreements: decisions taken here (stats)
 * @msgs_sent: ERA messages handed to the transport
 * @msgs_received: ERA messages received
 * @dropped: messages refused (malformed, foreign, protocol errors)
 * @view_cb: ftnl_group_on_view_change(), with @view_cb_arg
 * @lock: taken by every entry point and the progress thread
 * @progressed: signalled by the progress thread after each round
 * @threaded: the progress thread runs
 * @thread: the progress thread
 * @stop_fd: an eventfd that tells the progress thread to end
 */
struct ftnl_group {
	struct ftnl_group_spec spec;
	struct ftnl_group_attr attr;
	int epfd;
	struct grp_transport *transport;
	struct grp_detector *detector;

	uint64_t *dead;
	uint32_t *dead_inc;
	uint64_t *acked;
	uint32_t *acked_inc;
	uint64_t *to_engines;
	uint64_t *to_transport;

	struct grp_view *view;
	uint64_t free_below;
	struct ftnl_group_req *pending;
	struct grp_early_msg *early, **early_tail;
	size_t early_bytes;
	uint32_t inc;
	uint32_t *incs;
	uint32_t *join_inc;
	bool joining;
	bool asked;
	bool welcomed;
	uint32_t *rx_members;
	uint32_t *rx_incs;
	bool stale;
	int fatal;

	uint8_t *txbuf;
	size_t txcap;

	uint64_t agreements;
	uint64_t msgs_sent;
	uint64_t msgs_received;
	uint64_t dropped;

	ftnl_view_cb view_cb;
	void *view_cb_arg;

	pthread_mutex_t lock;
	pthread_cond_t progressed;
	bool threaded;
	pthread_t thread;
	int stop_fd;
};

/* group.c */
/* Incarnation @inc of @rank is dead (0: the latest known); older ones too. */
void grp_mark_dead(struct ftnl_group *g, uint32_t rank, uint32_t inc);
/* Whether incarnation @inc of @rank is known dead. */
bool grp_is_dead_inc(const struct ftnl_group *g, uint32_t rank, uint32_t inc);
void grp_settle_engines(struct ftnl_group *g);
void grp_settle(struct ftnl_group *g);
int grp_progress_locked(struct ftnl_group *g);
int grp_wait_locked(struct ftnl_group *g);

/* view.c */
uint64_t grp_era_id(uint64_t job, uint64_t view_id);
/* @incs: each member's incarnation, or NULL for 1 each. */
int grp_view_create(struct ftnl_group *g, uint64_t id,
		    const uint32_t *members, const uint32_t *incs,
		    uint32_t size, struct grp_view **out);
void grp_view_destroy(struct grp_view *v);
/* The view's engine, whichever it is: start, failure, returned. */
int grp_view_start(struct grp_view *v, uint64_t id, const void *value);
void grp_view_failure(struct grp_view *v, uint32_t rank);
uint64_t grp_view_returned(const struct grp_view *v);
/* @v's index of world rank @rank, or UINT32_MAX if not a member. */
uint32_t grp_view_rank(const struct grp_view *v, uint32_t rank);
void grp_on_frame(void *ctx, uint32_t from, const uint8_t *buf, size_t len);
/* Feed the buffered messages of the new current view; drop the rest. */
void grp_replay_early(struct ftnl_group *g);
void grp_free_early(struct ftnl_group *g);

/* join.c */
/* Incarnation @inc of @rank runs: older ones are dead, the rank lives. */
void grp_new_incarnation(struct ftnl_group *g, uint32_t rank, uint32_t inc);
int grp_join_frame(struct ftnl_group *g, uint32_t from, const uint8_t *buf,
		   size_t len);
void grp_welcome(struct ftnl_group *g, const struct grp_view *v,
		 uint32_t rank);

/* request.c */
void grp_req_complete(struct grp_view *v, uint64_t id, const void *value);
void grp_cancel_requests(struct ftnl_group *g);
void grp_fill_view(const struct grp_view *v, struct ftnl_view *out);

#endif /* FTNL_GROUP_CORE_H */
