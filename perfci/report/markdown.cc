#include "perfci/report/markdown.h"

#include <fmt/format.h>

#include <cmath>

#include "perfci/report/check_render.h"
#include "perfci/report/format.h"
#include "perfci/report/shard_render.h"
#include "perfci/stats/descriptive.h"

namespace perfci::report {

std::string render_markdown(const Report& r) {
  if (r.check) return render_check_markdown(r);
  std::string md;
  bool aa = r.mode == "aa";
  const bool unpaired = r.pairing == "unpaired";
  md += fmt::format("## perfci {}: **{}**{}\n\n", aa ? "A/A (noise)" : "A/B", ab_headline(r),
                    shard_headline(r));
  if (r.incomplete) md += "**" + incomplete_notice(r) + ".**\n\n";
  md += shard_markdown(r);
  md += fmt::format("{} regressed, {} improved, {} unchanged, {} noisy, {} failed.\n\n",
                    r.counts.regressed, r.counts.improved, r.counts.unchanged, r.counts.noisy,
                    r.counts.failed);
  md += fmt::format("- **A**: {}\n- **B**: {}\n", markdown_cell(side_description(r.a)),
                    markdown_cell(side_description(r.b)));
  std::string meters;
  if (r.settings.contains("meters"))
    for (const auto& m : r.settings["meters"])
      meters += (meters.empty() ? "" : ", ") + m.get<std::string>();
  if (r.pairing == "unpaired")
    md += "- " + unpaired_sentence() + "\n\n";
  else
    md += fmt::format(
        "- {} pairs{} after {} warm-up trial(s) per side, seed {}, meters {}, {:.0f} s\n\n",
        r.pairs,
        r.confirmation_pairs ? fmt::format(" (+{} confirmation)", r.confirmation_pairs) : "",
        r.warmup, r.seed, meters.empty() ? "-" : meters, r.elapsed_seconds);
  for (const auto& w : r.warnings) md += "> **warning**: " + markdown_cell(w) + "\n\n";

  md +=
      "| benchmark | metric | A (median) | B (median) | B/A | 95% interval | q | verdict | other "
      "metrics |\n";
  md += "|---|---|---:|---:|---:|---|---:|---|---|\n";
  for (const BenchmarkReport* b : benchmarks_worst_first(r)) {
    std::string verdict = std::string(stats::to_string(benchmark_outcome(b->run)));
    const MetricRun* m = primary_metric(b->run);
    if (!m) {
      md += fmt::format("| {} | - | - | - | - | - | - | **{}** | |\n", markdown_cell(b->run.name),
                        verdict);
      continue;
    }
    const auto& c = m->comparison;
    bool strong = verdict == "regressed" || verdict == "failed" || verdict == "improved";
    md += fmt::format(
        "| {} | {} | {} | {} | {} | [{}, {}] | {} | {} | {} |\n", markdown_cell(b->run.name),
        metric_label(*m), format_value(m->metric, c.a.median), format_value(m->metric, c.b.median),
        format_ratio(c.ratio), format_ratio(c.interval.lo), format_ratio(c.interval.hi),
        format_q(m->q_value), strong ? "**" + verdict + "**" : verdict,
        markdown_cell(other_changes(b->run, m)));
  }
  md += "\n";

  for (const BenchmarkReport* b : benchmarks_worst_first(r)) {
    if (b->run.failed()) {
      md += fmt::format("### {} failed\n\n```\n{}\n```\n\n", b->run.name, b->run.error);
      continue;
    }
    if (!b->explanation) continue;
    const Explanation& e = *b->explanation;
    md += fmt::format("### Why {} {}\n\n", b->run.name,
                      std::string(stats::to_string(benchmark_outcome(b->run))));
    for (const auto& m : b->run.metrics)
      if (m.decision.verdict == stats::Verdict::kRegressed ||
          m.decision.verdict == stats::Verdict::kImproved)
        md += fmt::format("- {}: {}\n", metric_label(m), markdown_cell(m.decision.reason));
    for (const auto& n : e.notes) md += "- " + n + "\n";
    md += markdown_symbol_table(e, "A", "B");
    md += "\n";
  }

  if (!r.contract_changes.empty()) {
    md += "### Contracts that changed\n\n| contract | A | B | message |\n|---|---|---|---|\n";
    for (const auto& c : r.contract_changes)
      md += fmt::format("| {} | {} | {} | {} |\n", markdown_cell(c.contract), c.status_a,
                        c.status_b, markdown_cell(c.message));
    md += "\n";
  }

  if (!r.oracle_gaps.empty()) {
    md +=
        "### Oracle gap (engine / oracle)\n\n| workload | metric | A | B | change "
        "|\n|---|---|---:|---:|---:|\n";
    for (const auto& g : r.oracle_gaps)
      md += fmt::format("| {} | {} | {:.2f}x | {:.2f}x | {} |\n", markdown_cell(g.workload),
                        g.metric, g.gap_a, g.gap_b, format_change(g.change));
    md += "\n";
  }

  std::string rows;
  for (const auto& b : r.benchmarks) {
    for (const auto& m : b.run.metrics) {
      if (m.policy.deterministic) continue;
      if (aa && m.noise)
        rows += fmt::format("| {} | {} | {:.2f}% | ±{:.2f}% | {:.2f}% | {:.2f}% | {} |\n",
                            markdown_cell(b.run.name), metric_label(m), m.noise->pair_noise * 100,
                            m.noise->p95_abs_change * 100, m.noise->cv_a * 100, m.noise->cv_b * 100,
                            format_change(m.noise->detectable_effect));
      else if (!aa)
        rows += fmt::format(
            "| {} | {} | {} | {} |\n", markdown_cell(b.run.name), metric_label(m),
            unpaired ? fmt::format("{} / {}", m.a.size(), m.b.size()) : std::to_string(m.a.size()),
            std::isfinite(m.comparison.detectable_effect)
                ? "±" + format_change(m.comparison.detectable_effect).substr(1)
                : std::string(unpaired ? "none (too few repetitions)" : "none (too few pairs)"));
    }
  }
  // Deterministic metrics have no noise to speak of: no table without rows.
  if (!rows.empty()) {
    md += aa ? "### Machine noise (A/A)\n\n| benchmark | metric | pair noise | 95% of pairs within "
               "| CV A | CV B | "
               "detectable change |\n|---|---|---:|---:|---:|---:|---:|\n"
          : unpaired ? "### Sensitivity\n\n| benchmark | metric | repetitions A / B | detectable "
                       "change |\n|---|---|---:|---:|\n"
                     : "### Sensitivity\n\n| benchmark | metric | pairs | detectable change "
                       "|\n|---|---|---:|---:|\n";
    md += rows + "\n";
  }
  return md;
}

}  // namespace perfci::report
