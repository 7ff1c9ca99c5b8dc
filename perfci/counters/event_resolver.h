// Turns event names as perf users write them ("instructions", "task-clock",
// "perf::PERF_COUNT_SW_PAGE_FAULTS", "skl::L1D:REPLACEMENT") into
// perf_event_attr through libpfm4, which knows every PMU's encodings.
#pragma once

#include <linux/perf_event.h>

#include <optional>
#include <string>

namespace perfci {

struct ResolvedEvent {
  std::string name;       // as requested
  std::string canonical;  // libpfm4's fully qualified form, for reports
  perf_event_attr attr{};

  // Software events never need a PMU; they form the fallback group.
  bool is_software() const { return attr.type == PERF_TYPE_SOFTWARE; }
};

struct ResolveOptions {
  // Count kernel-mode work too (PFM_PLM0). Hardware events are user-only by
  // default; context switches and migrations happen in the kernel, so
  // software events include it when the process may (root or paranoid < 2).
  bool include_kernel_for_software = true;
};

// Empty optional and *error set ("unknown event 'foo': event not found") when
// libpfm4 cannot encode the name.
std::optional<ResolvedEvent> try_resolve_event(const std::string& name, std::string* error,
                                               const ResolveOptions& options = {});

// Throws perfci::Error naming the event.
ResolvedEvent resolve_event(const std::string& name, const ResolveOptions& options = {});

// Whether this process may count kernel-mode events (root or paranoid < 2).
bool may_count_kernel();

}  // namespace perfci
