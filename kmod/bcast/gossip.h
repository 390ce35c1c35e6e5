/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Corrected gossip, pure: the per-node state machines of Hoefler et al.,
 * "Corrected Gossip Algorithms for Fast Reliable Broadcast on Unreliable
 * Systems" (Appendix A), and the plain gossip baseline:
 *
 *   GOS  gossip until the global time T, nothing more
 *   OCG  gossip, then a fixed-length correction along the ring (Alg. 1)
 *   CCG  gossip, then a correction checked by the nearest g-nodes (Alg. 2)
 *   FCG  CCG plus a final round and SOS: all or none of the live nodes
 *        deliver despite up to f failures during the broadcast (Alg. 3)
 *
 * One struct ftnl_gossip_node per node and broadcast, in caller memory. No
 * allocation, no floating point, no recursion, no libc: the same file is
 * built into the module, the userspace tests and the simulator.
 *
 * Nodes are ranks 0..n-1 on a virtual ring that every node must order the
 * same way (the cluster's ring positions will do). Known-dead ranks need no
 * special handling: they are members that never answer, which the paper's
 * failure model covers (FCG withstands any number of failures before it
 * starts; Corollary 3).
 *
 * Time is a logical clock in "slots" of the LogP overhead O, as in the
 * paper's pseudo-code: sending one message costs the sender one slot, and a
 * message whose send ends at slot s is available to its receiver at slot
 * s + lat + 1 (lat = L / O), which is the clock the receiver adopts when the
 * message colors it. Slots are abstract: the simulator maps slot k to k * O
 * nanoseconds; a kernel driver maps them to its hrtimer clock from the
 * instant the node was colored. Correctness never depends on the mapping,
 * only latency does (the c-node timeout of FCG only ever triggers SOS, which
 * is always safe).
 *
 * Driving a node:
 *   ftnl_gossip_init() each node, ftnl_gossip_start() the root;
 *   on every message: ftnl_gossip_recv();
 *   whenever out.wake <= now (slots): ftnl_gossip_step(now), which sends at
 *   most one message (one port, one slot).
 * Both report in struct ftnl_gossip_out what to do: send out.msg to out.to,
 * deliver the data, and when to call ftnl_gossip_step() next. Calling
 * ftnl_gossip_step() early or spuriously is harmless.
 */
#ifndef _FTNL_BCAST_GOSSIP_H
#define _FTNL_BCAST_GOSSIP_H

#include <linux/ftnl.h>

#include "../compat.h"

/* The largest f of FCG (the uapi's); its messages carry up to f + 1 ranks. */
#define FTNL_GOSSIP_MAX_F	FTNL_FCG_F_MAX
#define FTNL_GOSSIP_MAX_KNOWN	(FTNL_GOSSIP_MAX_F + 1)

/* out.wake when only a message can make the node act again. */
#define FTNL_GOSSIP_NO_WAKE	((u32)~0U)

enum ftnl_gossip_algo {
	FTNL_GOSSIP_GOS,
	FTNL_GOSSIP_OCG,
	FTNL_GOSSIP_CCG,
	FTNL_GOSSIP_FCG,
	__FTNL_GOSSIP_ALGO_MAX,
};

enum ftnl_gossip_msg_type {
	FTNL_GOSSIP_MSG_GOSSIP = 1,	/* random push of the gossip phase */
	FTNL_GOSSIP_MSG_CORR,		/* OCG correction */
	FTNL_GOSSIP_MSG_FWD,		/* CCG/FCG correction sent to self + off */
	FTNL_GOSSIP_MSG_BWD,		/* CCG/FCG correction sent to self - off */
	FTNL_GOSSIP_MSG_SOS,		/* FCG SOS: everyone sends to everyone */
	__FTNL_GOSSIP_MSG_MAX,
};

/**
 * struct ftnl_gossip_msg - one message of a corrected-gossip broadcast
 * @type: enum ftnl_gossip_msg_type
 * @nknown: entries used in @known (FCG only, else 0)
 * @pad: zero
 * @time: the sender's clock when the send ended (slots)
 * @known: FCG: g-nodes the sender knows on the side it sends away from,
 *	nearest first (for FWD, g-nodes behind the sender; for BWD, ahead)
 *
 * The broadcast's identity (root, sequence) and the data travel beside it,
 * in the caller's datagram; the sender's rank is the datagram's sender.
 * On the wire only 8 + 4 * @nknown bytes are needed.
 */
struct ftnl_gossip_msg {
	u8 type;
	u8 nknown;
	u16 pad;
	u32 time;
	u32 known[FTNL_GOSSIP_MAX_KNOWN];
};

/**
 * struct ftnl_gossip_params - one broadcast's parameters, shared by all
 *	its nodes (and identical on all of them)
 * @n: ring size, ranks 0..n-1
 * @root: the rank that starts the broadcast
 * @lat: L / O rounded up: slots a message spends in flight
 * @gossip_end: T: gossip sends end before this clock
 * @corr_end: OCG: C, the clock at which the correction stops
 * @sos_timeout: FCG: slots a c-node waits for f + 1 g-nodes before SOS
 * @algo: enum ftnl_gossip_algo
 * @f: FCG: failures during the broadcast it tolerates (<= FTNL_GOSSIP_MAX_F)
 *
 * ftnl_gossip_params_init() fills in working values.
 */
struct ftnl_gossip_params {
	u32 n;
	u32 root;
	u32 lat;
	u32 gossip_end;
	u32 corr_end;
	u32 sos_timeout;
	u8 algo;
	u8 f;
};

enum ftnl_gossip_state {
	FTNL_GOSSIP_IDLE,	/* not colored yet */
	FTNL_GOSSIP_GOSSIPING,	/* a g-node in its gossip phase */
	FTNL_GOSSIP_CORRECTING,	/* a g-node in its correction phase */
	FTNL_GOSSIP_WAITING,	/* an FCG c-node waiting for f + 1 g-nodes */
	FTNL_GOSSIP_SOS,	/* FCG: sending SOS to every other rank */
	FTNL_GOSSIP_DONE,	/* exited: ignores every further message */
};

/* Correction directions, and the sides of the ring they sweep. */
enum {
	FTNL_GOSSIP_FWD,	/* towards self + 1, self + 2, ... ("ahead") */
	FTNL_GOSSIP_BWD,	/* towards self - 1, self - 2, ... ("behind") */
};

/**
 * struct ftnl_gossip_node - one node's state in one broadcast
 * @par: the broadcast's parameters (caller-owned, outlive the node)
 * @rng: xorshift64* state for gossip targets
 * @self: this node's rank
 * @time: logical clock (slots)
 * @wake: step() has nothing to do before this clock; FTNL_GOSSIP_NO_WAKE
 * @deadline: FCG c-node: the clock at which it gives up and sends SOS
 * @off: next sweep distance per direction (FTNL_GOSSIP_FWD/BWD)
 * @sos_next: next SOS distance
 * @state: enum ftnl_gossip_state
 * @gnode: colored by a gossip message (or the root)
 * @delivered: the data was handed to the caller
 * @running: sweeping in that direction (CCG s_>, s_<; FCG s_>, s_<)
 * @final: FCG final round in that direction (f_>, f_<)
 * @dir: the direction the next correction slot tries first
 * @nknown: entries in @known per side
 * @known: g-nodes heard of, per side, nearest first (at most f + 1 each):
 *	[FTNL_GOSSIP_FWD] ahead of this node (learned from BWD messages),
 *	[FTNL_GOSSIP_BWD] behind it (from FWD messages). An FCG c-node keeps
 *	the distinct g-nodes it heard of in [FTNL_GOSSIP_FWD].
 */
struct ftnl_gossip_node {
	const struct ftnl_gossip_params *par;
	u64 rng;
	u32 self;
	u32 time;
	u32 wake;
	u32 deadline;
	u32 off[2];
	u32 sos_next;
	u8 state;
	bool gnode;
	bool delivered;
	bool running[2];
	bool final[2];
	u8 dir;
	u8 nknown[2];
	u32 known[2][FTNL_GOSSIP_MAX_KNOWN];
};

/* What ftnl_gossip_recv() and ftnl_gossip_step() ask the caller to do. */
#define FTNL_GOSSIP_OUT_SEND	0x1	/* send @msg to rank @to */
#define FTNL_GOSSIP_OUT_DELIVER	0x2	/* hand the data up (once per node) */
#define FTNL_GOSSIP_OUT_DONE	0x4	/* the node exited the algorithm */
#define FTNL_GOSSIP_OUT_SOS	0x8	/* the node entered SOS (FCG) */
#define FTNL_GOSSIP_OUT_INVALID	0x10	/* the message was malformed: ignored */

/**
 * struct ftnl_gossip_out - actions of one call
 * @flags: FTNL_GOSSIP_OUT_*
 * @to: destination rank of @msg (with FTNL_GOSSIP_OUT_SEND)
 * @wake: call ftnl_gossip_step() at max(now, @wake); FTNL_GOSSIP_NO_WAKE:
 *	only a message can wake the node
 * @msg: the message to send (with FTNL_GOSSIP_OUT_SEND); its send takes the
 *	slot ending at @msg.time
 */
struct ftnl_gossip_out {
	u32 flags;
	u32 to;
	u32 wake;
	struct ftnl_gossip_msg msg;
};

void ftnl_gossip_params_init(struct ftnl_gossip_params *par, u8 algo, u32 n,
			     u32 root, u32 lat, u8 f);
u32 ftnl_gossip_default_gossip_end(u8 algo, u32 n, u32 lat);

void ftnl_gossip_init(struct ftnl_gossip_node *node,
		      const struct ftnl_gossip_params *par, u32 self, u64 seed);
void ftnl_gossip_start(struct ftnl_gossip_node *node,
		       struct ftnl_gossip_out *out);
void ftnl_gossip_recv(struct ftnl_gossip_node *node, u32 from,
		      const struct ftnl_gossip_msg *msg,
		      struct ftnl_gossip_out *out);
void ftnl_gossip_step(struct ftnl_gossip_node *node, u32 now,
		      struct ftnl_gossip_out *out);
bool ftnl_gossip_msg_valid(const struct ftnl_gossip_params *par,
			   const struct ftnl_gossip_msg *msg);

#endif /* _FTNL_BCAST_GOSSIP_H */
