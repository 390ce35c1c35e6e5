// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl's UDP sockets take datagrams through the udp_tunnel encap_rcv hook.
 * The kernel tests for such sockets with the static keys
 * udp_encap_needed_key and udpv6_encap_needed_key; when one of them goes
 * from 0 to 1 or back, the kernel rewrites its own text (int3 breakpoints,
 * then the new jump) while other CPUs may be running that very code for
 * unrelated UDP traffic. ftnl takes both keys once at load, so that
 * configuring and deleting clusters never flips them:
 *
 * - loading the module raises each key's count by exactly one, unloading
 *   lowers it by one (read from the kernel's memory through /proc/kcore at
 *   the addresses /proc/kallsyms gives);
 * - with the module loaded, set and delete of a cluster leave both keys on;
 * - hundreds of set/delete cycles while UDP datagrams flow over IPv4 and
 *   IPv6 on other CPUs: every request succeeds, the traffic never stops,
 *   the keys never reach zero, and the kernel logs no Oops.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ftnl_selftest.h"
#include "ksft.h"

/* Set/delete cycles under traffic (FTNL_ENCAP_CYCLES overrides). */
#define ENCAP_CYCLES		400
#define ENCAP_TRAFFIC_PORT	9911

static const char *ko_path(void)
{
	const char *p = getenv("FTNL_KO");

	return p && *p ? p : "/opt/ftnl/ftnl.ko";
}

static bool module_loaded(void)
{
	struct stat st;

	return !stat("/sys/module/ftnl", &st);
}

/* A dump or request in flight holds a module reference: retry a while. */
static int module_unload(void)
{
	int tries;

	for (tries = 0; tries < 50; tries++) {
		if (!syscall(SYS_delete_module, "ftnl", O_NONBLOCK))
			return 0;
		if (errno != EAGAIN && errno != EBUSY && errno != EWOULDBLOCK)
			return -errno;
		usleep(200 * 1000);
	}
	return -EBUSY;
}

static int module_load(void)
{
	int fd = open(ko_path(), O_RDONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, "", 0))
		err = -errno;
	close(fd);
	return err;
}

/* Address of kernel symbol @name, 0 if absent or hidden (kptr_restrict). */
static uint64_t ksym(const char *name)
{
	char line[512], sym[256], type;
	uint64_t addr, found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, sym) != 3)
			continue;
		if (!strcmp(sym, name)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

/* Read @len bytes of kernel memory at @vaddr through /proc/kcore. */
static int kmem_read(uint64_t vaddr, void *buf, size_t len)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd, err = -ENOENT;
	unsigned int i;

	fd = open("/proc/kcore", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64) {
		close(fd);
		return -EIO;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + (off_t)i * eh.e_phentsize) !=
		    sizeof(ph))
			break;
		if (ph.p_type != PT_LOAD || vaddr < ph.p_vaddr ||
		    vaddr + len > ph.p_vaddr + ph.p_memsz)
			continue;
		err = pread(fd, buf, len, ph.p_offset + (vaddr - ph.p_vaddr)) ==
		      (ssize_t)len ? 0 : -EIO;
		break;
	}
	close(fd);
	return err;
}

/*
 * The kernel's two encap keys: struct static_key starts with its count
 * (atomic_t enabled), in 6.1 as in 6.12.
 */
struct encap_keys {
	uint64_t addr4, addr6;
};

struct encap_counts {
	int32_t v4, v6;
};

static int keys_find(struct encap_keys *k)
{
	k->addr4 = ksym("udp_encap_needed_key");
	k->addr6 = ksym("udpv6_encap_needed_key");
	return k->addr4 && k->addr6 ? 0 : -ENOENT;
}

static int keys_read(const struct encap_keys *k, struct encap_counts *c)
{
	int err = kmem_read(k->addr4, &c->v4, sizeof(c->v4));

	return err ? err : kmem_read(k->addr6, &c->v6, sizeof(c->v6));
}

/* Skip (not fail) where the kernel's memory cannot be read. */
#define KEYS_OR_SKIP(k) do { \
	if (keys_find(k)) \
		SKIP(return, "the encap keys are not in /proc/kallsyms"); \
	struct encap_counts _c; \
	if (keys_read((k), &_c)) \
		SKIP(return, "/proc/kcore cannot be read"); \
} while (0)

/* The module is loaded again whatever a test did to it. */
static void module_ensure_loaded(void)
{
	if (!module_loaded())
		module_load();
}

TEST(load_takes_each_key_once)
{
	struct encap_counts loaded, unloaded, reloaded;
	struct encap_keys k;

	KEYS_OR_SKIP(&k);
	if (!module_loaded())
		ASSERT_EQ(0, module_load());
	ASSERT_EQ(0, keys_read(&k, &loaded));
	ASSERT_EQ(0, module_unload());
	ASSERT_EQ(0, keys_read(&k, &unloaded));
	ASSERT_EQ(0, module_load()) module_ensure_loaded();
	ASSERT_EQ(0, keys_read(&k, &reloaded));
	TH_LOG("udp_encap_needed_key %d loaded, %d unloaded, %d reloaded; udpv6 %d, %d, %d",
	       loaded.v4, unloaded.v4, reloaded.v4, loaded.v6, unloaded.v6, reloaded.v6);
	/* Nothing else on the guest enables encap: the counts are ftnl's. */
	EXPECT_EQ(unloaded.v4 + 1, reloaded.v4);
	EXPECT_EQ(unloaded.v6 + 1, reloaded.v6);
	EXPECT_LE(1, reloaded.v4);
	EXPECT_LE(1, reloaded.v6);
}

FIXTURE(encap) {
	struct ftnl_cluster_config cfg;
	struct encap_keys keys;
	struct ftnl_handle *h;
};

FIXTURE_SETUP(encap)
{
	module_ensure_loaded();
	ASSERT_EQ(0, st_netns_new());
	ASSERT_EQ(0, ftnl_open(&self->h));
	/* IPv4 and IPv6 members: both sockets, both keys. */
	ASSERT_EQ(0, st_config_small(&self->cfg, 41));
}

FIXTURE_TEARDOWN(encap)
{
	st_config_free(&self->cfg);
	if (self->h)
		ftnl_close(self->h);
}

TEST_F(encap, set_and_delete_leave_the_keys_on)
{
	struct encap_counts before, during, after;
	int i;

	KEYS_OR_SKIP(&self->keys);
	ASSERT_EQ(0, keys_read(&self->keys, &before));
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, ftnl_cluster_set(self->h, &self->cfg)) {
			TH_LOG("cluster set: %s", ftnl_errmsg(self->h));
		}
		ASSERT_EQ(0, keys_read(&self->keys, &during));
		ASSERT_EQ(0, ftnl_cluster_del(self->h));
		ASSERT_EQ(0, keys_read(&self->keys, &after));
		ASSERT_LE(1, after.v4);
		ASSERT_LE(1, after.v6);
		ASSERT_LT(before.v4, during.v4);
		ASSERT_LT(before.v6, during.v6);
	}
	TH_LOG("keys %d/%d before, %d/%d with a cluster, %d/%d after",
	       before.v4, before.v6, during.v4, during.v6, after.v4, after.v6);
	EXPECT_LE(1, before.v4);
	EXPECT_LE(1, before.v6);
}

/* Counters the traffic child shares with the test. */
struct traffic {
	volatile uint64_t sent;
	volatile uint64_t received;
	volatile int failed_errno;
};

static int traffic_socket(int family)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
	socklen_t len;
	int fd;

	if (family == AF_INET) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons(ENCAP_TRAFFIC_PORT);
		a4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*a4);
	} else {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons(ENCAP_TRAFFIC_PORT);
		a6->sin6_addr = in6addr_loopback;
		len = sizeof(*a6);
	}
	fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/* Talks to itself: every datagram crosses the UDP receive path. */
	if (bind(fd, (struct sockaddr *)&ss, len) ||
	    connect(fd, (struct sockaddr *)&ss, len)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The child: UDP datagrams over lo, IPv4 and IPv6, until killed. */
static void traffic_run(struct traffic *t)
{
	int fds[2] = { traffic_socket(AF_INET), traffic_socket(AF_INET6) };
	char buf[64] = "ftnl encap selftest";
	unsigned int i;

	if (fds[0] < 0 || fds[1] < 0) {
		t->failed_errno = errno;
		_exit(1);
	}
	for (;;) {
		for (i = 0; i < 2; i++) {
			if (send(fds[i], buf, sizeof(buf), 0) == sizeof(buf))
				t->sent++;
			while (recv(fds[i], buf, sizeof(buf), 0) > 0)
				t->received++;
		}
	}
}

static uint64_t traffic_received(const struct traffic *t)
{
	return __atomic_load_n(&t->received, __ATOMIC_RELAXED);
}

TEST_F_TIMEOUT(encap, cycles_under_udp_traffic, 600)
{
	unsigned int cycles = ENCAP_CYCLES, i, stalls = 0;
	struct encap_counts c, lowest = { INT32_MAX, INT32_MAX };
	uint64_t last, now;
	struct traffic *t;
	const char *env;
	bool have_keys;
	int status;
	pid_t pid;

	/* Without the keys' addresses the counts are not checked. */
	have_keys = !keys_find(&self->keys) && !keys_read(&self->keys, &c);
	env = getenv("FTNL_ENCAP_CYCLES");
	if (env && *env)
		cycles = (unsigned int)strtoul(env, NULL, 10);
	t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, t);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		traffic_run(t);

	/* The traffic runs before the first set. */
	for (i = 0; i < 500 && traffic_received(t) < 100; i++)
		usleep(10 * 1000);
	ASSERT_LE(100u, traffic_received(t)) {
		kill(pid, SIGKILL);
		TH_LOG("no traffic: child errno %d", t->failed_errno);
	}

	last = traffic_received(t);
	for (i = 0; i < cycles; i++) {
		if (ftnl_cluster_set(self->h, &self->cfg) || ftnl_cluster_del(self->h)) {
			TH_LOG("cycle %u: %s", i, ftnl_errmsg(self->h));
			break;
		}
		if (have_keys && !keys_read(&self->keys, &c)) {
			if (c.v4 < lowest.v4)
				lowest.v4 = c.v4;
			if (c.v6 < lowest.v6)
				lowest.v6 = c.v6;
		}
		/* The traffic flows through the whole run. */
		if (i % 20 == 19) {
			now = traffic_received(t);
			if (now == last)
				stalls++;
			last = now;
		}
	}
	EXPECT_EQ(0, waitpid(pid, &status, WNOHANG)) {
		TH_LOG("the traffic child died during the cycles (status %#x)", status);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	TH_LOG("%u cycles, %" PRIu64 " datagrams sent, %" PRIu64 " received, lowest key counts %d/%d",
	       i, t->sent, t->received, lowest.v4, lowest.v6);
	EXPECT_EQ(cycles, i);
	EXPECT_EQ(0u, stalls);
	if (have_keys) {
		EXPECT_LE(1, lowest.v4);
		EXPECT_LE(1, lowest.v6);
	}
	munmap(t, sizeof(*t));
}

TEST_HARNESS_MAIN
