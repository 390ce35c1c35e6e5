// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the datagram header and the anti-replay window
 * (kmod/wire.c), the first code every datagram from the network meets.
 *
 * Input: a datagram header (FTNL_WIRE_HDR_LEN bytes), then a stream of
 * sequence numbers for one sender's window: a byte 0xff followed by an
 * absolute be64, or any other byte, a step of (int8_t)byte from the
 * highest number accepted so far.
 *
 * The header's sequence number, if not 0, starts the window there
 * (ftnl_replay_start(): every number below it held as seen).
 *
 * Properties: decoding then encoding a header gives back its bytes; the
 * window accepts a number iff it is nonzero, was never accepted, is above
 * the window's floor, and is above the highest accepted or less than
 * FTNL_REPLAY_WINDOW below it; a refused number within that reach and not
 * above the floor is FTNL_REPLAY_EARLY, any other FTNL_REPLAY_SEEN.
 */
#include <string.h>

#include "fuzz.h"
#include "wire.h"

#define MAX_SEQS 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static u64 accepted[MAX_SEQS];
	struct ftnl_replay win = { 0 };
	struct fuzz_in in = { data, size };
	size_t naccepted = 0, i;
	struct ftnl_wire_hdr hdr;
	u8 again[FTNL_WIRE_HDR_LEN];
	u64 top = 0, floor = 0;

	if (size >= FTNL_WIRE_HDR_LEN) {
		ftnl_wire_hdr_decode(&hdr, data);
		ftnl_wire_hdr_encode(again, &hdr);
		FUZZ_CHECK(!memcmp(again, data, FTNL_WIRE_HDR_LEN));
		in.p += FTNL_WIRE_HDR_LEN;
		in.left -= FTNL_WIRE_HDR_LEN;
		if (hdr.seq) {
			ftnl_replay_start(&win, hdr.seq);
			floor = hdr.seq - 1;
			top = floor;
		}
	}

	while (in.left && naccepted < MAX_SEQS) {
		u8 tag = fuzz_u8(&in);
		u64 seq = tag == 0xff ? fuzz_u64(&in) : top + (u64)(int8_t)tag;
		enum ftnl_replay_verdict want, got;
		bool seen = false, reach;

		for (i = 0; i < naccepted && !seen; i++)
			seen = accepted[i] == seq;
		reach = seq > top || top - seq < FTNL_REPLAY_WINDOW;
		if (!seq || seen || !reach)
			want = FTNL_REPLAY_SEEN;
		else if (seq <= floor)
			want = FTNL_REPLAY_EARLY;
		else
			want = FTNL_REPLAY_NEW;
		FUZZ_CHECK(ftnl_replay_check(&win, seq) == want);
		got = ftnl_replay_accept(&win, seq);
		FUZZ_CHECK(got == want);
		if (got == FTNL_REPLAY_NEW) {
			accepted[naccepted++] = seq;
			if (seq > top)
				top = seq;
		}
		FUZZ_CHECK(ftnl_replay_check(&win, seq) != FTNL_REPLAY_NEW);
		FUZZ_CHECK(win.top == top);
	}
	return 0;
}
