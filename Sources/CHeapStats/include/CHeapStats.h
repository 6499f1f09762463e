#ifndef C_HEAP_STATS_H
#define C_HEAP_STATS_H

#include <stddef.h>

/// Bytes the C allocator has handed out and not taken back, over every arena: what a leak grows. Unlike resident
/// memory, it does not move when a new thread gets an arena of its own or when freed pages stay mapped. Returns 0
/// where the C library cannot tell (anything but glibc 2.33 or later).
size_t pony_heap_bytes_in_use(void);

#endif
