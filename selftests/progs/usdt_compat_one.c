// SPDX-License-Identifier: GPL-2.0
/* usdt_compat_usdt.c's reader alone: nothing keeps libbpf from shrinking the
 * spec and IP maps in attach data mode but a size the user set.
 */
#define USDT_COMPAT_READER_ONLY
#include "usdt_compat_usdt.c"
