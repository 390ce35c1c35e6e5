// SPDX-License-Identifier: LGPL-2.1-or-later
/* Registered processes (FTNL_CMD_PROC_*): placeholder until implemented. */
