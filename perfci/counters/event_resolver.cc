#include "perfci/counters/event_resolver.h"

#include <perfmon/pfmlib_perf_event.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

#include "perfci/counters/pmu_info.h"
#include "perfci/util/error.h"

namespace perfci {
namespace {

int initialize_pfm() {
  static int rc = pfm_initialize();
  return rc;
}

bool encode(const std::string& name, int plm, ResolvedEvent* out, std::string* error) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  char* fstr = nullptr;
  pfm_perf_encode_arg_t arg;
  std::memset(&arg, 0, sizeof arg);
  arg.attr = &attr;
  arg.fstr = &fstr;
  arg.size = sizeof arg;
  int rc = pfm_get_os_event_encoding(name.c_str(), plm, PFM_OS_PERF_EVENT_EXT, &arg);
  if (rc != PFM_SUCCESS) {
    if (error) *error = "unknown event '" + name + "': " + pfm_strerror(rc) + " (libpfm4)";
    std::free(fstr);
    return false;
  }
  attr.size = sizeof attr;
  out->name = name;
  out->canonical = fstr ? fstr : name;
  out->attr = attr;
  std::free(fstr);
  return true;
}

}  // namespace

bool may_count_kernel() {
  if (::geteuid() == 0) return true;
  auto paranoid = perf_event_paranoid();
  return paranoid && *paranoid < 2;
}

std::optional<ResolvedEvent> try_resolve_event(const std::string& name, std::string* error,
                                               const ResolveOptions& options) {
  // libpfm4 keeps global tables; resolution is rare, a lock keeps it simple.
  static std::mutex mu;
  std::lock_guard lock(mu);
  if (int rc = initialize_pfm(); rc != PFM_SUCCESS) {
    if (error) *error = std::string("libpfm4 initialisation failed: ") + pfm_strerror(rc);
    return std::nullopt;
  }
  if (name.empty()) {
    if (error) *error = "empty event name";
    return std::nullopt;
  }
  ResolvedEvent ev;
  if (!encode(name, PFM_PLM3, &ev, error)) return std::nullopt;
  // A modifier in the name (":u", ":k") is the user's explicit choice.
  bool has_modifier = name.find(':') != std::string::npos && name.rfind("perf::", 0) != 0;
  if (ev.is_software() && options.include_kernel_for_software && !has_modifier &&
      may_count_kernel()) {
    ResolvedEvent both;
    if (encode(name, PFM_PLM0 | PFM_PLM3, &both, nullptr)) ev = both;
  }
  return ev;
}

ResolvedEvent resolve_event(const std::string& name, const ResolveOptions& options) {
  std::string error;
  auto ev = try_resolve_event(name, &error, options);
  if (!ev) throw Error(error);
  return *ev;
}

}  // namespace perfci
