// SPDX-License-Identifier: GPL-2.0
/*
 * A GCC plugin for Debian 12's sh4-linux-gnu-gcc (GCC 12), which switches
 * off the SH-only RTL pass sh_treg_combine (sh_treg_combine1..3).  GCC 12's
 * gcc/config/sh/sh_treg_combine.cc declares t_reg_operand() and
 * negt_reg_operand() as returning int while genpreds generates them
 * returning bool, so the pass takes an ordinary register set for a store
 * of the inverted T bit and deletes the tst before a bt or bf: the branch
 * then tests whatever T held.  GCC fixed the declarations on 2022-11-17
 * ("sh_treg_combine.cc: Include tm-preds.h, remove bogus prototypes"),
 * first in 13.1; GCC 12 has the bug.  The pass only combines T-bit
 * sequences into shorter ones; without it the code is what -O2 gives
 * otherwise.  -fdisable-rtl-sh_treg_combine2 cannot do this: the target
 * registers the pass after the options are read.
 *
 * Built by tools/sh/compiler.sh against gcc-12-plugin-dev-sh4-linux-gnu.
 */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree-pass.h"

int plugin_is_GPL_compatible;

/* PLUGIN_OVERRIDE_GATE: no sh_treg_combine pass runs. */
static void gate(void *gcc_data, void *user_data)
{
	bool *run = (bool *)gcc_data;

	if (current_pass && current_pass->name &&
	    !strncmp(current_pass->name, "sh_treg_combine", 15))
		*run = false;
}

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	if (!plugin_default_version_check(version, &gcc_version))
		return 1;
	register_callback(info->base_name, PLUGIN_OVERRIDE_GATE, gate, NULL);
	return 0;
}
