// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the one boot of a kernel (tools/boot.sh), which runs after the
 * built-in KUnit suites have printed their results:
 *
 *  - prints the build ID of the kernel (say_build_id());
 *  - kunit-modules: loads each /modules/NAME.ko, whose KUnit suites run
 *    as it loads;
 *  - one section per user ABI: runs the program in /tests/NN-ABI/ (the
 *    one whose name does not end in .bin: a compat ABI's launcher, which
 *    runs its .bin from the same directory), in /tmp, a tmpfs;
 *  - kselftest: runs /kselftest/run_kselftest.sh with busybox, as a
 *    kselftest CI does;
 *
 * then reboots, which makes QEMU (-no-reboot) exit; on sparc64 a reboot
 * fails under QEMU ("Reboot failed!", a panic that reboots again), so there
 * /init powers the machine off.
 *
 * Every line /init and the programs print goes to the kernel log through
 * /dev/kmsg, each program's as "ABI| line": the console then shows one
 * ordered stream of the kernel's messages and the programs' output.  The
 * console is written by a kernel thread of its own (nbcon), so that what a
 * program wrote to /dev/console could interleave with kernel messages not
 * yet printed, the built-in suites' results among them.  Each section is
 * framed by "workbench: begin NAME" and "workbench: end NAME: exit N in
 * Ss", for tools/boot.sh to cut the console log into one log per row.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* A record of the kernel log is at most 1024 bytes with its header. */
#define LINE_MAX_KMSG	900

static int kmsg = -1;

/* One line, as one record of the kernel log (or on stdout, failing that). */
static void emit(const char *prefix, const char *line, size_t len)
{
	char rec[LINE_MAX_KMSG + 64];
	int n;

	do {
		size_t part = len > LINE_MAX_KMSG ? LINE_MAX_KMSG : len;

		/* <14>: LOG_USER, LOG_INFO, as KUnit's results are printed. */
		n = snprintf(rec, sizeof(rec), "<14>%s%.*s\n", prefix, (int)part, line);
		if (kmsg < 0 || write(kmsg, rec, n) != n)
			fputs(rec + 4, stdout);
		line += part;
		len -= part;
	} while (len);
}

static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	emit("", buf, n < 0 ? 0 : (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Run ARGV in DIR with its output (stdout and stderr) emitted line by
 * line, each line prefixed with "NAME| "; its exit status, 128 + the
 * signal that killed it, or 127 if it could not run.
 */
static int run(const char *name, const char *dir, char *const argv[])
{
	char prefix[64], buf[4096];
	size_t have = 0;
	int pipefd[2], status;
	pid_t pid;
	ssize_t n;

	snprintf(prefix, sizeof(prefix), "%s| ", name);
	if (pipe(pipefd)) {
		say("workbench: %s: pipe: %m", name);
		return 127;
	}
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		close(pipefd[1]);
		if (chdir(dir)) {
			perror(dir);
			_exit(127);
		}
		execv(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		say("workbench: %s: fork: %m", name);
		return 127;
	}
	while ((n = read(pipefd[0], buf + have, sizeof(buf) - have)) > 0) {
		char *start = buf, *nl;

		have += n;
		while ((nl = memchr(start, '\n', buf + have - start))) {
			emit(prefix, start, nl - start);
			start = nl + 1;
		}
		have -= start - buf;
		memmove(buf, start, have);
		if (have == sizeof(buf)) {
			emit(prefix, buf, have);
			have = 0;
		}
	}
	if (have)
		emit(prefix, buf, have);
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) < 0) {
		say("workbench: %s: waitpid: %m", name);
		return 127;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int begin(const char *name)
{
	say("workbench: begin %s", name);
	return 0;
}

static int end(const char *name, int rc, double t0)
{
	say("workbench: end %s: exit %d in %.1fs", name, rc, now() - t0);
	return rc != 0;
}

/*
 * The build ID of the running kernel: the NT_GNU_BUILD_ID note of its
 * .notes section, which /sys/kernel/notes gives as it is (a header of three
 * 32-bit words in the kernel's byte order, then name and description, each
 * padded to four bytes).  tools/boot.sh checks it against the vmlinux it
 * built.
 */
static int say_build_id(void)
{
	unsigned char buf[4096], *p = buf, *end;
	char hex[2 * 64 + 1];
	int fd, i;
	ssize_t n;

	fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		say("workbench: /sys/kernel/notes: %m");
		return 1;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0) {
		say("workbench: /sys/kernel/notes: %m");
		return 1;
	}
	end = buf + n;
	while (end - p >= 12) {
		unsigned int namesz, descsz, type;
		unsigned char *name, *desc;

		memcpy(&namesz, p, 4);
		memcpy(&descsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		name = p + 12;
		if (((size_t)namesz + 3) / 4 * 4 > (size_t)(end - name))
			break;
		desc = name + ((size_t)namesz + 3) / 4 * 4;
		if (descsz > (size_t)(end - desc))
			break;
		if (type == 3 && namesz == 4 && !memcmp(name, "GNU", 4) &&
		    descsz > 0 && descsz <= 64) {
			for (i = 0; i < (int)descsz; i++)
				sprintf(hex + 2 * i, "%02x", desc[i]);
			say("workbench: build ID %s", hex);
			return 0;
		}
		if (((size_t)descsz + 3) / 4 * 4 > (size_t)(end - desc))
			break;
		p = desc + ((size_t)descsz + 3) / 4 * 4;
	}
	say("workbench: no build ID in /sys/kernel/notes (%zd bytes)", n);
	return 1;
}

static int entries(const char *dir, struct dirent ***names)
{
	int n = scandir(dir, names, NULL, alphasort);

	return n < 0 ? 0 : n;
}

static int load_modules(void)
{
	struct dirent **names;
	int i, n, failed = 0;
	double t0 = now();

	n = entries("/modules", &names);
	if (!n)
		return 0;
	begin("kunit-modules");
	for (i = 0; i < n; i++) {
		char path[300];
		int fd;

		if (!strstr(names[i]->d_name, ".ko"))
			continue;
		snprintf(path, sizeof(path), "/modules/%s", names[i]->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0)) {
			say("workbench: %s: %m", path);
			failed = 1;
		} else {
			say("workbench: loaded %s", path);
		}
		if (fd >= 0)
			close(fd);
	}
	return end("kunit-modules", failed, t0);
}

/* /tests/NN-ABI/: the section ABI runs the one program that is not a .bin. */
static int run_abi(const char *entry)
{
	const char *abi = strchr(entry, '-') ? strchr(entry, '-') + 1 : entry;
	char dir[300], prog[600];
	struct dirent **names;
	int i, n, rc = 127;
	double t0 = now();

	snprintf(dir, sizeof(dir), "/tests/%s", entry);
	begin(abi);
	n = entries(dir, &names);
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		if (names[i]->d_name[0] == '.' ||
		    (len > 4 && !strcmp(names[i]->d_name + len - 4, ".bin")))
			continue;
		snprintf(prog, sizeof(prog), "%s/%s", dir, names[i]->d_name);
		{
			char *argv[] = { prog, NULL };

			rc = run(abi, "/tmp", argv);
		}
		break;
	}
	if (rc == 127 && i == n)
		say("workbench: no program in %s", dir);
	return end(abi, rc, t0);
}

static int run_kselftest(void)
{
	char *install[] = { "/bin/busybox", "--install", "-s", "/bin", NULL };
	char *sh[] = { "/bin/sh", "-c", "./run_kselftest.sh", NULL };
	double t0 = now();
	int rc;

	if (access("/kselftest/run_kselftest.sh", X_OK))
		return 0;
	begin("kselftest");
	rc = run("kselftest", "/", install);
	if (!rc)
		rc = run("kselftest", "/kselftest", sh);
	return end("kselftest", rc, t0);
}

int main(void)
{
	struct dirent **names;
	int i, n, failed = 0;

	kmsg = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	setvbuf(stdout, NULL, _IONBF, 0);
	if (kmsg < 0)
		say("workbench: /dev/kmsg: %m: lines go to the console, where they can interleave with the kernel's");
	/*
	 * devtmpfs on /dev: the loop devices that the selftests make appear
	 * there (/dev/kmsg is open already).
	 */
	if (mount("proc", "/proc", "proc", 0, NULL) ||
	    mount("sysfs", "/sys", "sysfs", 0, NULL) ||
	    mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) ||
	    mount("tmpfs", "/tmp", "tmpfs", 0, "size=50%")) {
		say("workbench: mount: %m");
		failed = 1;
	}
	/* Which kernel this is, before anything else. */
	if (!failed)
		failed |= say_build_id();
	/* Every section runs, whatever the one before it did. */
	if (!failed) {
		failed |= load_modules();
		n = entries("/tests", &names);
		for (i = 0; i < n; i++)
			if (names[i]->d_name[0] != '.')
				failed |= run_abi(names[i]->d_name);
		failed |= run_kselftest();
	}
	say("workbench: done, %s", failed ? "FAILED" : "all passed");
	sync();
#ifdef __sparc__
	reboot(RB_POWER_OFF);
#else
	reboot(RB_AUTOBOOT);
#endif
	return 1;
}
