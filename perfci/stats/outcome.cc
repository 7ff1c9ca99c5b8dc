#include "perfci/stats/outcome.h"

#include <array>
#include <utility>

namespace perfci::stats {

namespace {

// One table per enum: the word it is written as, in declaration order, so
// to_string and parse cannot disagree.
constexpr std::array<std::pair<Gate, std::string_view>, 4> kGates{{
    {Gate::kAll, ""},
    {Gate::kGated, "gated"},
    {Gate::kInformation, "information"},
    {Gate::kAccepted, "accepted"},
}};
constexpr std::array<std::pair<Outcome, std::string_view>, 7> kOutcomes{{
    {Outcome::kInformation, "information"},
    {Outcome::kUnchanged, "unchanged"},
    {Outcome::kNoisy, "noisy"},
    {Outcome::kImproved, "improved"},
    {Outcome::kAccepted, "accepted"},
    {Outcome::kRegressed, "regressed"},
    {Outcome::kFailed, "failed"},
}};
constexpr std::array<std::pair<CheckOutcome, std::string_view>, 4> kCheckOutcomes{{
    {CheckOutcome::kPass, "pass"},
    {CheckOutcome::kFail, "fail"},
    {CheckOutcome::kError, "error"},
    {CheckOutcome::kNotGated, "not gated"},
}};

template <typename E, std::size_t N>
std::string_view name_in(const std::array<std::pair<E, std::string_view>, N>& table, E value) {
  for (const auto& [v, name] : table)
    if (v == value) return name;
  return "unknown";
}

template <typename E, std::size_t N>
std::optional<E> parse_in(const std::array<std::pair<E, std::string_view>, N>& table,
                          std::string_view text) {
  for (const auto& [v, name] : table)
    if (name == text) return v;
  return std::nullopt;
}

}  // namespace

int rank(Outcome outcome) { return static_cast<int>(outcome); }

Outcome worse(Outcome a, Outcome b) { return rank(b) > rank(a) ? b : a; }

Outcome outcome_of(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegressed:
      return Outcome::kRegressed;
    case Verdict::kImproved:
      return Outcome::kImproved;
    case Verdict::kNoisy:
      return Outcome::kNoisy;
    case Verdict::kUnchanged:
      break;
  }
  return Outcome::kUnchanged;
}

std::optional<Outcome> metric_outcome(Verdict verdict, Gate gate) {
  if (gate == Gate::kInformation) return std::nullopt;
  if (gate == Gate::kAccepted) return Outcome::kAccepted;
  return outcome_of(verdict);
}

bool needs_confirmation(const MetricPolicy& policy, const Decision& first) {
  return !policy.deterministic &&
         (first.verdict == Verdict::kRegressed || first.verdict == Verdict::kImproved);
}

Decision confirm(const Decision& first, const Decision& confirmation, int fresh_pairs) {
  std::string pairs = std::to_string(fresh_pairs) + " fresh pairs";
  if (confirmation.verdict == first.verdict)
    return {first.verdict, first.reason + "; confirmed by " + pairs};
  return {Verdict::kNoisy, "not confirmed: first " + std::string(to_string(first.verdict)) + " (" +
                               first.reason + "), then " +
                               std::string(to_string(confirmation.verdict)) + " in " + pairs +
                               " (" + confirmation.reason + ")"};
}

CheckOutcome decide_check(bool any_error, bool any_finding, int gated_metrics) {
  if (any_error) return CheckOutcome::kError;
  if (any_finding) return CheckOutcome::kFail;
  if (gated_metrics == 0) return CheckOutcome::kNotGated;
  return CheckOutcome::kPass;
}

bool counts_for_gate(Gate gate) { return gate == Gate::kGated || gate == Gate::kAccepted; }

int exit_code(CheckOutcome outcome) {
  switch (outcome) {
    case CheckOutcome::kPass:
      return 0;
    case CheckOutcome::kFail:
      return 1;
    case CheckOutcome::kError:
      return 2;
    case CheckOutcome::kNotGated:
      return 3;
  }
  return 2;
}

CheckOutcome check_outcome_from_exit_code(int code) {
  switch (code) {
    case 0:
      return CheckOutcome::kPass;
    case 1:
      return CheckOutcome::kFail;
    case 3:
      return CheckOutcome::kNotGated;
    default:
      return CheckOutcome::kError;
  }
}

std::string_view to_string(Gate gate) { return name_in(kGates, gate); }
std::string_view to_string(Outcome outcome) { return name_in(kOutcomes, outcome); }
std::string_view to_string(CheckOutcome outcome) { return name_in(kCheckOutcomes, outcome); }
std::optional<Gate> parse_gate(std::string_view text) { return parse_in(kGates, text); }
std::optional<Outcome> parse_outcome(std::string_view text) { return parse_in(kOutcomes, text); }
std::optional<CheckOutcome> parse_check_outcome(std::string_view text) {
  return parse_in(kCheckOutcomes, text);
}

}  // namespace perfci::stats
