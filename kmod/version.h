/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _FTNL_VERSION_H
#define _FTNL_VERSION_H

#define FTNL_MODULE_VERSION "0.1.0"

#endif /* _FTNL_VERSION_H */
