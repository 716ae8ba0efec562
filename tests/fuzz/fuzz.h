/*
 * fuzz: what the fuzz targets share (tests/fuzz/, tests/README.md "Fuzzing").
 *
 * Each target is one file, fuzz_<name>.c, that defines LLVMFuzzerTestOneInput: the entry point libFuzzer
 * calls with every input it makes (GPUCAP_FUZZ=ON, clang) and that the replay driver (replay.c, any
 * compiler) calls with every file of the target's corpus and crashes folders, as an ordinary CTest test.
 * A target returns 0 for every input, accepted or refused: a refusal is a status and a message, which is
 * the reader doing its job. It aborts (fuzz_check) when a reader breaks its own contract: a failure with
 * no message, a success whose result violates the header's invariants. Crashes, hangs, leaks and undefined
 * behaviour are found by the sanitizers libFuzzer is built with.
 *
 * Readers that take a path get the input written to one temporary file per process (fuzz_file): the
 * harness is process-wide state by nature, one input at a time, so the path lives in a static.
 */
#ifndef GPUCAP_FUZZ_H
#define GPUCAP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The entry point every target defines; data (borrowed) is not NUL-terminated. Returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of data (a NUL inside ends the text early, as it would in a C string); returns
 * owned. Aborts when out of memory: the harness has no other way to say so. */
char *fuzz_text(const uint8_t *data, size_t size);

/* Write data to this process's temporary file (under /dev/shm when it exists, else /tmp; created on first
 * use, removed at exit, `tag` names it) and return its path (static storage). Aborts on an I/O error. */
const char *fuzz_file(const uint8_t *data, size_t size, const char *tag);

/* Abort with `what` on stderr when `ok` is false: the reader broke its contract. */
void fuzz_check(int ok, const char *what);

/* Call once per input before using the library: turns GSL's aborting error handler off, as main() does. */
void fuzz_setup(void);

#endif
