// perfci's one verdict vocabulary (issue 15): every rule that turns numbers
// into "regressed", "accepted", "pass" lives here or in verdict.h, typed.
// Strings appear only where JSON is written and read (stats_json.h) and
// where a rendering prints a word.
//
//   Verdict (verdict.h)  what one metric's numbers say: regressed, improved,
//                        unchanged, noisy;
//   Gate                 how `perfci check` counts that metric: gated,
//                        information only, or an accepted regression;
//   Outcome              what a metric, a benchmark or a whole run comes to,
//                        ordered from harmless to worst;
//   CheckOutcome         the gate's answer: pass, fail, error, not gated.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "perfci/stats/verdict.h"

namespace perfci::stats {

enum class Gate {
  kAll,          // A/B and A/A: every metric's verdict counts (no "gate" in JSON)
  kGated,        // check: its verdict decides the exit code
  kInformation,  // check: shown, not gated (toolchain or machine differs, or configured so)
  kAccepted,     // check: a regression perfci.json's "accepted" list accepts
};

// Declared in rank order: a later value is worse. "information" is a
// benchmark with metrics none of which is gated; "failed" one that did not run.
enum class Outcome {
  kInformation,
  kUnchanged,
  kNoisy,
  kImproved,
  kAccepted,
  kRegressed,
  kFailed,
};

enum class CheckOutcome { kPass, kFail, kError, kNotGated };

// Higher is worse: information 0 ... failed 6.
int rank(Outcome outcome);
Outcome worse(Outcome a, Outcome b);

// What one metric counts as: nothing (nullopt) when it is information only,
// "accepted" when the gate accepted it, else its verdict.
std::optional<Outcome> metric_outcome(Verdict verdict, Gate gate);
Outcome outcome_of(Verdict verdict);

// A suspect's final decision after `fresh_pairs` confirmation pairs: the
// first decision stands (its reason saying so) when the confirmation agrees,
// else the metric is noisy and the reason quotes both.
Decision confirm(const Decision& first, const Decision& confirmation, int fresh_pairs);

// Whether a first decision makes a metric a suspect to confirm.
bool needs_confirmation(const MetricPolicy& policy, const Decision& first);

// The gate's answer from what a check found: an error (exit 2) over a
// finding (a regression, a broken contract: exit 1) over "not gated" (no
// benchmark metric counted, so nothing was proven: exit 3) over pass.
CheckOutcome decide_check(bool any_error, bool any_finding, int gated_metrics);

// Whether a metric counted towards "pass": gated, or an accepted regression.
bool counts_for_gate(Gate gate);

// Exit codes: pass 0, fail 1, error 2, not gated 3.
int exit_code(CheckOutcome outcome);
CheckOutcome check_outcome_from_exit_code(int exit_code);

std::string_view to_string(Gate gate);  // "" for kAll
std::string_view to_string(Outcome outcome);
std::string_view to_string(CheckOutcome outcome);  // "pass", "fail", "error", "not gated"
std::optional<Gate> parse_gate(std::string_view text);
std::optional<Outcome> parse_outcome(std::string_view text);
std::optional<CheckOutcome> parse_check_outcome(std::string_view text);

}  // namespace perfci::stats
