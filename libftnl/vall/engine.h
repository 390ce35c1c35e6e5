/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The validate-all consensus engine (Buntinas, "Scalable Distributed
 * Consensus to Support MPI Fault Tolerance", IPDPS'12, section 4): the
 * reliable tree broadcast of Figure 1 carrying a three-phase commit
 * (BALLOTING, COMMIT, ALL_COMMIT; strict semantics) or a two-phase one
 * (loose semantics, section 4.3). One struct vall_group per process per
 * group, driven by the same three events as ERA (libftnl/era/engine.h) -
 * the local process calls the operation, a message arrives, the perfect
 * failure detector reports a dead rank - and answering with actions:
 * messages to send and returns. No I/O, no threads, no clocks, no global
 * state; all memory is allocated at creation.
 *
 * Operations are numbered 1, 2, 3... in the order every member calls
 * them. Up to @window may be in flight; each is an independent instance of
 * the algorithm. A process keeps serving an operation's protocol messages
 * after it returned it (the paper: "every process must continue to handle
 * protocol messages after returning").
 *
 * The decided value is the root's ballot (the set of failed ranks, via
 * op->add_dead and op->is_dead) combined with F (op->combine) with the
 * contribution of every process that accepted it: the votes' logical AND
 * of the paper, extended to F, so that ULFM agree's flag and acknowledged
 * set travel with the ballot. Documentation/validate-all.rst maps every
 * guarded action of Figure 1 to its function here.
 */
#ifndef FTNL_VALL_ENGINE_H
#define FTNL_VALL_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "era/engine.h"
#include "era/op.h"
#include "vall/msg.h"

#define VALL_NO_RANK UINT32_MAX

enum vall_semantics {
	VALL_STRICT = 0,	/* three phases: uniform (section 4.2) */
	VALL_LOOSE,		/* two phases: survivors agree (section 4.3) */
};

/*
 * Other readings of the paper's text, for tests only: each one the
 * simulator refutes (Documentation/validate-all.rst). Never set outside
 * tests.
 */
enum vall_quirk {
	/*
	 * "A number larger than any broadcast number it has seen" as a
	 * plain counter: a new root may pick a number below a dead root's
	 * last one, whose stale COMMIT_BCAST then wins.
	 */
	VALL_QUIRK_PLAIN_BCAST_NUM = 1 << 0,
	/* Loose: "the acknowledgment of the COMMIT_BCAST ... omitted" read
	 * as no ACK at all: nobody can tell the broadcast must be redone. */
	VALL_QUIRK_LOOSE_NO_COMMIT_ACK = 1 << 1,
};

/**
 * struct vall_config - one group, as seen by one of its members
 * @group: id carried by every message; others are dropped
 * @nranks: members, ranks 0..nranks-1
 * @self: this process's rank
 * @op: the value algebra; needs add_dead and is_dead; must outlive the
 *	group
 * @semantics: enum vall_semantics
 * @window: operations in flight, >= 1 (0 means 1)
 * @quirks: enum vall_quirk, tests only
 * @alloc: NULL: malloc()/free()
 */
struct vall_config {
	uint64_t group;
	uint32_t nranks;
	uint32_t self;
	const struct era_op *op;
	enum vall_semantics semantics;
	uint32_t window;
	uint32_t quirks;
	const struct era_alloc *alloc;
};

/**
 * struct vall_sink - where the engine's actions go, during the call only
 * @send: send @msg to rank @to (encode it with vall_msg_encode(); @msg,
 *	its descendant set and its value are valid only during the call)
 * @decided: operation @id returns locally with @value (op->value_size
 *	bytes, valid during the call): strict, on ALL_COMMIT; loose, on
 *	COMMIT. Once per operation.
 * @ctx: passed back
 *
 * Callbacks must not call into the engine.
 */
struct vall_sink {
	void (*send)(void *ctx, uint32_t to, const struct vall_msg *msg);
	void (*decided)(void *ctx, uint64_t id, const void *value);
	void *ctx;
};

/**
 * struct vall_stats - counters, for diagnostics and tests
 * @sent: messages sent, by type (index enum vall_msg_type)
 * @received: messages processed, by type
 * @from_dead: messages dropped: their sender is known dead
 * @stale: messages of an operation every live member has returned
 * @ignored: ACKs and NAKs of another broadcast, or not awaited (Figure 1
 *	ignores them)
 * @nak_bcast: broadcasts NAKed by rule (6): number not higher
 * @broadcasts: broadcasts started as root, by kind (index: the BCAST
 *	type)
 * @ballots_rejected: ballots a root saw rejected or NAKed
 * @forced: commits adopted by a root from a FORCED_NAK
 * @commit_changed: a committed ballot replaced by a different one
 * @errors: protocol violations (ids out of window, foreign group...)
 */
struct vall_stats {
	uint64_t sent[VALL_MSG_NTYPES];
	uint64_t received[VALL_MSG_NTYPES];
	uint64_t from_dead;
	uint64_t stale;
	uint64_t ignored;
	uint64_t nak_bcast;
	uint64_t broadcasts[4];
	uint64_t ballots_rejected;
	uint64_t forced;
	uint64_t commit_changed;
	uint64_t errors;
};

struct vall_group;

/* Return: 0, -EINVAL (bad config) or -ENOMEM. */
int vall_group_create(const struct vall_config *cfg, struct vall_group **group);
void vall_group_destroy(struct vall_group *group);

/*
 * The process calls operation @id (the last started + 1) contributing
 * @value. Return: 0; -EINVAL (wrong id); -EBUSY (id - window has not
 * returned yet); -ESTALE (a decision listed this process as failed).
 */
int vall_start(struct vall_group *group, uint64_t id, const void *value,
	       const struct vall_sink *out);

/*
 * Message @msg from rank @from. Return: 0 (also when dropped as stale or
 * ignored), -EINVAL (bad rank, foreign group, malformed) or -ERANGE
 * (operation id outside the window: the peer breaks the protocol).
 */
int vall_on_message(struct vall_group *group, uint32_t from,
		    const struct vall_msg *msg, const struct vall_sink *out);

/* The failure detector reports @rank dead. Return: 0 or -EINVAL. */
int vall_on_failure(struct vall_group *group, uint32_t rank,
		    const struct vall_sink *out);

/*
 * The returned value of @id into @value (may be NULL). Return: 1
 * returned, 0 not yet, -ENOENT unknown or forgotten.
 */
int vall_result(const struct vall_group *group, uint64_t id, void *value);

/* Every operation <= this one has returned locally. */
uint64_t vall_returned_upto(const struct vall_group *group);
bool vall_is_dead(const struct vall_group *group, uint32_t rank);
void vall_get_stats(const struct vall_group *group, struct vall_stats *stats);

/*
 * Figure 1's compute_children over the descendant set @desc (a bitmap of
 * @nranks bits): the children, in the order chosen, into @children (room
 * for @nranks). Each is the remaining descendant closest to the median,
 * which gives a binomial tree; child i's descendants are then the
 * members of @desc between children[i] and children[i - 1] (exclusive;
 * children[-1] is +infinity): vall_child_desc(). Return: how many.
 */
uint32_t vall_compute_children(const uint64_t *desc, uint32_t nranks,
			       uint32_t *children);
void vall_child_desc(const uint64_t *desc, uint32_t nranks,
		     const uint32_t *children, uint32_t i, uint64_t *out);

#endif /* FTNL_VALL_ENGINE_H */
