// The cost of one clock read, as the Performance article quotes it: 10 million reads of each clock in a loop, the
// thread's CPU time for the whole loop divided by the reads (CPU time, so that time spent descheduled on a loaded
// machine does not count; cache and frequency effects of the load still do). Build and run it outside SwiftPM:
//
//     cc -O2 -o /tmp/clock-reads Assets/Benchmarks/clock-reads.c && /tmp/clock-reads
//
// It prints nanoseconds per read for CLOCK_MONOTONIC (what the monitor reads around every handler run),
// CLOCK_MONOTONIC_COARSE (what a registration's `registeredAt` reads) and, on x86-64, the time-stamp counter read
// with `rdtsc` and with `rdtscp` (the one Swift reaches, through `_Builtin_intrinsics.intel`).
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

enum { reads = 10000000 };

// The calling thread's CPU time, in nanoseconds.
static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time);
    return (double)time.tv_sec * 1e9 + (double)time.tv_nsec;
}

// Reads `clock` `reads` times and returns the nanoseconds per read; the sum keeps the reads from being removed.
static double clockReads(clockid_t clock, volatile uint64_t *sink) {
    struct timespec time;
    uint64_t sum = 0;
    double start = now();
    for (int index = 0; index < reads; index++) {
        clock_gettime(clock, &time);
        sum += (uint64_t)time.tv_nsec;
    }
    double elapsed = now() - start;
    *sink = sum;
    return elapsed / reads;
}

int main(void) {
    volatile uint64_t sink = 0;
    printf("CLOCK_MONOTONIC         %6.1f ns a read\n", clockReads(CLOCK_MONOTONIC, &sink));
    printf("CLOCK_MONOTONIC_COARSE  %6.1f ns a read\n", clockReads(CLOCK_MONOTONIC_COARSE, &sink));
#if defined(__x86_64__)
    uint64_t sum = 0;
    double start = now();
    for (int index = 0; index < reads; index++) sum += __rdtsc();
    printf("rdtsc                   %6.1f ns a read\n", (now() - start) / reads);
    unsigned int processor;
    start = now();
    for (int index = 0; index < reads; index++) sum += __rdtscp(&processor);
    printf("rdtscp                  %6.1f ns a read\n", (now() - start) / reads);
    sink = sum;
#endif
    return sink == 42;
}
