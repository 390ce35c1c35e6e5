// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the fuzzers' seed corpus from the real encoders, so that every
 * seed is something a node actually sends:
 *
 *   seeds DIR    writes DIR/{wire,bcast,gossip,group,radix}/seed-*
 *
 * The gossip seeds are what one node receives during a whole FCG
 * broadcast among n nodes, from a small synchronous simulation of
 * kmod/bcast/gossip.c (every node, one message per slot, lat slots in
 * flight), so that the fuzzer starts deep inside the state machine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bcast/message.h"
#include "era/msg.h"
#include "era/ulfm.h"
#include "group/joinmsg.h"
#include "group/joinop.h"
#include "radix/msg.h"
#include "vall/msg.h"
#include "wire.h"

static const char *out_dir;

static void put_be16(u8 *p, u16 v) { ftnl_put_be16(p, v); }

static void write_seed(const char *target, const char *name, const u8 *buf,
		       size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", out_dir, target);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/seed-%s", out_dir, target, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void wire_seeds(void)
{
	struct ftnl_wire_hdr hdr = {
		.magic = FTNL_WIRE_MAGIC, .version = FTNL_PROTO_VERSION,
		.type = FTNL_MSG_HEARTBEAT, .payload_len = 0, .cluster_id = 42,
		.sender_id = 3, .dest_id = 4, .incarnation = 1700000000123ULL,
		.echo = 1700000000456ULL, .seq = 1,
	};
	u8 buf[FTNL_WIRE_HDR_LEN + 256];
	size_t len = FTNL_WIRE_HDR_LEN, i;

	ftnl_wire_hdr_encode(buf, &hdr);
	for (i = 0; i < 100; i++)	/* in order */
		buf[len++] = 1;
	write_seed("wire", "in-order", buf, len);

	len = FTNL_WIRE_HDR_LEN;
	hdr.type = FTNL_MSG_BCAST;
	hdr.payload_len = 120;
	ftnl_wire_hdr_encode(buf, &hdr);
	buf[len++] = 0xff;		/* absolute 1000 */
	for (i = 0; i < 7; i++)
		buf[len++] = 0;
	buf[len - 2] = 0x03;
	buf[len - 1] = 0xe8;
	const int8_t steps[] = { 5, -3, -1, 2, -63, -64, -65, 0, 70, -10, -10, 1 };
	for (i = 0; i < sizeof(steps); i++)
		buf[len++] = (u8)steps[i];
	write_seed("wire", "reordered", buf, len);

	/* A window started at 500: numbers just below it, then above. */
	len = FTNL_WIRE_HDR_LEN;
	hdr.type = FTNL_MSG_HEARTBEAT;
	hdr.payload_len = 0;
	hdr.seq = 500;
	ftnl_wire_hdr_encode(buf, &hdr);
	const int8_t started[] = { -1, 1, -1, -2, 0, 3, -2, -1, -63, -64,
				   -65, 64, -1, -60 };
	for (i = 0; i < sizeof(started); i++)
		buf[len++] = (u8)started[i];
	write_seed("wire", "started", buf, len);
}

static bool member_1_to_n(const void *ctx, u32 id)
{
	return id >= 1 && id <= *(const u32 *)ctx;
}

static void bcast_seed(const char *name, u32 npos, u8 overlay, u32 ndeaths,
		       u32 stride, bool proc)
{
	static u8 buf[6 + FTNL_WIRE_MAX_PAYLOAD];
	static unsigned long dead[FTNL_BCAST_MAX_POSITIONS / (8 * sizeof(long)) + 1];
	struct ftnl_bcast_msg msg = {
		.overlay = overlay, .cube = 1, .origin_id = 1,
		.origin_incarnation = 77, .seq = 5,
		.origin_time_ns = 1700000000000000000ULL, .npos = npos,
		.ndeaths = ndeaths,
	};
	u32 i, len;

	memset(dead, 0, sizeof(dead));
	for (i = 0; i < ndeaths; i++) {
		struct ftnl_bcast_death *d = &msg.deaths[i];
		u32 pos = (1 + i * stride) % npos;

		d->node_id = pos + 1;
		d->cause = i % (FTNL_CAUSE_MAX + 1);
		if (proc && i % 2) {
			d->state = FTNL_BCAST_PROC_EXIT;
			d->rank = i;
			d->job = 0x1234 + i;
		} else {
			d->state = i % 3 ? FTNL_NODE_STATE_DEAD :
				   FTNL_NODE_STATE_LEFT;
			d->observer_id = (pos + 1) % npos + 1;
			d->incarnation = 100 + i;
			ftnl_bit_set(dead, pos);
		}
	}
	put_be16(buf, (u16)(npos - 1));
	put_be16(buf + 2, (u16)(npos - 1));	/* this node: the last */
	put_be16(buf + 4, (u16)(npos / 2));	/* the sender */
	len = ftnl_bcast_msg_encode(buf + 6, sizeof(buf) - 6, &msg, dead, NULL);
	if (!len) {
		fprintf(stderr, "bcast seed %s: encoding failed\n", name);
		exit(1);
	}
	/* The seed must be one the decoder takes. */
	if (ftnl_bcast_msg_decode(&msg, dead, npos,
				  &(struct ftnl_bcast_members){ member_1_to_n, &npos },
				  buf + 6, len)) {
		fprintf(stderr, "bcast seed %s: not decodable\n", name);
		exit(1);
	}
	write_seed("bcast", name, buf, len + 6);
}

/* ---- gossip: one FCG broadcast among n nodes, as node `self` hears it --- */

#define GN	16
#define GQ	4096

struct gmsg {
	u32 at, from, to;
	struct ftnl_gossip_msg msg;
};

static void gossip_seed(const char *name, u32 n, u32 self, u32 root, u8 f,
			u32 lat, u32 dead_rank, bool proc)
{
	static struct gmsg queue[GQ];
	static u8 buf[65536];
	struct ftnl_gossip_node nodes[GN];
	struct ftnl_gossip_params par;
	struct ftnl_gossip_wire wire = {
		.algo = FTNL_GOSSIP_FCG, .f = f, .lat = (u8)lat,
		.origin_id = root + 1, .origin_incarnation = 9, .seq = 2,
		.origin_time_ns = 1700000000000000000ULL, .npos = n,
		.ndeaths = 1,
		.deaths[0] = {
			.node_id = dead_rank + 1,
			.cause = FTNL_CAUSE_OBSERVED,
			.state = proc ? FTNL_BCAST_PROC_EXIT : FTNL_NODE_STATE_DEAD,
			.observer_id = proc ? 0 : root + 1,
			.incarnation = proc ? 0 : 4,
			.rank = proc ? 7 : 0,
			.job = proc ? 99 : 0,
		},
	};
	struct ftnl_gossip_out out;
	size_t len = 0, nq = 0, qi;
	u32 now, i, last = 0;

	ftnl_gossip_params_init(&par, FTNL_GOSSIP_FCG, n, root, lat, f);
	wire.gossip_end = par.gossip_end;
	for (i = 0; i < n; i++)
		ftnl_gossip_init(&nodes[i], &par, i, 1000 + i);

	put_be16(buf, (u16)(n - 1));
	put_be16(buf + 2, (u16)self);
	for (i = 0; i < 8; i++)
		buf[4 + i] = (u8)(0x5a + i);
	len = 12;

#define SEND(node_, out_)						\
	do {								\
		if ((out_).flags & FTNL_GOSSIP_OUT_SEND && nq < GQ &&	\
		    (out_).to != dead_rank)				\
			queue[nq++] = (struct gmsg){			\
				.at = (out_).msg.time + lat + 1,	\
				.from = (node_), .to = (out_).to,	\
				.msg = (out_).msg };			\
	} while (0)

	ftnl_gossip_start(&nodes[root], &out);
	SEND(root, out);
	for (now = 0; now < 2000; now++) {
		for (qi = 0; qi < nq; qi++) {
			struct gmsg *m = &queue[qi];
			u32 plen;

			if (m->at != now)
				continue;
			if (m->to == self) {
				plen = ftnl_gossip_payload_encode(buf + len + 5,
								  sizeof(buf) - len - 5,
								  &wire, &m->msg);
				if (plen && len + 5 + plen < sizeof(buf) - 64) {
					put_be16(buf + len, (u16)m->from);
					buf[len + 2] = (u8)(now - last > 255 ? 255 :
							    now - last);
					put_be16(buf + len + 3, (u16)plen);
					len += 5 + plen;
					last = now;
				}
			}
			ftnl_gossip_recv(&nodes[m->to], m->from, &m->msg, &out);
			SEND(m->to, out);
		}
		for (i = 0; i < n; i++) {
			if (i == dead_rank || nodes[i].wake == FTNL_GOSSIP_NO_WAKE ||
			    nodes[i].wake > now)
				continue;
			ftnl_gossip_step(&nodes[i], now, &out);
			SEND(i, out);
		}
	}
	write_seed("gossip", name, buf, len);
}

/*
 * A stream of the messages a group's transport carries: the engines'
 * with the group's value (ULFM's and the joiners), and the join
 * protocol's. A group of 100 in a world of 116 (fuzz_group.c).
 */
static void group_seeds(void)
{
	static u8 buf[8192];
	static uint64_t value[ERA_ULFM_VALUE_WORDS(100) + 1 + 2 * GRP_JOIN_SLOTS];
	uint64_t desc[(100 + 63) / 64] = { 0 };
	uint32_t members[4] = { 0, 17, 101, 110 }, incs[4] = { 1, 1, 1, 2 };
	struct grp_join_op jop;
	struct era_msg msg = { .group = 0x77, .id = 3, .gc = 2 };
	struct vall_msg vmsg = { .group = 0x77, .id = 4, .bnum = 1 };
	struct grp_join_msg jm = { .type = GRP_JOIN_T_JOIN, .job = 0x77,
				   .inc = 2 };
	size_t len = 2;
	unsigned int t;

	grp_join_op_init(&jop, 100, 116);
	put_be16(buf, 99);
	jop.op.identity(&jop.op, value);
	era_ulfm_value_init(&jop.ulfm, value, 5);
	era_ulfm_set_failed(&jop.ulfm, value, 17);
	era_ulfm_set_failed(&jop.ulfm, value, 64);
	era_ulfm_set_acked(&jop.ulfm, value, 17);
	grp_join_add(&jop, value, 101, 1);
	grp_join_add(&jop, value, 110, 2);
	msg.type = ERA_MSG_UP;
	msg.value = value;
	len += era_msg_encode(&jop.op, &msg, buf + len, sizeof(buf) - len);
	msg.type = ERA_MSG_DOWN;
	len += era_msg_encode(&jop.op, &msg, buf + len, sizeof(buf) - len);
	msg.type = ERA_MSG_RESULT_REQUEST;
	msg.value = NULL;
	msg.gc = 0;
	len += era_msg_encode(&jop.op, &msg, buf + len, sizeof(buf) - len);
	write_seed("group", "era-up-down-request", buf, len);

	/* Every validate-all type, descendants 3..9 and 70. */
	len = 2;
	for (t = 3; t <= 9; t++)
		desc[t / 64] |= 1ULL << (t % 64);
	desc[1] |= 1ULL << (70 - 64);
	for (t = VALL_MSG_BALLOT_BCAST; t <= VALL_MSG_FORCED_NAK; t++) {
		vmsg.type = (uint8_t)t;
		vmsg.desc = vall_msg_is_bcast(t) ? desc : NULL;
		vmsg.value = vall_msg_has_value(t) ? value : NULL;
		len += vall_msg_encode(&jop.op, 100, &vmsg, buf + len,
				       sizeof(buf) - len);
		vmsg.bnum++;
	}
	write_seed("group", "vall-every-type", buf, len);

	/* A join request, then the view that lets it in. */
	len = 2;
	len += grp_join_msg_encode(&jm, buf + len, sizeof(buf) - len);
	jm = (struct grp_join_msg){ .type = GRP_JOIN_T_WELCOME, .job = 0x77,
				    .inc = 1, .joiner_inc = 2, .view_id = 4,
				    .count = 4, .members = members,
				    .incs = incs };
	len += grp_join_msg_encode(&jm, buf + len, sizeof(buf) - len);
	write_seed("group", "join-welcome", buf, len);
}

/*
 * A stream of every radix membership message type in a group of 64 ids:
 * a view with runs, restarted members, failures, a joiner and a chain.
 */
static void radix_seeds(void)
{
	static u8 buf[16384];
	struct radix_view view = { 0 }, prev = { 0 };
	struct radix_set failed = { 0 }, joined = { 0 }, none = { 0 };
	struct radix_chain chain = { 0 };
	size_t len = 2;
	unsigned int t;

	/* Members 0..20, 30 and 40..63; 5 and 44 restarted; root 2. */
	if (radix_view_init(&view, 64) || radix_view_init(&prev, 64))
		exit(1);
	radix_view_add_run(&view, 0, 5);
	radix_view_add(&view, 5, 3);
	radix_view_add_run(&view, 6, 15);
	radix_view_add(&view, 30, 1);
	radix_view_add_run(&view, 40, 4);
	radix_view_add(&view, 44, 2);
	radix_view_add_run(&view, 45, 19);
	view.seq = 12;
	view.root = 2;
	/* The change: 21 and 35 failed, 44 came back. */
	radix_set_put(&failed, 21, 1);
	radix_set_put(&failed, 35, 4);
	radix_set_put(&joined, 44, 2);
	radix_view_copy(&prev, &view);
	radix_view_del(&prev, 44);
	radix_view_add(&prev, 21, 1);
	radix_view_add(&prev, 35, 4);
	prev.seq = 11;
	radix_chain_push(&chain, &prev);

	put_be16(buf, 63);
	for (t = 1; t <= RADIX_MSG_TYPE_MAX; t++) {
		struct radix_msg m = {
			.type = (u8)t, .group = 0x77, .from = { 7, 1 },
			.who = { 35, 4 }, .term = 9, .seq = view.seq,
		};

		if (radix_msg_is_round(t)) {
			m.floor = 11;
			m.view = &view;
			m.failed = t == RADIX_MSG_NODE_JOIN ||
				   t == RADIX_MSG_ROOT_DEAD ? &none : &failed;
			m.joined = t == RADIX_MSG_NODE_JOIN ||
				   t == RADIX_MSG_ROOT_AND_NODE_FAILURE ?
				   &joined : &none;
			m.chain = t == RADIX_MSG_ROOT_AND_NODE_FAILURE ?
				  &chain : NULL;
		} else if (t == RADIX_MSG_JOIN_DET_ACK) {
			m.view = &view;
			m.joined = &joined;
		} else if (t == RADIX_MSG_ROOT_DEAD_ACK) {
			m.seq = 11;
			m.min_seq = 10;
		} else if (t == RADIX_MSG_FAILURE_ACK ||
			   t == RADIX_MSG_NODE_JOIN_ACK) {
			m.seq = 4;
		} else if (t == RADIX_MSG_NEW_NODE) {
			m.who = m.from = (struct radix_member){ 25, 1 };
		} else if (t == RADIX_MSG_JOIN_REDIRECT) {
			m.who = (struct radix_member){ RADIX_NONE, 0 };
		}
		len += radix_msg_encode(&m, buf + len, sizeof(buf) - len);
	}
	write_seed("radix", "every-type", buf, len);
	radix_chain_free(&chain);
	radix_set_free(&failed);
	radix_set_free(&joined);
	radix_view_free(&view);
	radix_view_free(&prev);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	out_dir = argv[1];
	wire_seeds();
	bcast_seed("hypercube-ranges", 32, FTNL_BCAST_HYPERCUBE, 3, 5, false);
	bcast_seed("bmg-procs", 8, FTNL_BCAST_BMG, 4, 1, true);
	bcast_seed("bitmap-1000", 1000, FTNL_BCAST_HYPERCUBE,
		   FTNL_BCAST_MAX_DEATHS, 2, false);
	bcast_seed("max-nodes", FTNL_BCAST_MAX_POSITIONS, FTNL_BCAST_BMG, 1, 1,
		   false);
	gossip_seed("fcg-16-f1", 16, 5, 0, 1, 5, 9, false);
	gossip_seed("fcg-13-f3-proc", 13, 12, 4, 3, 2, 8, true);
	gossip_seed("fcg-7-f7", 7, 1, 6, 7, 1, 2, false);
	group_seeds();
	radix_seeds();
	return 0;
}
