#include "CHeapStats.h"

#include <stdlib.h>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

size_t pony_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    // Small blocks in use in every arena, plus blocks the allocator mapped on their own.
    return info.uordblks + info.hblkhd;
}
#else
size_t pony_heap_bytes_in_use(void) { return 0; }
#endif
