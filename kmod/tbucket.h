/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A token bucket, pure code (shared with userspace tests): up to @burst
 * actions at once, then one every NSEC_PER_SEC / @rate ns. It rate-limits
 * the broadcasts of process exits (kmod/proc.c).
 */
#ifndef _FTNL_TBUCKET_H
#define _FTNL_TBUCKET_H

#include "compat.h"

/**
 * struct ftnl_tbucket - the bucket's state; all zero is a full bucket
 *	(for any clock reading of at least @burst periods)
 * @last_ns: clock reading of the last update
 * @credit_ns: time credit, at most @burst periods
 */
struct ftnl_tbucket {
	u64 last_ns;
	u64 credit_ns;
};

bool ftnl_tbucket_take(struct ftnl_tbucket *b, u64 now_ns, u32 burst,
		       u32 rate);
u64 ftnl_tbucket_wait_ns(const struct ftnl_tbucket *b, u64 now_ns, u32 burst,
			 u32 rate);

#endif /* _FTNL_TBUCKET_H */
