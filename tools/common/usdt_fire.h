/* SPDX-License-Identifier: GPL-2.0 */
/* usdt_fire.c's probes: fire PROVIDER:argsK (K = 1, 3, 6 or 12) N times, on
 * <sys/sdt.h> sites, or with usdt_fire10() bench10:argsK on nop10 sites.
 */
#ifndef USDT_FIRE_H
#define USDT_FIRE_H

void usdt_fire(int k, int n);
void usdt_fire10(int k, int n);

#endif
