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
 * ftnl_replay_start - start a window above what may have come before
 * @win: the window
 * @seq: the first sequence number it is to count
 *
 * Every number below @seq is held as seen: the sender used them before,
 * for datagrams this node may have acted on without a window (or in an
 * earlier life of its own). They are refused as FTNL_REPLAY_EARLY while
 * within the window's reach, so that a datagram merely reordered around
 * the start is not counted as a replay.
 */
void ftnl_replay_start(struct ftnl_replay *win, u64 seq)
{
	u64 floor = seq ? seq - 1 : 0;

	*win = (struct ftnl_replay){
		.top = floor,
		.seen = ~0ULL,
		.floor = floor,
	};
}

/**
 * ftnl_replay_check - what the window says of a sequence number
 * @win: the sender's window
 * @seq: the datagram's sequence number
 *
 * Datagrams may be reordered by the network: anything within
 * FTNL_REPLAY_WINDOW of the highest number accepted is accepted once.
 * Nothing is recorded: the receive path uses it to drop a replay before
 * it takes the ring's lock.
 *
 * Return: FTNL_REPLAY_NEW for a number to accept; FTNL_REPLAY_EARLY for
 * one at or below the window's floor and within its reach;
 * FTNL_REPLAY_SEEN for one accepted already, older than the window, or 0.
 */
enum ftnl_replay_verdict ftnl_replay_check(const struct ftnl_replay *win,
					   u64 seq)
{
	u64 age;

	if (!seq)
		return FTNL_REPLAY_SEEN;
	if (seq > win->top)
		return FTNL_REPLAY_NEW;
	age = win->top - seq;
	if (age >= FTNL_REPLAY_WINDOW)
		return FTNL_REPLAY_SEEN;
	if (seq <= win->floor)
		return FTNL_REPLAY_EARLY;
	return (win->seen >> age) & 1 ? FTNL_REPLAY_SEEN : FTNL_REPLAY_NEW;
}

/**
 * ftnl_replay_accept - accept a sequence number at most once
 * @win: the sender's window
 * @seq: the datagram's sequence number
 *
 * ftnl_replay_check(), and a new number is recorded.
 *
 * Return: its verdict; FTNL_REPLAY_NEW only the first time.
 */
enum ftnl_replay_verdict ftnl_replay_accept(struct ftnl_replay *win, u64 seq)
{
	enum ftnl_replay_verdict v = ftnl_replay_check(win, seq);
	u64 shift;

	if (v != FTNL_REPLAY_NEW)
		return v;
	if (seq > win->top) {
		shift = seq - win->top;
		win->seen = shift >= FTNL_REPLAY_WINDOW ? 0 :
			    win->seen << shift;
		win->seen |= 1;
		win->top = seq;
	} else {
		win->seen |= 1ULL << (win->top - seq);
	}
	return v;
}
