#include "engine/testing/fault_injection_env.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace engine::testing {
namespace {

constexpr uint64_t kSector = 512;

Status PowerCut() { return Status::IOError("disk I/O error (simulated power cut)"); }

std::string DirOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

void Apply(std::string& data, const FaultInjectionEnv::Inode::Op& op, size_t len) {
  if (op.truncate) {
    data.resize(op.at);
    return;
  }
  if (data.size() < op.at + len) data.resize(op.at + len, '\0');
  std::memcpy(data.data() + op.at, op.bytes.data(), len);
}

// The bytes an inode holds after the cut.
std::string Surviving(const FaultInjectionEnv::Inode& ino, CutMode mode, std::mt19937_64& rng) {
  std::string out = ino.durable;
  const auto& ops = ino.unsynced;
  switch (mode) {
    case CutMode::kDropUnsynced:
      break;
    case CutMode::kRandomSubset: {
      std::vector<size_t> kept;
      for (size_t i = 0; i < ops.size(); ++i) {
        if (rng() & 1) kept.push_back(i);
      }
      std::shuffle(kept.begin(), kept.end(), rng);
      for (size_t i : kept) Apply(out, ops[i], ops[i].bytes.size());
      break;
    }
    case CutMode::kTornWrite: {
      if (ops.empty()) break;
      for (size_t i = 0; i + 1 < ops.size(); ++i) Apply(out, ops[i], ops[i].bytes.size());
      const auto& last = ops.back();
      // Whole sectors of the write reached the disk, then part of one more.
      size_t len = 0;
      if (!last.truncate && !last.bytes.empty()) {
        const size_t n = last.bytes.size();
        const size_t sectors = static_cast<size_t>(rng() % ((n + kSector - 1) / kSector));
        len = std::min(n, sectors * kSector + static_cast<size_t>(rng() % kSector));
      }
      if (last.truncate || len > 0) Apply(out, last, len);
      break;
    }
  }
  return out;
}

class SimFile final : public File {
 public:
  SimFile(FaultInjectionEnv* env, std::string path, std::shared_ptr<FaultInjectionEnv::Inode> ino,
          bool writable)
      : File(std::move(path)), env_(env), ino_(std::move(ino)), writable_(writable) {}

  Status ReadAt(uint64_t off, void* buf, size_t n, size_t* got) override {
    if (env_->power_cut()) return PowerCut();
    const std::string& d = ino_->data;
    const size_t have = off >= d.size() ? 0 : std::min<size_t>(n, d.size() - off);
    if (have > 0) std::memcpy(buf, d.data() + off, have);
    std::memset(static_cast<uint8_t*>(buf) + have, 0, n - have);
    if (got) *got = have;
    return Status::OK();
  }
  Status WriteAt(uint64_t off, const void* buf, size_t n) override {
    if (!writable_) return Status::IOError("write failed on " + path() + ": Bad file descriptor");
    FaultInjectionEnv::Inode::Op op{false, off, std::string(static_cast<const char*>(buf), n)};
    const bool was_cut = env_->power_cut();
    Status st = env_->Step();
    if (!st.ok()) {
      // The write in flight when the power went may have partly landed.
      if (!was_cut && env_->power_cut()) ino_->unsynced.push_back(std::move(op));
      return st;
    }
    Apply(ino_->data, op, n);
    ino_->unsynced.push_back(std::move(op));
    return Status::OK();
  }
  Status Sync() override {
    ENGINE_RETURN_IF_ERROR(env_->Step());
    ino_->durable = ino_->data;
    ino_->unsynced.clear();
    return Status::OK();
  }
  Status Truncate(uint64_t size) override {
    ENGINE_RETURN_IF_ERROR(env_->Step());
    FaultInjectionEnv::Inode::Op op{true, size, {}};
    Apply(ino_->data, op, 0);
    ino_->unsynced.push_back(std::move(op));
    return Status::OK();
  }
  Result<uint64_t> Size() const override {
    if (env_->power_cut()) return PowerCut();
    return static_cast<uint64_t>(ino_->data.size());
  }
  // One process: every lock is granted, nobody else holds RESERVED.
  Status Lock(LockLevel level) override {
    lock_ = level;
    return Status::OK();
  }
  Result<bool> OtherHasReserved() const override { return false; }

 private:
  FaultInjectionEnv* env_;
  std::shared_ptr<FaultInjectionEnv::Inode> ino_;
  bool writable_;
};

}  // namespace

const char* CutModeName(CutMode m) {
  switch (m) {
    case CutMode::kDropUnsynced:
      return "drop-unsynced";
    case CutMode::kRandomSubset:
      return "random-subset";
    case CutMode::kTornWrite:
      return "torn-write";
  }
  return "?";
}

Status FaultInjectionEnv::Step() {
  if (cut_) return PowerCut();
  ++ops_;
  if (cut_at_ != 0 && ops_ >= cut_at_) {
    cut_ = true;
    return PowerCut();
  }
  if (fail_at_ != 0 && ops_ >= fail_at_) {
    fail_at_ = 0;
    return Status::IOError("disk I/O error (injected)");
  }
  return Status::OK();
}

void FaultInjectionEnv::SyncEverything() {
  for (auto& [name, ino] : names_) {
    ino->durable = ino->data;
    ino->unsynced.clear();
  }
  durable_ = names_;
  ops_ = 0;
  cut_at_ = 0;
}

Result<std::unique_ptr<File>> FaultInjectionEnv::Open(const std::string& path, File::Mode mode) {
  if (cut_) return PowerCut();
  auto it = names_.find(path);
  std::shared_ptr<Inode> ino;
  if (it != names_.end()) {
    ino = it->second;
  } else {
    if (mode != File::Mode::kCreate) {
      return Status::IOError("cannot open " + path + ": No such file or directory");
    }
    ENGINE_RETURN_IF_ERROR(Step());  // a new name in the directory
    ino = std::make_shared<Inode>();
    names_[path] = ino;
    if (std::find(all_names_.begin(), all_names_.end(), path) == all_names_.end()) {
      all_names_.push_back(path);
    }
  }
  return std::unique_ptr<File>(new SimFile(this, path, ino, mode != File::Mode::kReadOnly));
}

Result<std::unique_ptr<File>> FaultInjectionEnv::OpenTemp() {
  if (cut_) return PowerCut();
  // Nameless: nothing of it matters after a cut.
  return std::unique_ptr<File>(new SimFile(this, "(temp)", std::make_shared<Inode>(), true));
}

bool FaultInjectionEnv::Exists(const std::string& path) { return !cut_ && names_.count(path) > 0; }

Status FaultInjectionEnv::Delete(const std::string& path) {
  ENGINE_RETURN_IF_ERROR(Step());
  names_.erase(path);
  return Status::OK();
}

Status FaultInjectionEnv::SyncDir(const std::string& path) {
  ENGINE_RETURN_IF_ERROR(Step());
  const std::string dir = DirOf(path);
  for (const std::string& name : all_names_) {
    if (DirOf(name) != dir) continue;
    auto it = names_.find(name);
    if (it == names_.end()) {
      durable_.erase(name);
    } else {
      durable_[name] = it->second;
    }
  }
  return Status::OK();
}

std::map<std::string, std::string> FaultInjectionEnv::Current() const {
  std::map<std::string, std::string> out;
  for (const auto& [name, ino] : names_) out[name] = ino->data;
  return out;
}

std::map<std::string, std::string> FaultInjectionEnv::Survivors(CutMode mode,
                                                                std::mt19937_64& rng) const {
  std::map<std::string, std::string> out;
  for (const std::string& name : all_names_) {
    auto now = names_.find(name);
    auto was = durable_.find(name);
    const Inode* cur = now == names_.end() ? nullptr : now->second.get();
    const Inode* old = was == durable_.end() ? nullptr : was->second.get();
    // A name change not yet made durable by a directory sync may or may not
    // have reached the disk.
    const Inode* chosen = cur;
    if (cur != old) chosen = mode == CutMode::kDropUnsynced || (rng() & 1) ? old : cur;
    if (chosen != nullptr) out[name] = Surviving(*chosen, mode, rng);
  }
  return out;
}

Status FaultInjectionEnv::WriteSurvivors(
    const std::map<std::string, std::string>& survivors) const {
  for (const std::string& name : all_names_) {
    std::error_code ec;
    std::filesystem::remove(name, ec);
    auto it = survivors.find(name);
    if (it == survivors.end()) continue;
    std::ofstream f(name, std::ios::binary | std::ios::trunc);
    f.write(it->second.data(), static_cast<std::streamsize>(it->second.size()));
    if (!f) return Status::IOError("cannot write " + name);
  }
  return Status::OK();
}

}  // namespace engine::testing
