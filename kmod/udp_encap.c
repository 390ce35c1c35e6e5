// SPDX-License-Identifier: GPL-2.0
/*
 * The UDP stack tests for encapsulation sockets (ours take datagrams
 * through encap_rcv) behind the static keys udp_encap_needed_key and
 * udpv6_encap_needed_key. Each tunnel socket counts on them, and a count
 * going from 0 to 1 or back rewrites kernel text (int3, then the new
 * jump) while other CPUs may run that code for unrelated UDP traffic; on
 * 6.12 under QEMU that was seen to end in "Oops: int3" in
 * udp_queue_rcv_one_skb. The module holds one count on each key from load
 * to unload, so configuring and deleting clusters never flips them.
 */

#include <linux/jump_label.h>
#include <net/udp.h>

#include "ftnl.h"

void ftnl_udp_encap_hold(void)
{
	static_branch_inc(&udp_encap_needed_key);
#if IS_ENABLED(CONFIG_IPV6)
	static_branch_inc(&udpv6_encap_needed_key);
#endif
}

void ftnl_udp_encap_release(void)
{
#if IS_ENABLED(CONFIG_IPV6)
	static_branch_dec(&udpv6_encap_needed_key);
#endif
	static_branch_dec(&udp_encap_needed_key);
}
