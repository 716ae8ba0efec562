/*
 * datadir: where gpucap's shipped data (the example scenarios and their traces) lives, found at run time.
 *
 * No absolute path is compiled in: an installed or copied binary finds its data relative to itself, so
 * moving the tree, or installing under any prefix, keeps `gpucap run` working. The places tried, in order:
 *   1. $GPUCAP_DATA_DIR, when set (a packager's or user's override);
 *   2. <dir of the executable>/../share/gpucap   (an installed tree: P/bin/gpucap, P/share/gpucap);
 *   3. <dir of the executable>/share/gpucap      (a build tree: CMake links build/share/gpucap/scenarios to
 *                                                 the source tree's scenarios/ when it configures).
 * A place counts only if it holds scenarios/chat-serving.yaml. The executable's own path is read from
 * /proc/self/exe (Linux, the platform gpucap is built for).
 */
#ifndef GPUCAP_DATADIR_H
#define GPUCAP_DATADIR_H

#include <stddef.h>

/* The default scenario's name inside <data dir>/scenarios/. */
#define DATADIR_DEFAULT_SCENARIO "chat-serving.yaml"

/*
 * Write the data directory into buf (size bytes). Returns 0, or STATUS_ENOENT when no place holds the
 * data; then buf holds the places tried, separated by ", ", for the error message.
 */
int datadir_find(char *buf, size_t size);

/*
 * Write the default scenario's path into buf. Returns 0, or STATUS_ENOENT with buf holding a message that
 * names the places tried.
 */
int datadir_default_scenario(char *buf, size_t size);

#endif
