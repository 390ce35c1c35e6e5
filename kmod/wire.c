// SPDX-License-Identifier: GPL-2.0
/*
 * Datagram header encoding and the anti-replay window. Pure code.
 */

#include "wire.h"

void ftnl_wire_hdr_encode(u8 *buf, const struct ftnl_wire_hdr *hdr)
{
	ftnl_put_be32(buf, hdr->magic);
	buf[4] = hdr->version;
	buf[5] = hdr->type;
	ftnl_put_be16(buf + 6, hdr->payload_len);
	ftnl_put_be32(buf + 8, hdr->cluster_id);
	ftnl_put_be32(buf + 12, hdr->sender_id);
	ftnl_put_be32(buf + 16, hdr->dest_id);
	ftnl_put_be64(buf + 20, hdr->incarnation);
	ftnl_put_be64(buf + 28, hdr->echo);
	ftnl_put_be64(buf + 36, hdr->seq);
	ftnl_put_be32(buf + 44, hdr->epoch);
	ftnl_put_be32(buf + 48, hdr->timeout_us);
	ftnl_put_be64(buf + 52, hdr->first);
}

void ftnl_wire_hdr_decode(struct ftnl_wire_hdr *hdr, const u8 *buf)
{
	hdr->magic = ftnl_get_be32(buf);
	hdr->version = buf[4];
	hdr->type = buf[5];
	hdr->payload_len = ftnl_get_be16(buf + 6);
	hdr->cluster_id = ftnl_get_be32(buf + 8);
	hdr->sender_id = ftnl_get_be32(buf + 12);
	hdr->dest_id = ftnl_get_be32(buf + 16);
	hdr->incarnation = ftnl_get_be64(buf + 20);
	hdr->echo = ftnl_get_be64(buf + 28);
	hdr->seq = ftnl_get_be64(buf + 36);
	hdr->epoch = ftnl_get_be32(buf + 44);
	hdr->timeout_us = ftnl_get_be32(buf + 48);
	hdr->first = ftnl_get_be64(buf + 52);
}

void ftnl_wire_probe_encode(u8 *buf, const struct ftnl_wire_probe *probe)
{
	ftnl_put_be32(buf, probe->target_id);
	ftnl_put_be32(buf + 4, probe->origin_id);
	buf[8] = probe->flags;
	ftnl_put_be32(buf + 9, probe->probe_id);
}

int ftnl_wire_probe_decode(struct ftnl_wire_probe *probe, const u8 *buf,
			   u32 len)
{
	if (len != FTNL_WIRE_PROBE_LEN || buf[8] & ~FTNL_PROBE_ALIVE)
		return -EINVAL;
	probe->target_id = ftnl_get_be32(buf);
	probe->origin_id = ftnl_get_be32(buf + 4);
	probe->flags = buf[8];
	probe->probe_id = ftnl_get_be32(buf + 9);
	return 0;
}

/**
 * ftnl_replay_accept - accept a sequence number at most once
 * @win: the sender's window
 * @seq: the datagram's sequence number
 *
 * Datagrams may be reordered by the network: anything within
 * FTNL_REPLAY_WINDOW of the highest number seen is accepted once.
 *
 * Return: true if @seq is new (and now recorded), false for a replay,
 * a number older than the window, or 0.
 */
bool ftnl_replay_accept(struct ftnl_replay *win, u64 seq)
{
	u64 age;

	if (!seq)
		return false;
	if (seq > win->top) {
		u64 shift = seq - win->top;

		win->seen = shift >= FTNL_REPLAY_WINDOW ? 0 : win->seen << shift;
		win->seen |= 1;
		win->top = seq;
		return true;
	}
	age = win->top - seq;
	if (age >= FTNL_REPLAY_WINDOW || (win->seen >> age) & 1)
		return false;
	win->seen |= 1ULL << age;
	return true;
}

/**
 * ftnl_replay_seen - would ftnl_replay_accept() refuse @seq?
 * @win: the sender's window
 * @seq: the datagram's sequence number
 *
 * The same rule, without recording anything: the receive path uses it to
 * drop a replay before it takes the ring's lock.
 *
 * Return: true for 0, a number already accepted, or one older than the
 * window.
 */
bool ftnl_replay_seen(const struct ftnl_replay *win, u64 seq)
{
	u64 age;

	if (!seq)
		return true;
	if (seq > win->top)
		return false;
	age = win->top - seq;
	return age >= FTNL_REPLAY_WINDOW || ((win->seen >> age) & 1);
}
