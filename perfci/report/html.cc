#include "perfci/report/html.h"

#include <fmt/format.h>

#include <cctype>

#include "perfci/report/check_render.h"
#include "perfci/report/format.h"
#include "perfci/report/html_page.h"
#include "perfci/report/shard_render.h"
#include "perfci/report/svg_plot.h"

namespace perfci::report {
namespace {

std::string td(const std::string& text, const char* cls = nullptr) {
  return cls ? fmt::format("<td class=\"{}\">{}</td>", cls, html_escape(text))
             : "<td>" + html_escape(text) + "</td>";
}

std::string anchor(const std::string& name) {
  std::string out = "b-";
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out;
}

}  // namespace

std::string render_html(const Report& r) {
  if (r.check) return render_check_html(r);
  bool aa = r.mode == "aa";
  std::string h = html_page_head(fmt::format("perfci {}: {}", aa ? "A/A" : "A/B", ab_headline(r)));
  h +=
      fmt::format("<h1>perfci {}: <span class=\"{}\">{}</span>{}</h1>\n",
                  aa ? "A/A (noise)" : "A/B", r.incomplete ? "failed" : html_escape(ab_headline(r)),
                  html_escape(ab_headline(r)), html_escape(shard_headline(r)));
  if (r.incomplete)
    h += "<p class=\"failed\"><strong>" + html_escape(incomplete_notice(r)) + ".</strong></p>\n";
  h += shard_html(r);
  if (r.pairing == "unpaired")
    h += fmt::format(
        "<p>{} regressed, {} improved, {} unchanged, {} noisy, {} failed; created {}.</p>\n"
        "<p class=\"pairing\">{}</p>\n",
        r.counts.regressed, r.counts.improved, r.counts.unchanged, r.counts.noisy, r.counts.failed,
        html_escape(r.created), html_escape(unpaired_sentence()));
  else
    h += fmt::format(
        "<p>{} regressed, {} improved, {} unchanged, {} noisy, {} failed. {} pairs{}, seed {}, "
        "{:.0f} s; created {}.</p>\n",
        r.counts.regressed, r.counts.improved, r.counts.unchanged, r.counts.noisy, r.counts.failed,
        r.pairs,
        r.confirmation_pairs ? fmt::format(" (+{} confirmation)", r.confirmation_pairs) : "",
        r.seed, r.elapsed_seconds, html_escape(r.created));
  if (!r.warnings.empty()) {
    h += "<ul class=\"warnings\">\n";
    for (const auto& w : r.warnings) h += "<li><b>warning</b>: " + html_escape(w) + "</li>\n";
    h += "</ul>\n";
  }
  h += "<ul>\n";
  for (const Side* s : {&r.a, &r.b}) {
    h += fmt::format("<li><b>{}</b>: {}", html_escape(s->label), html_escape(side_description(*s)));
    if (!s->compiler.empty()) h += "<br><small>" + html_escape(s->compiler) + "</small>";
    h += "</li>\n";
  }
  h += "</ul>\n";

  h += "<table class=\"summary\">\n<tr><th>benchmark</th><th>metric</th><th>A (median)</th><th>B "
       "(median)</th><th>B/A</th><th>95% interval</th><th>q</th><th>verdict</th><th>other "
       "metrics</th></tr>\n";
  for (const BenchmarkReport* b : benchmarks_worst_first(r)) {
    std::string v = std::string(stats::to_string(benchmark_outcome(b->run)));
    const MetricRun* m = primary_metric(b->run);
    h += "<tr><td><a href=\"#" + anchor(b->run.name) + "\">" + html_escape(b->run.name) +
         "</a></td>";
    if (!m) {
      h += "<td colspan=\"6\"></td>" + td(v, v.c_str()) + "<td></td></tr>\n";
      continue;
    }
    const auto& c = m->comparison;
    h += td(metric_label(*m)) + td(format_value(m->metric, c.a.median), "num") +
         td(format_value(m->metric, c.b.median), "num") + td(format_ratio(c.ratio), "num") +
         td("[" + format_ratio(c.interval.lo) + ", " + format_ratio(c.interval.hi) + "]") +
         td(format_q(m->q_value), "num") + td(v, v.c_str()) + td(other_changes(b->run, m)) +
         "</tr>\n";
  }
  h += "</table>\n";

  if (!r.oracle_gaps.empty()) {
    h += "<h2>Oracle gap (engine / "
         "oracle)</h2>\n<table>\n<tr><th>workload</th><th>metric</th><th>A</th>"
         "<th>B</th><th>change</th></tr>\n";
    for (const auto& g : r.oracle_gaps)
      h += "<tr>" + td(g.workload) + td(g.metric) + td(fmt::format("{:.2f}x", g.gap_a), "num") +
           td(fmt::format("{:.2f}x", g.gap_b), "num") + td(format_change(g.change), "num") +
           "</tr>\n";
    h += "</table>\n";
  }
  if (!r.contract_changes.empty()) {
    h += "<h2>Contracts that "
         "changed</h2>\n<table>\n<tr><th>contract</th><th>A</th><th>B</th><th>message</th></tr>\n";
    for (const auto& c : r.contract_changes)
      h += "<tr>" + td(c.contract) + td(c.status_a) + td(c.status_b) + td(c.message) + "</tr>\n";
    h += "</table>\n";
  }

  for (const BenchmarkReport* b : benchmarks_worst_first(r)) {
    std::string v = std::string(stats::to_string(benchmark_outcome(b->run)));
    h += fmt::format(
        "<section class=\"benchmark\" id=\"{}\">\n<h2>{} <span class=\"{}\">{}</span></h2>\n",
        anchor(b->run.name), html_escape(b->run.name), html_escape(v), html_escape(v));
    if (b->run.failed()) h += "<pre>" + html_escape(b->run.error) + "</pre>\n";
    for (const auto& m : b->run.metrics) {
      std::string title = b->run.name + " — " + metric_label(m);
      h += fmt::format("<h3>{}: <span class=\"{}\">{}</span></h3>\n<p>{}</p>\n",
                       html_escape(metric_label(m)), stats::to_string(m.decision.verdict),
                       stats::to_string(m.decision.verdict), html_escape(m.decision.reason));
      if (m.noise)
        h += fmt::format(
            "<p>Machine noise: {:.2f}% per pair, 95% of pairs within ±{:.2f}%, detectable "
            "change {}.</p>\n",
            m.noise->pair_noise * 100, m.noise->p95_abs_change * 100,
            html_escape(format_change(m.noise->detectable_effect)));
      h += render_strip_plot(
          {title, m.metric, m.a, m.b, r.pairing == "unpaired" ? "repetition" : "pair"});
    }
    if (b->explanation) {
      const Explanation& e = *b->explanation;
      h += "<h3>Why</h3>\n<ul>\n";
      for (const auto& n : e.notes) h += "<li>" + html_escape(n) + "</li>\n";
      h += "</ul>\n";
      if (!e.symbols.empty()) {
        h += fmt::format(
            "<table>\n<tr><th>symbol ({})</th><th>change</th><th>A per iter</th><th>B per "
            "iter</th><th>share A</th><th>share B</th></tr>\n",
            html_escape(e.source));
        for (const auto& s : e.symbols)
          h += "<tr>" + td(s.symbol) + td(s.change) + td(format_value("", s.cost_a), "num") +
               td(format_value("", s.cost_b), "num") +
               td(fmt::format("{:.1f}%", s.share_a * 100), "num") +
               td(fmt::format("{:.1f}%", s.share_b * 100), "num") + "</tr>\n";
        h += "</table>\n";
      }
    }
    h += "</section>\n";
  }
  return h + html_page_tail();
}

}  // namespace perfci::report
