/* The ampvk command-line tool: shared declarations of its subcommands.
 *
 * Each subcommand is `int ampvk_<name>_main(int argc, char **argv)` with argv[0] the
 * subcommand's name ("filter"), and returns the process's exit code:
 *   0  success (diff: the images match within the tolerance)
 *   1  failure (diff: the images differ; filter: a file failed; any device error)
 *   2  a usage error (one line on stderr), or diff's "could not compare"
 * `--help` / `-h` anywhere prints the subcommand's help on stdout and returns 0.
 * Nothing here aborts on bad input: every error is a message and an exit code. */
#ifndef AMPVK_TOOL_H
#define AMPVK_TOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "ampvk/ampvk.h"

int ampvk_info_main(int argc, char **argv);
int ampvk_filter_main(int argc, char **argv);
int ampvk_diff_main(int argc, char **argv);

/* What ampvk diff GOLDEN_DIR ACTUAL_DIR does (diff_folder.c). */
typedef struct diff_folder_options {
    const char *golden, *actual;
    const amp_image_compare_desc *desc;
    const char *report; /* --report DIR, or NULL */
    const char *junit;  /* --junit FILE, or NULL */
    bool json, update;
} diff_folder_options;
int ampvk_diff_folders(const diff_folder_options *o);
int ampvk_bench_main(int argc, char **argv);

/* The program's name for messages: "ampvk". */
extern const char *tool_program;

/* Prints "ampvk CMD: <message>" and a hint to run --help, as one line on stderr;
 * returns 2 (the usage-error exit code). */
int tool_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "ampvk CMD: <message>" as one line on stderr; returns 1. */
int tool_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* True when any of argv[1..argc-1] is --help or -h (before a "--"). */
bool tool_wants_help(int argc, char **argv);

/* Reads option argv[*i] of the form "--name VALUE" or "--name=VALUE". Returns true
 * and sets *value (advancing *i past a separate value) when argv[*i] is that option;
 * a missing value is a usage error: *value is NULL and *i unchanged. */
bool tool_option(int argc, char **argv, int *i, const char *name, const char **value);

/* Parses a whole decimal integer in [lo, hi]; false if it is not one. */
bool tool_parse_long(const char *s, long lo, long hi, long *out);
/* Parses a whole finite number; false if it is not one. */
bool tool_parse_double(const char *s, double *out);

/* Applies --device SPEC (not "all"): an index, a device_path or a name substring, as
 * AMPVK_DEFAULT_ACCELERATOR. Returns 0, or prints the error and returns 1. */
int tool_select_device(const char *cmd, const char *spec);

/* Writes s to stdout as a JSON string: quoted, escaped, U+FFFD for bytes that are not UTF-8. */
void tool_json_string(const char *s);

/* Seconds on a monotonic clock. */
double tool_now(void);

/* The image files (by extension; hidden files skipped) of dir, and with recursive of
 * its folders too, as paths relative to dir, sorted; -1 when dir cannot be read. */
long tool_list_images(const char *dir, bool recursive, char ***out);

#endif
