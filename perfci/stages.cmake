# perfci's stages, lowest first: a stage may use (include, link) only the
# stages before it. Read by perfci/CMakeLists.txt, which builds each stage as
# a library linking only earlier ones, and by tests/layering_check.cmake,
# which fails the build on an include that goes the other way.
#   util       files, processes, ELF, strings: no perfci knowledge
#   stats      the statistics and the one verdict vocabulary (pure functions)
#   contracts  contracts checked from DWARF and disassembly, and their results
#   counters   perf events: libpfm4 names, perf_event_open groups
#   bench      the hook a Google Benchmark binary links (counters only)
#   model      plain records: a run's results, an A/B run, a report
#   config     perfci.json: suites, targets, meters
#   env        the machine and a binary's build facts
#   meters     wall, counters, callgrind, profiles: one BenchmarkResult each
#   runner     trials: the A/B scheduler, worktrees and builds of revisions
#   baseline   stored baselines and the profile that makes them comparable
#   analysis   explanations, oracle gaps, a report built from a run
#   check      a run against its baseline: gates, accepted regressions
#   history    the results database: every run kept, series along first-parent history
#   report     renderings only: Markdown, HTML, plots
#   app        the commands' orchestration, one function per command
#   cli        flags only
set(PERFCI_STAGES util stats contracts counters bench model config env meters runner baseline
    analysis check history report app cli)
# Files at the top of perfci/, and the stage each belongs to.
set(PERFCI_TOP_FILES "version.h=util" "version.cc=util" "bench.h=bench")
