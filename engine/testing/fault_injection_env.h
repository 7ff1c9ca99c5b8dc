// A simulated disk that can lose power (LevelDB's FaultInjectionTestEnv, in
// the spirit of SQLite's crash VFS): an Env whose files live in memory and
// remember, per file, what was synced and every write and truncation since.
// Names are remembered the same way: a creation or deletion is durable only
// after a directory sync.
//
// At a chosen operation the power goes: that operation and every later one
// fails, and Survivors() tells what the disk holds afterwards — each file's
// synced bytes plus none, a random subset (applied in random order), or all
// but a torn tail of its unsynced writes; and for each name whose creation
// or deletion was not synced, either state. WriteSurvivors() puts those bytes
// in real files, to be reopened through the POSIX Env (hot-journal recovery).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/storage/env.h"

namespace engine::testing {

// What happens to the writes that were not synced when the power goes.
enum class CutMode {
  kDropUnsynced,  // none survives; nor does any unsynced name change
  kRandomSubset,  // each survives or not, in a random order
  kTornWrite,     // all in order, but the last one only partly (a torn sector)
};
const char* CutModeName(CutMode m);

class FaultInjectionEnv final : public Env {
 public:
  FaultInjectionEnv() = default;

  // The power goes at the n-th mutating operation from now (1-based: a
  // write, sync, truncation, creation, deletion or directory sync); 0: never.
  void CutAt(uint64_t n) { cut_at_ = n == 0 ? 0 : ops_ + n; }
  // The n-th mutating operation from now fails with an I/O error, once; the
  // disk keeps working (a full disk, a transient error). 0: never.
  void FailOnce(uint64_t n) { fail_at_ = n == 0 ? 0 : ops_ + n; }
  // Mutating operations so far.
  uint64_t ops() const { return ops_; }
  bool power_cut() const { return cut_; }
  // Makes everything written so far durable, names included (the state a
  // workload starts from), and forgets the history.
  void SyncEverything();

  // Every name with what the process sees in it now (no power cut).
  std::map<std::string, std::string> Current() const;
  // After the cut (or at any time): the bytes of each surviving name.
  std::map<std::string, std::string> Survivors(CutMode mode, std::mt19937_64& rng) const;
  // Replaces the real files of those names with the survivors' bytes, and
  // removes the real files of the names that did not survive.
  Status WriteSurvivors(const std::map<std::string, std::string>& survivors) const;

  Result<std::unique_ptr<File>> Open(const std::string& path, File::Mode mode) override;
  Result<std::unique_ptr<File>> OpenTemp() override;
  bool Exists(const std::string& path) override;
  Status Delete(const std::string& path) override;
  Status SyncDir(const std::string& path) override;

  // What one simulated file holds. Public for the file handles only.
  struct Inode {
    struct Op {
      bool truncate;  // else a write of `bytes` at `at`
      uint64_t at;    // offset, or the new size
      std::string bytes;
    };
    std::string data;     // what reads see now
    std::string durable;  // what a power cut keeps for certain
    std::vector<Op> unsynced;
  };
  // Counts one mutating operation; fails once the power is cut. The failing
  // operation itself is `cut_op`: a write in flight may still reach the disk.
  Status Step();

 private:
  uint64_t ops_ = 0;
  uint64_t cut_at_ = 0;
  uint64_t fail_at_ = 0;
  bool cut_ = false;
  std::map<std::string, std::shared_ptr<Inode>> names_;    // as the process sees them
  std::map<std::string, std::shared_ptr<Inode>> durable_;  // as of the last directory sync
  std::vector<std::string> all_names_;                     // every name ever bound
};

}  // namespace engine::testing
