/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftnl/group internals: one epoll instance per group; everything that
 * waits (listening socket, connections, retry timer, failure sources)
 * registers a struct grp_source as its epoll_event.data.ptr, and the
 * group's progress loop calls its ready() for each event.
 */
#ifndef FTNL_GROUP_LOOP_H
#define FTNL_GROUP_LOOP_H

#include <stdint.h>

/**
 * struct grp_source - something in the group's epoll set
 * @ready: called from the progress loop with the epoll events
 *	(EPOLLIN...) of this source; must not block
 */
struct grp_source {
	void (*ready)(struct grp_source *src, uint32_t events);
};

#endif /* FTNL_GROUP_LOOP_H */
