// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Registered processes (FTNL_CMD_PROC_*): a process registers its handle's
 * socket under (job, rank); the kernel declares it dead when that socket is
 * released without an unregister. The registration is the socket's, so
 * these functions only build the requests and parse the dump.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

FTNL_EXPORT int ftnl_proc_register(struct ftnl_handle *h, uint64_t job,
				   uint32_t rank)
{
	char buf[FTNL_GENL_HDRLEN + MNL_ATTR_HDRLEN + sizeof(uint64_t) +
		 MNL_ATTR_HDRLEN + sizeof(uint32_t)] __attribute__((aligned(8)));
	struct nlmsghdr *req;

	req = ftnl_msg_start(buf, h->family_id, NLM_F_REQUEST | NLM_F_ACK,
			     FTNL_CMD_PROC_REGISTER, FTNL_FAMILY_VERSION);
	mnl_attr_put_u64(req, FTNL_A_PROC_JOB, job);
	mnl_attr_put_u32(req, FTNL_A_PROC_RANK, rank);
	return ftnl_request(h, req, NULL, NULL);
}

FTNL_EXPORT int ftnl_proc_unregister(struct ftnl_handle *h)
{
	char buf[FTNL_GENL_HDRLEN] __attribute__((aligned(4)));
	struct nlmsghdr *req;

	req = ftnl_msg_start(buf, h->family_id, NLM_F_REQUEST | NLM_F_ACK,
			     FTNL_CMD_PROC_UNREGISTER, FTNL_FAMILY_VERSION);
	return ftnl_request(h, req, NULL, NULL);
}

/* Attributes of one FTNL_CMD_PROC_GET message, and which were seen. */
struct ftnl_proc_parse {
	struct ftnl_proc *proc;
	bool has_job;
	bool has_rank;
	bool has_portid;
	bool has_owner;
};

static int ftnl_proc_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_proc_parse *p = arg;

	switch (mnl_attr_get_type(attr)) {
	case FTNL_A_PROC_JOB:
		p->has_job = true;
		return ftnl_attr_u64(attr, &p->proc->job);
	case FTNL_A_PROC_RANK:
		p->has_rank = true;
		return ftnl_attr_u32(attr, &p->proc->rank);
	case FTNL_A_PROC_PORTID:
		p->has_portid = true;
		return ftnl_attr_u32(attr, &p->proc->portid);
	case FTNL_A_PROC_OWNER_UID:
		p->has_owner = true;
		return ftnl_attr_u32(attr, &p->proc->owner_uid);
	}
	return 0;	/* padding, or a newer module's attribute */
}

/* State of one dump: the caller's callback and how it stopped it. */
struct ftnl_proc_dump_state {
	ftnl_proc_cb cb;
	void *arg;
	int stop;	/* the callback's nonzero value, 0 while it goes on */
};

static int ftnl_proc_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct ftnl_proc_dump_state *s = arg;
	struct ftnl_proc proc = { 0 };
	struct ftnl_proc_parse p = { .proc = &proc };
	int err;

	err = ftnl_genl_walk(nlh, ftnl_proc_attr, &p);
	if (err)
		return err;
	if (!p.has_job || !p.has_rank || !p.has_portid || !p.has_owner)
		return -EBADMSG;
	s->stop = s->cb(&proc, s->arg);
	return s->stop;
}

FTNL_EXPORT int ftnl_proc_dump(struct ftnl_handle *h, ftnl_proc_cb cb,
			       void *arg)
{
	char buf[FTNL_GENL_HDRLEN] __attribute__((aligned(4)));
	struct ftnl_proc_dump_state s = { .cb = cb, .arg = arg };
	struct nlmsghdr *req;
	int err;

	req = ftnl_msg_start(buf, h->family_id, NLM_F_REQUEST | NLM_F_DUMP,
			     FTNL_CMD_PROC_GET, FTNL_FAMILY_VERSION);
	err = ftnl_request(h, req, ftnl_proc_reply, &s);
	/*
	 * A positive stop is the caller's own value, not an error of the
	 * request: the dump was still read to its end, the handle is fine.
	 */
	if (err > 0 && err == s.stop)
		ftnl_clear_error(h);
	return err;
}
