// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The shared library exports the API and nothing else, every symbol under
 * the version node of libftnl.map: opens build/lib/libftnl.so.1 (next to
 * this test's directory) with dlopen.
 */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static const char *const api[] = {
	"ftnl_open", "ftnl_close", "ftnl_errmsg", "ftnl_errno",
	"ftnl_error_attr", "ftnl_attr_name", "ftnl_node_attr_name",
	"ftnl_info_get", "ftnl_feature_name", "ftnl_cluster_set",
	"ftnl_cluster_get", "ftnl_cluster_del", "ftnl_node_dump",
	"ftnl_node_list", "ftnl_node_table_free", "ftnl_node_state_name",
	"ftnl_events_open", "ftnl_events_fd", "ftnl_events_read",
	"ftnl_events_wait", "ftnl_events_close", "ftnl_config_parse_file",
	"ftnl_config_parse_string", "ftnl_config_free", "ftnl_config_validate",
	"ftnl_parse_u32", "ftnl_parse_port", "ftnl_parse_duration_us",
	"ftnl_format_duration", "ftnl_parse_key", "ftnl_read_key_file",
	"ftnl_pair_key", "ftnl_config_set_pair_keys",
	"ftnl_config_set_cluster_key",
	"ftnl_parse_addr", "ftnl_format_addr", "ftnl_cluster_leave",
	"ftnl_node_readmit", "ftnl_stats_get", "ftnl_drop_reason_name",
	"ftnl_event_cause_name", "ftnl_event_history", "ftnl_bcast_algo_name",
	"ftnl_parse_bcast_algo", "ftnl_stats_bcast_latency_mean_ns",
	"ftnl_proc_register", "ftnl_proc_unregister", "ftnl_proc_dump",
	"ftnl_group_spec_parse_file", "ftnl_group_spec_from_env",
	"ftnl_group_spec_free", "ftnl_group_open", "ftnl_group_close",
	"ftnl_group_job", "ftnl_group_world_rank", "ftnl_group_world_size",
	"ftnl_group_fd", "ftnl_group_progress", "ftnl_group_report_failure",
	"ftnl_group_failed", "ftnl_group_failure_ack", "ftnl_group_get_acked",
	"ftnl_group_agree", "ftnl_group_iagree", "ftnl_group_req_test",
	"ftnl_group_req_wait", "ftnl_group_req_free", "ftnl_group_view",
	"ftnl_group_shrink", "ftnl_group_on_view_change",
	"ftnl_group_get_stats", "ftnl_config_match_self",
	"ftnl_config_resolve_self", "ftnl_group_join_start", "ftnl_group_join",
	"ftnl_group_is_member", "ftnl_group_joiners", "ftnl_group_grow",
};

static const char *const internals[] = {
	"ftnl_request", "ftnl_msg_cluster_set", "ftnl_attr_walk",
	"ftnl_msg_parse_ack", "ftnl_locate_error", "ftnl_handle_wrap_fd",
	"ftnl_check_node", "ftnl_find_duplicate", "ftnl_recv_datagram",
	"ftnl_format_err", "era_group_create", "era_start", "vall_group_create",
	"vall_start", "grp_msg_frame", "grp_transport_open",
	"grp_detector_open", "grp_view_create", "ftnl_read_all",
	"ftnl_rules_config", "ftnl_rules_table", "ftnl_split_words",
};

static void *lib;

static void test_open(const void *arg)
{
	char exe[PATH_MAX], path[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	(void)arg;
	if (!TAP_CHECK(n > 0))
		return;
	exe[n] = '\0';
	snprintf(path, sizeof(path), "%s/../lib/libftnl.so.1", dirname(exe));
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!TAP_CHECK(lib))
		tap_diag("dlopen %s: %s", path, dlerror());
}

static void test_exported(const void *arg)
{
	const char *name = arg;

	if (!lib) {
		TAP_SKIP("library not loaded");
		return;
	}
	TAP_CHECK(dlsym(lib, name));
	/* Programs linked against it record this version (libftnl.map). */
	TAP_CHECK(dlvsym(lib, name, "LIBFTNL_1.0"));
}

static void test_hidden(const void *arg)
{
	const char *name = arg;

	if (!lib) {
		TAP_SKIP("library not loaded");
		return;
	}
	TAP_CHECK(!dlsym(lib, name));
}

static void test_close(const void *arg)
{
	(void)arg;
	if (lib)
		TAP_CHECK_INT(dlclose(lib), 0);
	else
		TAP_SKIP("library not loaded");
}

int main(void)
{
	size_t i;

	tap_add(test_open, NULL, "dlopen libftnl.so.1");
	for (i = 0; i < FTNL_ARRAY_SIZE(api); i++)
		tap_add(test_exported, api[i], "exported: %s", api[i]);
	for (i = 0; i < FTNL_ARRAY_SIZE(internals); i++)
		tap_add(test_hidden, internals[i], "hidden: %s", internals[i]);
	tap_add(test_close, NULL, "dlclose");
	return tap_run();
}
