/*
 * alloc-count: an LD_PRELOAD shim that counts heap allocations, for `motionbatch capture
 * benchmark` (allocations per wake-up of the capture's whole path) and its test. Not part of the
 * package: built at test or benchmark time into a temporary directory with Debian's gcc:
 *
 *   gcc -O2 -shared -fPIC -o DIR/alloc-count.so scripts/alloc-count/alloc-count.c
 *   LD_PRELOAD=DIR/alloc-count.so motionbatch capture benchmark --json
 *
 * Every allocating entry point is replaced by one that counts (relaxed atomic counters: any
 * thread may allocate) and forwards to glibc's own allocator (`__libc_malloc` and friends), so the
 * program runs on the allocator it always uses. The benchmark reads the counts through
 * `alloc_count_snapshot`, looked up with dlsym (absent when the shim is not loaded). With
 * ALLOC_COUNT_REPORT set, the totals are also printed on stderr at exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static uint64_t allocations; /* malloc, calloc, aligned allocations, realloc of NULL */
static uint64_t reallocations; /* realloc of a block */
static uint64_t frees; /* free of a block (not of NULL) */
static uint64_t bytes; /* bytes asked for by the allocations and reallocations */

static inline void count(uint64_t *counter, size_t size) {
    __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&bytes, (uint64_t)size, __ATOMIC_RELAXED);
}

void *malloc(size_t size) {
    count(&allocations, size);
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    count(&allocations, n * size);
    return __libc_calloc(n, size);
}

void *realloc(void *pointer, size_t size) {
    count(pointer ? &reallocations : &allocations, size);
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    if (pointer) __atomic_fetch_add(&frees, 1, __ATOMIC_RELAXED);
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    count(&allocations, size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(&allocations, size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count(&allocations, size);
    void *p = __libc_memalign(alignment, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t size) {
    count(&allocations, size);
    return __libc_memalign((size_t)sysconf(_SC_PAGESIZE), size);
}

/* The counts so far: allocations, reallocations, frees, bytes (in this order; `out` holds 4). */
void alloc_count_snapshot(uint64_t *out) {
    out[0] = __atomic_load_n(&allocations, __ATOMIC_RELAXED);
    out[1] = __atomic_load_n(&reallocations, __ATOMIC_RELAXED);
    out[2] = __atomic_load_n(&frees, __ATOMIC_RELAXED);
    out[3] = __atomic_load_n(&bytes, __ATOMIC_RELAXED);
}

__attribute__((destructor)) static void report(void) {
    if (!getenv("ALLOC_COUNT_REPORT")) return;
    char line[160];
    int n = snprintf(line, sizeof line, "alloc-count: %llu allocations, %llu reallocations, %llu frees, %llu bytes\n",
                     (unsigned long long)allocations, (unsigned long long)reallocations,
                     (unsigned long long)frees, (unsigned long long)bytes);
    if (n > 0) (void)!write(2, line, (size_t)n);
}
