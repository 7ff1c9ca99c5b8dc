// libperfci_alloc_counter.so: the allocation counter perfci preloads
// (LD_PRELOAD) into a benchmark when it measures bytes allocated per
// iteration. It stands in front of the C allocator's entry points, counts
// each allocation and the bytes asked for, and hands the call on to the
// allocator that comes next (glibc's, or any other the binary loads), so the
// program's own allocator is kept. perfci::BenchHook reads the totals at the
// start and end of its region (perfci_alloc_counter_totals, found with
// dlsym): bytes come from the region only, not from setup.
//
// Not in the hook library itself: a binary that links the hook must keep
// its allocator untouched (and AddressSanitizer, which replaces malloc, must
// stay first) whenever perfci is not counting bytes. Only perfci's own
// native bytes run loads this library.
//
// operator new and its aligned forms reach malloc / aligned_alloc in
// libstdc++, so they are counted there, once each, the way the callgrind
// meter counts an allocation (an edge into the allocator from outside it).
#include <dlfcn.h>
#include <malloc.h>
#include <stdlib.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace {

struct Next {
  void* (*malloc)(size_t) = nullptr;
  void* (*calloc)(size_t, size_t) = nullptr;
  void* (*realloc)(void*, size_t) = nullptr;
  void* (*reallocarray)(void*, size_t, size_t) = nullptr;
  void* (*aligned_alloc)(size_t, size_t) = nullptr;
  int (*posix_memalign)(void**, size_t, size_t) = nullptr;
  void* (*memalign)(size_t, size_t) = nullptr;
  void* (*valloc)(size_t) = nullptr;
  void* (*pvalloc)(size_t) = nullptr;
  void (*free)(void*) = nullptr;
};

Next next;
bool resolving = false;
std::atomic<std::uint64_t> calls{0};
std::atomic<std::uint64_t> bytes{0};

// dlsym may allocate (its error buffer) before the next calloc is known:
// those few blocks come from here and are never handed to the allocator.
alignas(std::max_align_t) unsigned char arena[8192];
std::size_t arena_used = 0;

bool in_arena(const void* p) {
  auto* c = static_cast<const unsigned char*>(p);
  return c >= arena && c < arena + sizeof arena;
}

void* arena_alloc(size_t n) {
  const std::size_t a = alignof(std::max_align_t);
  const std::size_t at = (arena_used + a - 1) / a * a;
  if (n > sizeof arena - at) return nullptr;
  arena_used = at + n;
  for (std::size_t i = 0; i < n; ++i) arena[at + i] = 0;  // serves calloc too
  return arena + at;
}

template <typename F>
void find(F*& slot, const char* name) {
  slot = reinterpret_cast<F*>(dlsym(RTLD_NEXT, name));
}

// The first allocation happens while the dynamic loader still runs the
// program single-threaded, so resolving once there needs no lock.
void resolve() {
  if (next.free || resolving) return;
  resolving = true;
  find(next.malloc, "malloc");
  find(next.calloc, "calloc");
  find(next.realloc, "realloc");
  find(next.reallocarray, "reallocarray");
  find(next.aligned_alloc, "aligned_alloc");
  find(next.posix_memalign, "posix_memalign");
  find(next.memalign, "memalign");
  find(next.valloc, "valloc");
  find(next.pvalloc, "pvalloc");
  find(next.free, "free");
  resolving = false;
}

void count(size_t n) {
  calls.fetch_add(1, std::memory_order_relaxed);
  bytes.fetch_add(n, std::memory_order_relaxed);
}

}  // namespace

extern "C" {

// What the hook reads: allocations and bytes asked for since the start.
__attribute__((visibility("default"))) void perfci_alloc_counter_totals(std::uint64_t* n_calls,
                                                                        std::uint64_t* n_bytes) {
  *n_calls = calls.load(std::memory_order_relaxed);
  *n_bytes = bytes.load(std::memory_order_relaxed);
}

void* malloc(size_t n) noexcept {
  resolve();
  if (!next.malloc) return arena_alloc(n);
  count(n);
  return next.malloc(n);
}

void* calloc(size_t k, size_t n) noexcept {
  resolve();
  if (!next.calloc) return k && n > SIZE_MAX / k ? nullptr : arena_alloc(k * n);
  count(k * n);
  return next.calloc(k, n);
}

void* realloc(void* p, size_t n) noexcept {
  resolve();
  if (p && in_arena(p)) {  // leave the arena block where it is
    void* q = malloc(n);
    if (!q) return nullptr;
    const std::size_t have =
        static_cast<std::size_t>(arena + sizeof arena - static_cast<unsigned char*>(p));
    for (std::size_t i = 0; i < n && i < have; ++i)
      static_cast<unsigned char*>(q)[i] = static_cast<unsigned char*>(p)[i];
    return q;
  }
  if (n > 0) count(n);  // realloc(p, 0) frees
  return next.realloc(p, n);
}

void* reallocarray(void* p, size_t k, size_t n) noexcept {
  resolve();
  if (in_arena(p) || !next.reallocarray) return k && n > SIZE_MAX / k ? nullptr : realloc(p, k * n);
  if (k * n > 0) count(k * n);
  return next.reallocarray(p, k, n);
}

void* aligned_alloc(size_t align, size_t n) noexcept {
  resolve();
  count(n);
  return next.aligned_alloc(align, n);
}

int posix_memalign(void** out, size_t align, size_t n) noexcept {
  resolve();
  count(n);
  return next.posix_memalign(out, align, n);
}

void* memalign(size_t align, size_t n) noexcept {
  resolve();
  count(n);
  return next.memalign(align, n);
}

void* valloc(size_t n) noexcept {
  resolve();
  count(n);
  return next.valloc(n);
}

void* pvalloc(size_t n) noexcept {
  resolve();
  count(n);
  return next.pvalloc(n);
}

void free(void* p) noexcept {
  if (!p || in_arena(p)) return;
  resolve();
  next.free(p);
}

}  // extern "C"
