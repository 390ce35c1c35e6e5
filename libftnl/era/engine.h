/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Early Returning Agreement engine (Herault et al., "Practical Scalable
 * Consensus for Pseudo-Synchronous Distributed Systems", SC'15): one
 * struct era_group per process per group, driven by three events - the
 * local process starts an agreement, a message arrives, the perfect
 * failure detector reports a dead rank - and answering with actions:
 * messages to send and decisions. No I/O, no threads, no clocks, no global
 * state; memory comes from the caller's allocator, all of it at creation.
 *
 * Agreements are numbered 1, 2, 3... in the order every member starts
 * them (an MPI-style call counter). Up to @window of them may be in flight
 * (non-blocking iagree): agreement b can start once b - window has
 * returned locally. A decision is returned early, as soon as it is known,
 * and stays served to any peer that asks until every member has returned
 * it (garbage collection by the agreed range of returned ids, paper
 * section 4).
 *
 * Mapping to the paper (ERA Parts 1-4) and the few rules the extracted
 * text does not give literally: see Documentation/era.rst.
 */
#ifndef FTNL_ERA_ENGINE_H
#define FTNL_ERA_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"
#include "op.h"

#define ERA_NO_RANK UINT32_MAX

enum era_topology {
	ERA_TOPO_BINARY = 0,	/* the default */
	ERA_TOPO_STAR,
	ERA_TOPO_STRING,
	ERA_TOPO_HIER,		/* X/Y: see inter, intra and host_of */
};

/*
 * Other readings of the paper's extracted text, for tests only: each one
 * the simulator refuted, except PARENT_TRIGGER, which holds but sends more
 * (Documentation/era.rst, "Reconstructed rules"). Never set outside tests.
 */
enum era_quirk {
	/* DOWN accepted only from Parent(S, p), as the extracted text reads */
	ERA_QUIRK_DOWN_FROM_PARENT = 1 << 0,
	/* DOWN accepted from anyone (no "awaited sender" check) */
	ERA_QUIRK_DOWN_FROM_ANYONE = 1 << 1,
	/* an UP sender is not remembered as waiting for the decision */
	ERA_QUIRK_UP_NOT_REQUESTER = 1 << 2,
	/* messages of ranks already known dead are processed */
	ERA_QUIRK_HEAR_THE_DEAD = 1 << 3,
	/* Part 4 resends when Parent(S', p) died, not the awaited sender */
	ERA_QUIRK_PARENT_TRIGGER = 1 << 4,
	/* a RESULT_REQUEST from q marks only the ranks before q dead */
	ERA_QUIRK_ELDERS_ONLY = 1 << 5,
};

/**
 * struct era_alloc - the caller's allocator
 * @alloc: like malloc(); may return NULL
 * @free: release what @alloc returned (@size as asked)
 * @ctx: passed back
 */
struct era_alloc {
	void *(*alloc)(void *ctx, size_t size);
	void (*free)(void *ctx, void *ptr, size_t size);
	void *ctx;
};

/**
 * struct era_config - one group, as seen by one of its members
 * @group: id carried by every message; others are dropped
 * @nranks: members, ranks 0..nranks-1
 * @self: this process's rank
 * @op: the value algebra; must outlive the group
 * @topo: tree shape
 * @inter: ERA_TOPO_HIER: the shape between hosts (binary, star, string)
 * @intra: ERA_TOPO_HIER: the shape inside a host
 * @host_of: ERA_TOPO_HIER: host of each rank, each < nranks (copied)
 * @window: agreements in flight, >= 1 (0 means 1)
 * @rebalance: build the tree of agreement b over the ranks not listed dead
 *	by the decision of agreement b - window (needs op->is_dead); every
 *	member then uses the same tree for b (paper section 4, "Topology
 *	Deterioration Mitigation")
 * @quirks: enum era_quirk, tests only
 * @alloc: NULL: malloc()/free()
 */
struct era_config {
	uint64_t group;
	uint32_t nranks;
	uint32_t self;
	const struct era_op *op;
	enum era_topology topo;
	enum era_topology inter;
	enum era_topology intra;
	const uint32_t *host_of;
	uint32_t window;
	bool rebalance;
	uint32_t quirks;
	const struct era_alloc *alloc;
};

/**
 * struct era_sink - where the engine's actions go, during the call only
 * @send: send @msg to rank @to (encode it with era_msg_encode(); @msg and
 *	its value are valid only during the call)
 * @decided: agreement @id is decided with @value (op->value_size bytes,
 *	valid only during the call): the Decision procedure ran, and the
 *	local Agreement call returns now - ERA returns early, so this is
 *	also the "returned" event. It comes once per agreement, before the
 *	DOWN messages that forward the decision.
 * @ctx: passed back
 *
 * Callbacks must not call into the engine.
 */
struct era_sink {
	void (*send)(void *ctx, uint32_t to, const struct era_msg *msg);
	void (*decided)(void *ctx, uint64_t id, const void *value);
	void *ctx;
};

/**
 * struct era_stats - counters, for diagnostics and tests
 * @sent: messages sent, by type (index enum era_msg_type)
 * @received: messages processed, by type
 * @from_dead: messages dropped: their sender is known dead
 * @stale: messages dropped: agreement already collected
 * @down_ignored: DOWN messages not acted upon (duplicate, not awaited)
 * @inferred_dead: ranks marked dead without a detector report (a root's
 *	RESULT_REQUEST, or a decided value's failed set)
 * @collected: decided agreements garbage-collected
 * @errors: protocol violations (ids out of window, foreign group...)
 */
struct era_stats {
	uint64_t sent[4];
	uint64_t received[4];
	uint64_t from_dead;
	uint64_t stale;
	uint64_t down_ignored;
	uint64_t inferred_dead;
	uint64_t collected;
	uint64_t errors;
};

struct era_group;

/* Return: 0, -EINVAL (bad config) or -ENOMEM. */
int era_group_create(const struct era_config *cfg, struct era_group **group);
void era_group_destroy(struct era_group *group);

/*
 * The Agreement procedure: contribute @value to agreement @id, which must
 * be the last started id + 1. Return: 0; -EINVAL (wrong id); -EBUSY
 * (id - window has not returned yet); -ESTALE (a previous decision listed
 * this process as dead: it must leave the group).
 */
int era_start(struct era_group *group, uint64_t id, const void *value,
	      const struct era_sink *out);

/*
 * Message @msg from rank @from (the transport knows the peer). Return: 0
 * (also when the message is dropped as stale), -EINVAL (bad rank, foreign
 * group, malformed) or -ERANGE (agreement id outside the window: the peer
 * breaks the protocol).
 */
int era_on_message(struct era_group *group, uint32_t from,
		   const struct era_msg *msg, const struct era_sink *out);

/* The failure detector reports @rank dead. Return: 0 or -EINVAL. */
int era_on_failure(struct era_group *group, uint32_t rank,
		   const struct era_sink *out);

/*
 * The decision of @id into @value (may be NULL). Return: 1 decided, 0 not
 * yet, -ENOENT unknown or already collected.
 */
int era_result(const struct era_group *group, uint64_t id, void *value);

/* Every agreement <= this one has returned locally. */
uint64_t era_returned_upto(const struct era_group *group);
/* Every agreement <= this one is collected (returned by every member). */
uint64_t era_collected_upto(const struct era_group *group);
bool era_is_dead(const struct era_group *group, uint32_t rank);
/* Decided agreements still held (served to peers that ask). */
uint32_t era_held(const struct era_group *group);
void era_get_stats(const struct era_group *group, struct era_stats *stats);

#endif /* FTNL_ERA_ENGINE_H */
