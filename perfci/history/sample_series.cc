#include "perfci/history/sample_series.h"

#include <string>

namespace perfci::history::testing {

std::vector<CommitSubject> sample_history(int commits) {
  std::vector<CommitSubject> h;
  const std::string hex = "0123456789abcdef";
  for (int i = 0; i < commits; ++i) {
    std::string hash(40, '0');
    hash[0] = hex[static_cast<std::size_t>(i / 16)];
    hash[1] = hex[static_cast<std::size_t>(i % 16)];
    h.push_back({hash, "commit " + std::to_string(i) + (i == 17 ? " <b>&amp; friends</b>" : "")});
  }
  return h;
}

std::vector<Series> sample_series() {
  const auto h = sample_history(30);
  std::vector<StoredPoint> points;
  for (int i = 0; i < 30; ++i) {
    StoredPoint ir;
    ir.command = "check";
    ir.side = "B";
    ir.commit = h[static_cast<std::size_t>(i)].commit;
    ir.profile = "x86_64-debian12-gcc12-release";
    ir.created = "2026-12-01T00:00:00Z";
    ir.point = {"engine/read_join",
                "callgrind",
                "ir",
                "instructions/iteration",
                i >= 17 ? 1'003'000.0 : 1'000'000.0,
                {},
                {},
                1,
                true};
    points.push_back(ir);
    StoredPoint wall = ir;
    wall.hostname = "ci-1";
    wall.cpu_model = "Intel Xeon";
    const double noise = (i % 3 == 0 ? 0.99 : i % 3 == 1 ? 1.0 : 1.01);
    const double v = (i >= 17 ? 1050.0 : 1000.0) * noise;
    wall.point = {"engine/read_join", "wall", "real_time_ns", "ns", v, v * 0.98,
                  v * 1.02,           20,     false};
    points.push_back(wall);
  }
  StoredPoint baseline = points[0];
  baseline.side = "A";
  points.push_back(baseline);
  const std::vector<AcceptedMark> accepted = {
      {h[17].commit, "engine/read_join", "callgrind", "ir"}};
  return build_series(points, accepted, h, MetricPolicies{}, {});
}

}  // namespace perfci::history::testing
