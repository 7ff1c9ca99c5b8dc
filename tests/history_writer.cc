// A test helper for tests/perfci_history_test.cc: adds COUNT runs of POINTS
// points each (keys PREFIX-0, PREFIX-1, ...) to the results database DB, and
// prints "committed KEY" on stdout, flushed, after each add_run returned, so
// the test knows which runs were committed when it kills this process.
#include <cstdio>
#include <exception>
#include <string>

#include "perfci/history/results_db.h"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: history_writer DB PREFIX COUNT POINTS\n");
    return 2;
  }
  try {
    const std::string prefix = argv[2];
    const int count = std::stoi(argv[3]);
    const int points = std::stoi(argv[4]);
    auto db = perfci::history::ResultsDb::open(argv[1]);
    for (int i = 0; i < count; ++i) {
      perfci::history::RunRecord run;
      run.key = prefix + "-" + std::to_string(i);
      run.command = "ab";
      run.created = "2026-01-01T00:00:00Z";
      for (const char* label : {"A", "B"}) {
        perfci::history::SideRecord side;
        side.label = label;
        side.commit = std::string(40, label[0] == 'A' ? 'a' : 'b');
        for (int p = 0; p < points; ++p)
          side.points.push_back({"bench/" + std::to_string(p), "wall", "real_time_ns", "ns",
                                 1000.0 + i + p, 990.0, 1010.0, 10, false});
        run.sides.push_back(std::move(side));
      }
      if (!db.add_run(run)) {
        std::fprintf(stderr, "history_writer: %s was there already\n", run.key.c_str());
        return 1;
      }
      std::printf("committed %s\n", run.key.c_str());
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "history_writer: %s\n", e.what());
    return 2;
  }
  return 0;
}
