// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the selftest initramfs: mount /proc and a tmpfs on /tmp, run
 * each program in /tests from /tmp with its output on the console, report
 * how it ended, and reboot, which makes QEMU (-no-reboot) exit.  On
 * sparc64 a reboot fails under QEMU ("Reboot failed!", a panic that reboots
 * again: kunit.py's sparc64 config has kunit_shutdown=poweroff for it), so
 * there /init powers the machine off, which ends QEMU.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>

/*
 * A compat ABI's test is preadv_test_<abi>.bin, which its launcher (here
 * /tests/preadv_test) execs from its own directory: it is not a program of
 * its own to run.
 */
static int is_program(const char *name)
{
	size_t len = strlen(name);

	return name[0] != '.' && !(len > 4 && !strcmp(name + len - 4, ".bin"));
}

static int run(const char *name)
{
	char path[256];
	int status;
	pid_t pid;

	snprintf(path, sizeof(path), "/tests/%s", name);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { path, NULL };

		execv(path, argv);
		perror(path);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		perror("fork/waitpid");
		return 1;
	}
	if (WIFSIGNALED(status)) {
		printf("# init: %s killed by signal %d\n", name, WTERMSIG(status));
		return 1;
	}
	printf("# init: %s exited with %d\n", name, WEXITSTATUS(status));
	return WEXITSTATUS(status) != 0;
}

int main(void)
{
	struct dirent **names;
	int i, n, failed = 0;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (mount("proc", "/proc", "proc", 0, NULL) ||
	    mount("tmpfs", "/tmp", "tmpfs", 0, "size=50%") || chdir("/tmp")) {
		perror("# init: mount");
		failed = 1;
	}
	n = scandir("/tests", &names, NULL, alphasort);
	for (i = 0; !failed && i < n; i++)
		if (is_program(names[i]->d_name))
			failed |= run(names[i]->d_name);
	printf("# init: done, %s\n", failed ? "FAILED" : "all passed");
	sync();
#ifdef __sparc__
	reboot(RB_POWER_OFF);
#else
	reboot(RB_AUTOBOOT);
#endif
	return 1;
}
