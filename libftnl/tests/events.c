// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Events: notifications written into a socketpair stand in for the
 * multicast group; an injected recvmsg reports ENOBUFS.
 */
#include <errno.h>
#include <stddef.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

#define FAMILY 0x1d

struct pair {
	int user_fd;
	int kernel_fd;
	struct ftnl_events *ev;
};

static bool pair_open(struct pair *p, ftnl_recvmsg_fn recv_fn)
{
	int fds[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, fds))
		return false;
	p->user_fd = fds[0];
	p->kernel_fd = fds[1];
	return ftnl_events_wrap_fd(p->user_fd, FAMILY, recv_fn, &p->ev) == 0;
}

static void pair_close(struct pair *p)
{
	ftnl_events_close(p->ev);
	close(p->user_fd);
	close(p->kernel_fd);
}

/* Append a CLUSTER_NTF (or another command) to @buf at @len. */
static size_t put_ntf(char *buf, size_t len, uint16_t type, uint8_t cmd,
		      uint32_t generation, bool configured)
{
	struct nlmsghdr *nlh = ftnl_msg_start(buf + len, type, 0, cmd, 1);

	mnl_attr_put_u32(nlh, FTNL_A_GENERATION, generation);
	if (configured) {
		mnl_attr_put(nlh, FTNL_A_CONFIGURED, 0, NULL);
		mnl_attr_put_u32(nlh, FTNL_A_CLUSTER_ID, 42);
		mnl_attr_put_u32(nlh, FTNL_A_SELF_ID, 3);
		mnl_attr_put_u32(nlh, FTNL_A_NODE_COUNT, 8);
	}
	return len + MNL_ALIGN(nlh->nlmsg_len);
}

static void test_read_one(const void *arg)
{
	char buf[512] __attribute__((aligned(8))) = { 0 };
	struct ftnl_event ev;
	struct timespec now;
	struct pair p;
	size_t len;

	(void)arg;
	if (!TAP_CHECK(pair_open(&p, NULL)))
		return;
	TAP_CHECK_INT(ftnl_events_fd(p.ev), p.user_fd);
	/* Nothing pending: 0 at once, never blocking. */
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 0);
	TAP_CHECK_INT(ftnl_events_wait(p.ev, 0), 0);

	len = put_ntf(buf, 0, FAMILY, FTNL_CMD_CLUSTER_NTF, 11, true);
	TAP_CHECK(send(p.kernel_fd, buf, len, 0) == (ssize_t)len);
	TAP_CHECK_INT(ftnl_events_wait(p.ev, 1000), 1);
	memset(&ev, 0xaa, sizeof(ev));
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 1);
	TAP_CHECK_UINT(ev.type, FTNL_EVENT_CLUSTER);
	TAP_CHECK_UINT(ev.reserved, 0);
	TAP_CHECK_UINT(ev.cluster.generation, 11);
	TAP_CHECK(ev.cluster.configured);
	TAP_CHECK_UINT(ev.cluster.cluster_id, 42);
	TAP_CHECK_UINT(ev.cluster.self_id, 3);
	TAP_CHECK_UINT(ev.cluster.node_count, 8);
	TAP_CHECK_UINT(ev.payload[FTNL_EVENT_PAYLOAD_SIZE / 8 - 1], 0);
	TAP_CHECK_UINT(ev.seq, 0);	/* configuration changes are not numbered */
	TAP_CHECK_UINT(offsetof(struct ftnl_event, seq), 248);
	clock_gettime(CLOCK_REALTIME, &now);
	TAP_CHECK(ev.received_ns <= (uint64_t)now.tv_sec * 1000000000u +
		  (uint64_t)now.tv_nsec);
	TAP_CHECK(ev.received_ns > (uint64_t)(now.tv_sec - 60) * 1000000000u);
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 0);
	pair_close(&p);
}

static void test_batch(const void *arg)
{
	char buf[2048] __attribute__((aligned(8))) = { 0 };
	struct ftnl_event ev;
	struct pair p;
	size_t len = 0;

	(void)arg;
	if (!TAP_CHECK(pair_open(&p, NULL)))
		return;
	/* One datagram: ours, another family's, ours (deleted), unknown. */
	len = put_ntf(buf, len, FAMILY, FTNL_CMD_CLUSTER_NTF, 1, true);
	len = put_ntf(buf, len, FAMILY + 1, FTNL_CMD_CLUSTER_NTF, 2, true);
	len = put_ntf(buf, len, FAMILY, FTNL_CMD_CLUSTER_NTF, 3, false);
	len = put_ntf(buf, len, FAMILY, 99, 4, false);
	TAP_CHECK(send(p.kernel_fd, buf, len, 0) == (ssize_t)len);

	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 1);
	TAP_CHECK_UINT(ev.cluster.generation, 1);
	/* Messages already read are pending even though the fd is drained. */
	TAP_CHECK_INT(ftnl_events_wait(p.ev, 0), 1);
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 1);
	TAP_CHECK_UINT(ev.type, FTNL_EVENT_CLUSTER);
	TAP_CHECK_UINT(ev.cluster.generation, 3);
	TAP_CHECK(!ev.cluster.configured);
	TAP_CHECK_UINT(ev.cluster.cluster_id, 0);
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 1);
	TAP_CHECK_UINT(ev.type, FTNL_EVENT_UNKNOWN);
	TAP_CHECK_UINT(ev.unknown.cmd, 99);
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 0);
	pair_close(&p);
}

static void test_malformed_skipped(const void *arg)
{
	char buf[1024] __attribute__((aligned(8))) = { 0 };
	struct nlmsghdr *nlh;
	struct ftnl_event ev;
	struct pair p;
	size_t len;

	(void)arg;
	if (!TAP_CHECK(pair_open(&p, NULL)))
		return;
	/* A notification without its generation, then a good one. */
	nlh = ftnl_msg_start(buf, FAMILY, 0, FTNL_CMD_CLUSTER_NTF, 1);
	mnl_attr_put(nlh, FTNL_A_CONFIGURED, 0, NULL);
	len = put_ntf(buf, MNL_ALIGN(nlh->nlmsg_len), FAMILY,
		      FTNL_CMD_CLUSTER_NTF, 5, true);
	TAP_CHECK(send(p.kernel_fd, buf, len, 0) == (ssize_t)len);
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 1);
	TAP_CHECK_UINT(ev.cluster.generation, 5);

	/* A datagram whose message overruns it: dropped whole. */
	memset(buf, 0, sizeof(buf));
	len = put_ntf(buf, 0, FAMILY, FTNL_CMD_CLUSTER_NTF, 6, true);
	((struct nlmsghdr *)buf)->nlmsg_len += 100;
	TAP_CHECK(send(p.kernel_fd, buf, len, 0) == (ssize_t)len);
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 0);

	/* Something shorter than a message header. */
	TAP_CHECK(send(p.kernel_fd, "xyz", 3, 0) == 3);
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 0);
	pair_close(&p);
}

/* Which attributes put_proc_exit() leaves out, or gets wrong. */
enum {
	PE_NO_JOB = 1 << 0,
	PE_NO_RANK = 1 << 1,
	PE_NO_NODE = 1 << 2,
	PE_SHORT_JOB = 1 << 3,	/* job as a u32 */
	PE_WIDE_CAUSE = 1 << 4,	/* cause as a u32 */
	PE_NO_OWNER = 1 << 5,	/* as a module before protocol 2 */
};

/* Append a PROC_EXIT_NTF as the kernel builds it, less @omit. */
static size_t put_proc_exit(char *buf, size_t len, uint64_t job, uint32_t rank,
			    uint32_t node, uint8_t cause, unsigned int omit)
{
	struct nlmsghdr *nlh = ftnl_msg_start(buf + len, FAMILY, 0,
					      FTNL_CMD_PROC_EXIT_NTF, 1);

	mnl_attr_put_u32(nlh, FTNL_A_CLUSTER_ID, 42);
	if (!(omit & PE_NO_NODE))
		mnl_attr_put_u32(nlh, FTNL_A_EVENT_NODE_ID, node);
	if (omit & PE_WIDE_CAUSE)
		mnl_attr_put_u32(nlh, FTNL_A_EVENT_CAUSE, cause);
	else
		mnl_attr_put_u8(nlh, FTNL_A_EVENT_CAUSE, cause);
	mnl_attr_put(nlh, FTNL_A_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, FTNL_A_EVENT_TIME_MONO_NS, 1000 + node);
	mnl_attr_put(nlh, FTNL_A_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, FTNL_A_EVENT_TIME_REAL_NS, 2000 + node);
	if (omit & PE_SHORT_JOB)
		mnl_attr_put_u32(nlh, FTNL_A_PROC_JOB, (uint32_t)job);
	else if (!(omit & PE_NO_JOB))
		mnl_attr_put_u64(nlh, FTNL_A_PROC_JOB, job);
	if (!(omit & PE_NO_RANK))
		mnl_attr_put_u32(nlh, FTNL_A_PROC_RANK, rank);
	if (!(omit & PE_NO_OWNER)) {
		mnl_attr_put_u32(nlh, FTNL_A_PROC_OWNER_UID, 1000 + node);
		mnl_attr_put_u64(nlh, FTNL_A_EVENT_SEQ, 5000 + node);
	}
	/* An attribute of a newer module is ignored. */
	mnl_attr_put_u32(nlh, FTNL_A_MAX + 5, 0xdead);
	return len + MNL_ALIGN(nlh->nlmsg_len);
}

static void test_proc_exit(const void *arg)
{
	char buf[1024] __attribute__((aligned(8))) = { 0 };
	struct ftnl_event ev;
	struct pair p;
	size_t len;
	unsigned int i;

	(void)arg;
	if (!TAP_CHECK(pair_open(&p, NULL)))
		return;
	len = put_proc_exit(buf, 0, 0x1122334455667788ull, 4000000000u, 7,
			    FTNL_CAUSE_BROADCAST, 0);
	len = put_proc_exit(buf, len, 9, 0, 3, FTNL_CAUSE_OBSERVED, PE_NO_OWNER);
	TAP_CHECK(send(p.kernel_fd, buf, len, 0) == (ssize_t)len);

	memset(&ev, 0xaa, sizeof(ev));
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 1);
	TAP_CHECK_UINT(ev.type, FTNL_EVENT_PROC_EXIT);
	TAP_CHECK_UINT(ev.reserved, 0);
	TAP_CHECK(ev.received_ns != 0);
	TAP_CHECK_UINT(ev.proc_exit.job, 0x1122334455667788ull);
	TAP_CHECK_UINT(ev.proc_exit.rank, 4000000000u);
	TAP_CHECK_UINT(ev.proc_exit.node_id, 7);
	TAP_CHECK_UINT(ev.proc_exit.cause, FTNL_CAUSE_BROADCAST);
	TAP_CHECK_UINT(ev.proc_exit.cluster_id, 42);
	TAP_CHECK_UINT(ev.proc_exit.time_mono_ns, 1007);
	TAP_CHECK_UINT(ev.proc_exit.time_real_ns, 2007);
	TAP_CHECK(ev.proc_exit.has_owner);
	TAP_CHECK_UINT(ev.proc_exit.owner_uid, 1007);
	TAP_CHECK_UINT(ev.seq, 5007);
	/* The rest of the payload is zero, not left over. */
	for (i = sizeof(ev.proc_exit) / 8; i < FTNL_EVENT_PAYLOAD_SIZE / 8; i++)
		if (!TAP_CHECK_UINT(ev.payload[i], 0))
			break;

	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 1);
	TAP_CHECK_UINT(ev.type, FTNL_EVENT_PROC_EXIT);
	TAP_CHECK_UINT(ev.proc_exit.job, 9);
	TAP_CHECK_UINT(ev.proc_exit.rank, 0);
	TAP_CHECK_UINT(ev.proc_exit.node_id, 3);
	TAP_CHECK_UINT(ev.proc_exit.cause, FTNL_CAUSE_OBSERVED);
	/* an older module's event: no owner, and no guess */
	TAP_CHECK(!ev.proc_exit.has_owner);
	TAP_CHECK_UINT(ev.proc_exit.owner_uid, 0);
	TAP_CHECK_UINT(ev.seq, 0);
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 0);
	pair_close(&p);
}

static void test_proc_exit_malformed(const void *arg)
{
	static const unsigned int bad[] = {
		PE_NO_JOB, PE_NO_RANK, PE_NO_NODE, PE_SHORT_JOB, PE_WIDE_CAUSE,
	};
	char buf[2048] __attribute__((aligned(8))) = { 0 };
	struct ftnl_event ev;
	struct pair p;
	size_t len = 0, i;

	(void)arg;
	if (!TAP_CHECK(pair_open(&p, NULL)))
		return;
	/* Every malformed one is skipped; the good one after them is read. */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		len = put_proc_exit(buf, len, 1, (uint32_t)i, 2,
				    FTNL_CAUSE_OBSERVED, bad[i]);
	len = put_proc_exit(buf, len, 77, 5, 6, FTNL_CAUSE_OBSERVED, 0);
	TAP_CHECK(send(p.kernel_fd, buf, len, 0) == (ssize_t)len);
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 1);
	TAP_CHECK_UINT(ev.type, FTNL_EVENT_PROC_EXIT);
	TAP_CHECK_UINT(ev.proc_exit.job, 77);
	TAP_CHECK_UINT(ev.proc_exit.rank, 5);
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 0);

	/* Shorter than its generic netlink header. */
	memset(buf, 0, sizeof(buf));
	len = put_proc_exit(buf, 0, 1, 1, 1, FTNL_CAUSE_OBSERVED, 0);
	((struct nlmsghdr *)buf)->nlmsg_len = MNL_NLMSG_HDRLEN + 2;
	TAP_CHECK(send(p.kernel_fd, buf, MNL_ALIGN(MNL_NLMSG_HDRLEN + 2), 0) ==
		  (ssize_t)MNL_ALIGN(MNL_NLMSG_HDRLEN + 2));
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 0);
	pair_close(&p);
}

/* recvmsg that fails once with ENOBUFS, as after a receive overrun. */
static int enobufs_left;

static ssize_t recvmsg_enobufs(int fd, struct msghdr *msg, int flags)
{
	if (enobufs_left > 0) {
		enobufs_left--;
		errno = ENOBUFS;
		return -1;
	}
	return recvmsg(fd, msg, flags);
}

static void test_overrun(const void *arg)
{
	char buf[512] __attribute__((aligned(8))) = { 0 };
	struct ftnl_event ev;
	struct pair p;
	size_t len;

	(void)arg;
	if (!TAP_CHECK(pair_open(&p, recvmsg_enobufs)))
		return;
	enobufs_left = 1;
	len = put_ntf(buf, 0, FAMILY, FTNL_CMD_CLUSTER_NTF, 12, true);
	TAP_CHECK(send(p.kernel_fd, buf, len, 0) == (ssize_t)len);
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 1);
	TAP_CHECK_UINT(ev.type, FTNL_EVENT_OVERRUN);
	TAP_CHECK(ev.received_ns != 0);
	/* The subscription keeps working afterwards. */
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 1);
	TAP_CHECK_UINT(ev.type, FTNL_EVENT_CLUSTER);
	TAP_CHECK_UINT(ev.cluster.generation, 12);
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), 0);
	pair_close(&p);
}

static ssize_t recvmsg_ebadf(int fd, struct msghdr *msg, int flags)
{
	(void)fd;
	(void)msg;
	(void)flags;
	errno = EBADF;
	return -1;
}

static void test_socket_error(const void *arg)
{
	struct ftnl_event ev;
	struct pair p;

	(void)arg;
	if (!TAP_CHECK(pair_open(&p, recvmsg_ebadf)))
		return;
	TAP_CHECK_INT(ftnl_events_read(p.ev, &ev), -EBADF);
	pair_close(&p);
}

static void test_real_open(const void *arg)
{
	struct ftnl_events *ev = NULL;
	int err = ftnl_events_open(&ev);

	(void)arg;
	if (!err) {
		struct ftnl_event event;

		/* Module loaded (inside a VM): the socket is quiet or not. */
		TAP_CHECK(ftnl_events_fd(ev) >= 0);
		TAP_CHECK(ftnl_events_read(ev, &event) >= 0);
		ftnl_events_close(ev);
	} else if (err == -EAFNOSUPPORT || err == -EPERM) {
		TAP_SKIP("no generic netlink here: %s", strerror(-err));
	} else {
		TAP_CHECK_INT(err, -ENOENT);
		TAP_CHECK(!ev);
	}
}

int main(void)
{
	tap_add(test_read_one, NULL, "one notification read, then 0 (not -EAGAIN)");
	tap_add(test_batch, NULL, "several messages in a datagram; other families skipped");
	tap_add(test_malformed_skipped, NULL, "malformed notifications are skipped");
	tap_add(test_proc_exit, NULL, "process exits: every field of FTNL_EVENT_PROC_EXIT");
	tap_add(test_proc_exit_malformed, NULL, "process exits without job, rank or node, or of a wrong size, are skipped");
	tap_add(test_overrun, NULL, "ENOBUFS is reported as FTNL_EVENT_OVERRUN");
	tap_add(test_socket_error, NULL, "other socket errors are returned");
	tap_add(test_real_open, NULL, "ftnl_events_open on this kernel: -ENOENT without the module");
	return tap_run();
}
