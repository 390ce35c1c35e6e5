/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the broadcast layer: what bcast.c and fcg.c share. Nothing
 * outside kmod/bcast/ includes this.
 */
#ifndef _FTNL_BCAST_FCG_H
#define _FTNL_BCAST_FCG_H

#include "bcast.h"
#include "signature.h"

static inline void ftnl_bcast_count(struct ftnl_bcast *bcast, int counter)
{
	atomic64_inc(&bcast->counters[counter]);
}

struct ftnl_bcast_window *ftnl_bcast_window_of(struct ftnl_bcast *bcast,
					       u32 origin_id);
void ftnl_bcast_note_latency(struct ftnl_bcast *bcast, u64 origin_time_ns);
struct ftnl_bcast_members ftnl_bcast_members(const struct ftnl_cluster *cluster);
void ftnl_bcast_publish_proc(struct ftnl_bcast *bcast,
			     const struct ftnl_bcast_death *death);
u32 ftnl_bcast_sign(struct ftnl_bcast *bcast, u8 type, u8 *buf, u32 len,
		    u8 *sigs);
bool ftnl_bcast_defer_gossip(struct ftnl_bcast *bcast,
			     const struct ftnl_gossip_wire *wire);
int ftnl_bcast_check_origin(struct ftnl_bcast *bcast, u8 type, u32 origin_id,
			    const u8 *payload, u32 len, u32 *body_len,
			    bool verified);
void ftnl_bcast_deliver_entry(struct ftnl_bcast *bcast,
			      const struct ftnl_bcast_death *death,
			      u64 origin_ns, ktime_t now);

/* fcg.c */
int ftnl_fcg_init(struct ftnl_fcg *fcg, u8 f, u32 gossip_end_us);
void ftnl_fcg_stop(struct ftnl_fcg *fcg);
void ftnl_fcg_free(struct ftnl_fcg *fcg);
u32 ftnl_fcg_originate(struct ftnl_bcast *bcast,
		       const struct ftnl_bcast_death *deaths, u32 n);
int ftnl_fcg_rx(struct ftnl_bcast *bcast, u32 from, const u8 *payload,
		u32 len, bool verified);
void ftnl_fcg_signed(struct ftnl_bcast *bcast, u64 incarnation, u64 seq,
		     const u8 *sigs, u32 nsigs);

#endif /* _FTNL_BCAST_FCG_H */
